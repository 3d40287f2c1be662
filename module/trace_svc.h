/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_svc.h - trace events of the server transport: connection
 * requests it turns down (svc_transport.c) and the replies it sends
 * (svc_send.c). The calls it receives and its backchannel are in
 * trace_msg.h. See trace_common.h.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM xrpcrdma

#if !defined(_XRPCRDMA_TRACE_SVC_H) || defined(TRACE_HEADER_MULTI_READ)
#define _XRPCRDMA_TRACE_SVC_H

#include <linux/tracepoint.h>

#include "ep.h"
#include "proto.h"
#include "recvq.h"
#include "sendq.h"
#include "trace_common.h"

#ifndef _XRPCRDMA_TRACE_SVC_HELPERS
#define _XRPCRDMA_TRACE_SVC_HELPERS

/* Bytes of a reply's first @n result payloads (its Write chunks). */
static inline u32 xr_trace_payload(const struct xr_recvctx *rc, u32 n)
{
	u32 i, bytes = 0;

	for (i = 0; i < n && i < ARRAY_SIZE(rc->rctx_payloads); i++)
		bytes += rc->rctx_payloads[i].pl_len;
	return bytes;
}

#endif /* _XRPCRDMA_TRACE_SVC_HELPERS */

/* For xr_show_proc() and xr_show_err() (trace_common.h). */
TRACE_DEFINE_ENUM(XR_RDMA_MSG);
TRACE_DEFINE_ENUM(XR_RDMA_NOMSG);
TRACE_DEFINE_ENUM(XR_RDMA_MSGP);
TRACE_DEFINE_ENUM(XR_RDMA_DONE);
TRACE_DEFINE_ENUM(XR_RDMA_ERROR);
TRACE_DEFINE_ENUM(XR_ERR_VERS);
TRACE_DEFINE_ENUM(XR_ERR_CHUNK);

TRACE_DEFINE_ENUM(XRPCRDMA_REJECT_REASON_DEVICE_DISABLED);
TRACE_DEFINE_ENUM(XRPCRDMA_REJECT_REASON_NO_RDMA_READ);

#define xr_show_reject_reason(x)					\
	__print_symbolic(x,						\
			 { XRPCRDMA_REJECT_REASON_DEVICE_DISABLED,	\
			   "device-disabled" },				\
			 { XRPCRDMA_REJECT_REASON_NO_RDMA_READ,		\
			   "no-rdma-read" })

/* The listener turned a connection request down. */
TRACE_EVENT(xrpcrdma_reject,
	    TP_PROTO(u32 listener_id, const struct sockaddr *peer,
		     unsigned int reason, int err),
	    TP_ARGS(listener_id, peer, reason, err),
	    TP_STRUCT__entry(__field(u32, listener_id)
			     __array(unsigned char, peer, sizeof(struct sockaddr_in6))
			     __field(unsigned int, reason)
			     __field(int, err)
	    ),
	    TP_fast_assign(__entry->listener_id = listener_id;
			   xr_trace_addr(__entry->peer, sizeof(__entry->peer), peer);
			   __entry->reason = reason;
			   __entry->err = err;
	    ),
	    TP_printk("listener.id=%u peer=%pISpc reason=%s err=%d",
		      __entry->listener_id, __entry->peer,
		      xr_show_reject_reason(__entry->reason), __entry->err)
);

/* The server's replies */

TRACE_EVENT(xrpcrdma_svc_reply,
	    TP_PROTO(const struct xr_sendctx *sc, const struct xr_recvctx *rc,
		     u32 len, u32 write_chunks),
	    TP_ARGS(sc, rc, len, write_chunks),
	    TP_STRUCT__entry(__field(u32, xprt_id)
			     __field(u32, xid)
			     __field(u32, proc)
			     __field(u32, credits)
			     __field(u32, len)
			     __field(u32, write_chunks)
			     __field(u32, payload)
			     __field(u32, inv_rkey)
	    ),
	    TP_fast_assign(const struct xr_hdr *hdr = &rc->rctx_hdr;

			   __entry->xprt_id = READ_ONCE(sc->sc_pool->sq_ep->ep_owner_id);
			   __entry->xid = be32_to_cpu(hdr->hd_xid);
			   __entry->proc = hdr->hd_proc;
			   __entry->credits = hdr->hd_credits;
			   __entry->len = len;
			   __entry->write_chunks = write_chunks;
			   __entry->payload = xr_trace_payload(rc, write_chunks);
			   __entry->inv_rkey = sc->sc_wr.opcode == IB_WR_SEND_WITH_INV ?
					       sc->sc_wr.ex.invalidate_rkey : 0;
	    ),
	    TP_printk("xprt.id=%u xid=0x%08x proc=%s credits=%u len=%u write_chunks=%u payload=%u inv_rkey=0x%08x",
		      __entry->xprt_id, __entry->xid, xr_show_proc(__entry->proc),
		      __entry->credits, __entry->len, __entry->write_chunks,
		      __entry->payload, __entry->inv_rkey)
);

TRACE_EVENT(xrpcrdma_svc_send_error,
	    TP_PROTO(const struct xr_ep *ep, __be32 xid, u32 err),
	    TP_ARGS(ep, xid, err),
	    TP_STRUCT__entry(__field(u32, xprt_id)
			     __field(u32, xid)
			     __field(u32, err)
	    ),
	    TP_fast_assign(__entry->xprt_id = READ_ONCE(ep->ep_owner_id);
			   __entry->xid = be32_to_cpu(xid);
			   __entry->err = err;
	    ),
	    TP_printk("xprt.id=%u xid=0x%08x err=%s",
		      __entry->xprt_id, __entry->xid, xr_show_err(__entry->err))
);

#endif /* _XRPCRDMA_TRACE_SVC_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace_svc
#include <trace/define_trace.h>
