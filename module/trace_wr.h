/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_wr.h - trace events of work requests (sendctx.c, recvctx.c,
 * rw.c, xprt_frwr.c): their posts and completions, tied by completion
 * ID, and the waits for send queue slots and send contexts. See
 * trace_common.h.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM xrpcrdma

#if !defined(_XRPCRDMA_TRACE_WR_H) || defined(TRACE_HEADER_MULTI_READ)
#define _XRPCRDMA_TRACE_WR_H

#include <linux/scatterlist.h>
#include <linux/tracepoint.h>
#include <rdma/ib_cm.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>
#include <trace/misc/rdma.h>

#include "ep.h"
#include "recvq.h"
#include "rw.h"
#include "sendq.h"
#include "trace_common.h"

#ifndef _XRPCRDMA_TRACE_WR_HELPERS
#define _XRPCRDMA_TRACE_WR_HELPERS

/* The kinds of work request, for xrpcrdma_post_err. */
#define XR_TRACE_WR_SEND	0
#define XR_TRACE_WR_RECV	1
#define XR_TRACE_WR_READ	2
#define XR_TRACE_WR_WRITE	3
#define XR_TRACE_WR_LOCALINV	4

/* Bytes an RDMA Read/Write set moves. */
static inline u32 xr_trace_rw_bytes(const struct xr_rw *rw)
{
	struct scatterlist *sg;
	u32 i, j, bytes = 0;

	for (i = 0; i < rw->rw_nops; i++)
		for_each_sg(rw->rw_ops[i].ro_sgl, sg, rw->rw_ops[i].ro_nents, j)
			bytes += sg->length;
	return bytes;
}

/* The handle a received Send With Invalidate invalidated, 0 for none. */
static inline u32 xr_trace_wc_inv_rkey(const struct ib_wc *wc)
{
	if (wc->status || !(wc->wc_flags & IB_WC_WITH_INVALIDATE))
		return 0;
	return wc->ex.invalidate_rkey;
}

/* Bytes a Send carries. */
static inline u32 xr_trace_send_len(const struct xr_sendctx *sc)
{
	u32 len = 0;
	int i;

	for (i = 0; i < sc->sc_wr.num_sge && i < XR_SENDCTX_MAX_SGES; i++)
		len += sc->sc_sges[i].length;
	return len;
}

#endif /* _XRPCRDMA_TRACE_WR_HELPERS */

#define xr_show_wr(x)						\
	__print_symbolic(x,					\
			 { XR_TRACE_WR_SEND, "send" },		\
			 { XR_TRACE_WR_RECV, "receive" },	\
			 { XR_TRACE_WR_READ, "read" },		\
			 { XR_TRACE_WR_WRITE, "write" },	\
			 { XR_TRACE_WR_LOCALINV, "localinv" })

/*
 * Completions. Every completion event: the work request's completion ID
 * and the work completion's status, with the vendor's error code when
 * it is not a success.
 */

DECLARE_EVENT_CLASS(xrpcrdma_completion_class,
		    TP_PROTO(const struct ib_wc *wc, const struct xr_cid *cid),
		    TP_ARGS(wc, cid),
		    TP_STRUCT__entry(__field(u32, cq_id)
				     __field(int, completion_id)
				     __field(unsigned long, status)
				     __field(unsigned int, vendor_err)
		    ),
		    TP_fast_assign(__entry->cq_id = cid->ci_queue_id;
				   __entry->completion_id = cid->ci_completion_id;
				   __entry->status = wc->status;
				   __entry->vendor_err = wc->status ? wc->vendor_err : 0;
		    ),
		    TP_printk("cq.id=%u cid=%d status=%s (%lu/0x%x)",
			      __entry->cq_id, __entry->completion_id,
			      rdma_show_wc_status(__entry->status),
			      __entry->status, __entry->vendor_err)
);

#define DEFINE_XR_COMPLETION_EVENT(name)				\
	DEFINE_EVENT(xrpcrdma_completion_class, name,			\
		     TP_PROTO(const struct ib_wc *wc,			\
			      const struct xr_cid *cid),		\
		     TP_ARGS(wc, cid))

DEFINE_XR_COMPLETION_EVENT(xrpcrdma_wc_send);
DEFINE_XR_COMPLETION_EVENT(xrpcrdma_wc_read);
DEFINE_XR_COMPLETION_EVENT(xrpcrdma_wc_write);
DEFINE_XR_COMPLETION_EVENT(xrpcrdma_wc_fastreg);
DEFINE_XR_COMPLETION_EVENT(xrpcrdma_wc_localinv);

TRACE_EVENT(xrpcrdma_wc_receive,
	    TP_PROTO(const struct ib_wc *wc, const struct xr_cid *cid),
	    TP_ARGS(wc, cid),
	    TP_STRUCT__entry(__field(u32, cq_id)
			     __field(int, completion_id)
			     __field(unsigned long, status)
			     __field(unsigned int, vendor_err)
			     __field(u32, received)
			     __field(u32, inv_rkey)
	    ),
	    TP_fast_assign(__entry->cq_id = cid->ci_queue_id;
			   __entry->completion_id = cid->ci_completion_id;
			   __entry->status = wc->status;
			   __entry->vendor_err = wc->status ? wc->vendor_err : 0;
			   __entry->received = wc->status ? 0 : wc->byte_len;
			   __entry->inv_rkey = xr_trace_wc_inv_rkey(wc);
	    ),
	    TP_printk("cq.id=%u cid=%d status=%s (%lu/0x%x) received=%u inv_rkey=0x%08x",
		      __entry->cq_id, __entry->completion_id,
		      rdma_show_wc_status(__entry->status),
		      __entry->status, __entry->vendor_err,
		      __entry->received, __entry->inv_rkey)
);

/*
 * Posts. Each fires before its work request is handed to the device,
 * so it is recorded before the completion.
 */

TRACE_EVENT(xrpcrdma_post_send,
	    TP_PROTO(const struct xr_sendctx *sc),
	    TP_ARGS(sc),
	    TP_STRUCT__entry(__field(u32, cq_id)
			     __field(int, completion_id)
			     __field(u32, xprt_id)
			     __field(unsigned int, role)
			     __field(u32, len)
			     __field(u32, num_sge)
			     __field(u32, wrs)
			     __field(bool, signaled)
			     __field(u32, inv_rkey)
	    ),
	    TP_fast_assign(const struct xr_ep *ep = sc->sc_pool->sq_ep;

			   __entry->cq_id = sc->sc_cid.ci_queue_id;
			   __entry->completion_id = sc->sc_cid.ci_completion_id;
			   __entry->xprt_id = READ_ONCE(ep->ep_owner_id);
			   __entry->role = xr_trace_role(ep);
			   __entry->len = xr_trace_send_len(sc);
			   __entry->num_sge = sc->sc_wr.num_sge;
			   __entry->wrs = sc->sc_slots;
			   __entry->signaled = sc->sc_signaled;
			   __entry->inv_rkey = sc->sc_wr.opcode == IB_WR_SEND_WITH_INV ?
					       sc->sc_wr.ex.invalidate_rkey : 0;
	    ),
	    TP_printk("cq.id=%u cid=%d xprt.id=%u %s len=%u num_sge=%u wrs=%u signaled=%d inv_rkey=0x%08x",
		      __entry->cq_id, __entry->completion_id, __entry->xprt_id,
		      xr_show_role(__entry->role), __entry->len,
		      __entry->num_sge, __entry->wrs, __entry->signaled,
		      __entry->inv_rkey)
);

TRACE_EVENT(xrpcrdma_post_recv,
	    TP_PROTO(const struct xr_recvctx *rc),
	    TP_ARGS(rc),
	    TP_STRUCT__entry(__field(u32, cq_id)
			     __field(int, completion_id)
			     __field(u32, xprt_id)
			     __field(unsigned int, role)
	    ),
	    TP_fast_assign(const struct xr_ep *ep = rc->rctx_pool->rcvq_ep;

			   __entry->cq_id = rc->rctx_cid.ci_queue_id;
			   __entry->completion_id = rc->rctx_cid.ci_completion_id;
			   __entry->xprt_id = READ_ONCE(ep->ep_owner_id);
			   __entry->role = xr_trace_role(ep);
	    ),
	    TP_printk("cq.id=%u cid=%d xprt.id=%u %s",
		      __entry->cq_id, __entry->completion_id, __entry->xprt_id,
		      xr_show_role(__entry->role))
);

DECLARE_EVENT_CLASS(xrpcrdma_post_rw_class,
		    TP_PROTO(const struct xr_rw *rw),
		    TP_ARGS(rw),
		    TP_STRUCT__entry(__field(u32, cq_id)
				     __field(int, completion_id)
				     __field(u32, xprt_id)
				     __field(unsigned int, role)
				     __field(u32, nsegs)
				     __field(u32, wrs)
				     __field(u32, bytes)
		    ),
		    TP_fast_assign(const struct xr_ep *ep = rw->rw_sq->sq_ep;

				   __entry->cq_id = rw->rw_cid.ci_queue_id;
				   __entry->completion_id = rw->rw_cid.ci_completion_id;
				   __entry->xprt_id = READ_ONCE(ep->ep_owner_id);
				   __entry->role = xr_trace_role(ep);
				   __entry->nsegs = rw->rw_nops;
				   __entry->wrs = rw->rw_nwrs;
				   __entry->bytes = xr_trace_rw_bytes(rw);
		    ),
		    TP_printk("cq.id=%u cid=%d xprt.id=%u %s segments=%u wrs=%u bytes=%u",
			      __entry->cq_id, __entry->completion_id, __entry->xprt_id,
			      xr_show_role(__entry->role), __entry->nsegs, __entry->wrs,
			      __entry->bytes)
);

DEFINE_EVENT(xrpcrdma_post_rw_class, xrpcrdma_post_read,
	     TP_PROTO(const struct xr_rw *rw), TP_ARGS(rw));
DEFINE_EVENT(xrpcrdma_post_rw_class, xrpcrdma_post_write,
	     TP_PROTO(const struct xr_rw *rw), TP_ARGS(rw));

/* A post failed: nothing of the work request (or chain) completes. */
TRACE_EVENT(xrpcrdma_post_err,
	    TP_PROTO(const struct xr_ep *ep, const struct xr_cid *cid,
		     unsigned int kind, int rc),
	    TP_ARGS(ep, cid, kind, rc),
	    TP_STRUCT__entry(__field(u32, cq_id)
			     __field(int, completion_id)
			     __field(u32, xprt_id)
			     __field(unsigned int, kind)
			     __field(int, rc)
	    ),
	    TP_fast_assign(__entry->cq_id = cid->ci_queue_id;
			   __entry->completion_id = cid->ci_completion_id;
			   __entry->xprt_id = READ_ONCE(ep->ep_owner_id);
			   __entry->kind = kind;
			   __entry->rc = rc;
	    ),
	    TP_printk("cq.id=%u cid=%d xprt.id=%u kind=%s rc=%d",
		      __entry->cq_id, __entry->completion_id, __entry->xprt_id,
		      xr_show_wr(__entry->kind), __entry->rc)
);

/* Waits */

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

#endif /* _XRPCRDMA_TRACE_WR_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace_wr
#include <trace/define_trace.h>
