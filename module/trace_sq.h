/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_sq.h - trace events of the send queue's waits (sendctx.c,
 * sendq_timeout.c): for slots, for send contexts, and for completions
 * that do not come. See trace_common.h.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM xrpcrdma

#if !defined(_XRPCRDMA_TRACE_SQ_H) || defined(TRACE_HEADER_MULTI_READ)
#define _XRPCRDMA_TRACE_SQ_H

#include <linux/tracepoint.h>

#include "ep.h"
#include "sendq.h"
#include "trace_common.h"

DECLARE_EVENT_CLASS(xrpcrdma_sq_class,
		    TP_PROTO(const struct xr_sendq *sq, u32 wanted),
		    TP_ARGS(sq, wanted),
		    TP_STRUCT__entry(__field(u32, xprt_id)
				     __field(unsigned int, role)
				     __field(u32, cq_id)
				     __field(int, avail)
				     __field(u32, depth)
				     __field(u32, wanted)
		    ),
		    TP_fast_assign(__entry->xprt_id = READ_ONCE(sq->sq_ep->ep_owner_id);
				   __entry->role = xr_trace_role(sq->sq_ep);
				   __entry->cq_id = sq->sq_ep->ep_scq->res.id;
				   __entry->avail = atomic_read(&sq->sq_avail);
				   __entry->depth = sq->sq_ep->ep_sq_depth;
				   __entry->wanted = wanted;
		    ),
		    TP_printk("xprt.id=%u %s cq.id=%u avail=%d/%u wanted=%u",
			      __entry->xprt_id, xr_show_role(__entry->role),
			      __entry->cq_id, __entry->avail, __entry->depth,
			      __entry->wanted)
);

#define DEFINE_XR_SQ_EVENT(name)					\
	DEFINE_EVENT(xrpcrdma_sq_class, name,				\
		     TP_PROTO(const struct xr_sendq *sq, u32 wanted),	\
		     TP_ARGS(sq, wanted))

/* Too few send queue slots: the poster waits (sq_full), and goes on. */
DEFINE_XR_SQ_EVENT(xrpcrdma_sq_full);
DEFINE_XR_SQ_EVENT(xrpcrdma_sq_retry);
/* Every send context allowed (sendctx-max) is in use: the getter waits. */
DEFINE_XR_SQ_EVENT(xrpcrdma_sendctx_wait);
/* Signaled Sends (wanted: how many) had no completion for send-timeout. */
DEFINE_XR_SQ_EVENT(xrpcrdma_sq_timeout);
/*
 * Only unsignaled Sends (wanted: how many in the run) were out, with no
 * completion for send-timeout: a completion is asked for behind them.
 */
DEFINE_XR_SQ_EVENT(xrpcrdma_sq_probe);

#endif /* _XRPCRDMA_TRACE_SQ_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace_sq
#include <trace/define_trace.h>
