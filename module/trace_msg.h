/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_msg.h - trace events of RPC-over-RDMA messages that both roles
 * handle alike: a received transport header, decoded (by the client,
 * a reply; by the server, a call) or not (svc_recv.c, xprt_marshal.c);
 * and the NFSv4.1 backchannel's calls and replies (svc_backchannel.c,
 * xprt_backchannel.c). See trace_common.h.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM xrpcrdma

#if !defined(_XRPCRDMA_TRACE_MSG_H) || defined(TRACE_HEADER_MULTI_READ)
#define _XRPCRDMA_TRACE_MSG_H

#include <linux/tracepoint.h>

#include "ep.h"
#include "proto.h"
#include "recvq.h"
#include "trace_common.h"

/* For xr_show_proc() (trace_common.h). */
TRACE_DEFINE_ENUM(XR_RDMA_MSG);
TRACE_DEFINE_ENUM(XR_RDMA_NOMSG);
TRACE_DEFINE_ENUM(XR_RDMA_MSGP);
TRACE_DEFINE_ENUM(XR_RDMA_DONE);
TRACE_DEFINE_ENUM(XR_RDMA_ERROR);

/*
 * A transport header was received and decoded, by the client (a reply,
 * or a backchannel call) or the server (a call): the Receive's completion
 * ID ties it to xrpcrdma_wc_receive.
 */
DECLARE_EVENT_CLASS(xrpcrdma_hdr_class,
		    TP_PROTO(const struct xr_recvctx *rc),
		    TP_ARGS(rc),
		    TP_STRUCT__entry(__field(u32, cq_id)
				     __field(int, completion_id)
				     __field(u32, xprt_id)
				     __field(u32, xid)
				     __field(u32, vers)
				     __field(u32, credits)
				     __field(u32, proc)
				     __field(u32, hdrlen)
				     __field(u32, len)
				     __field(u32, nreads)
				     __field(u32, nwrites)
				     __field(bool, reply_chunk)
		    ),
		    TP_fast_assign(__entry->cq_id = rc->rctx_cid.ci_queue_id;
				   __entry->completion_id = rc->rctx_cid.ci_completion_id;
				   __entry->xprt_id =
					READ_ONCE(rc->rctx_pool->rcvq_ep->ep_owner_id);
				   __entry->xid = be32_to_cpu(rc->rctx_hdr.hd_xid);
				   __entry->vers = rc->rctx_hdr.hd_vers;
				   __entry->credits = rc->rctx_hdr.hd_credits;
				   __entry->proc = rc->rctx_hdr.hd_proc;
				   __entry->hdrlen = rc->rctx_hdr.hd_hdr_len;
				   __entry->len = rc->rctx_byte_len;
				   __entry->nreads = rc->rctx_hdr.hd_nreads;
				   __entry->nwrites = rc->rctx_hdr.hd_nwrites;
				   __entry->reply_chunk = rc->rctx_hdr.hd_flags &
							  XR_HDR_REPLY_CHUNK;
		    ),
		    TP_printk("cq.id=%u cid=%d xprt.id=%u xid=0x%08x vers=%u credits=%u proc=%s hdrlen=%u len=%u read_segs=%u write_chunks=%u reply_chunk=%d",
			      __entry->cq_id, __entry->completion_id, __entry->xprt_id,
			      __entry->xid, __entry->vers, __entry->credits,
			      xr_show_proc(__entry->proc), __entry->hdrlen, __entry->len,
			      __entry->nreads, __entry->nwrites, __entry->reply_chunk)
);

DEFINE_EVENT(xrpcrdma_hdr_class, xrpcrdma_reply,
	     TP_PROTO(const struct xr_recvctx *rc), TP_ARGS(rc));
DEFINE_EVENT(xrpcrdma_hdr_class, xrpcrdma_svc_recv,
	     TP_PROTO(const struct xr_recvctx *rc), TP_ARGS(rc));

/* A received header did not decode, or broke the rules. */
TRACE_EVENT(xrpcrdma_bad_hdr,
	    TP_PROTO(const struct xr_recvctx *rc, int err),
	    TP_ARGS(rc, err),
	    TP_STRUCT__entry(__field(u32, cq_id)
			     __field(int, completion_id)
			     __field(u32, xprt_id)
			     __field(u32, xid)
			     __field(u32, len)
			     __field(int, err)
	    ),
	    TP_fast_assign(__entry->cq_id = rc->rctx_cid.ci_queue_id;
			   __entry->completion_id = rc->rctx_cid.ci_completion_id;
			   __entry->xprt_id = READ_ONCE(rc->rctx_pool->rcvq_ep->ep_owner_id);
			   __entry->xid = rc->rctx_byte_len >= 4 ?
					  be32_to_cpup((__be32 *)rc->rctx_buf) : 0;
			   __entry->len = rc->rctx_byte_len;
			   __entry->err = err;
	    ),
	    TP_printk("cq.id=%u cid=%d xprt.id=%u xid=0x%08x len=%u err=%d",
		      __entry->cq_id, __entry->completion_id, __entry->xprt_id,
		      __entry->xid, __entry->len, __entry->err)
);

/* Backchannel (NFSv4.1 callbacks) */

DECLARE_EVENT_CLASS(xrpcrdma_bc_class,
		    TP_PROTO(const struct xr_ep *ep, __be32 xid, u32 len),
		    TP_ARGS(ep, xid, len),
		    TP_STRUCT__entry(__field(u32, xprt_id)
				     __field(unsigned int, role)
				     __field(u32, xid)
				     __field(u32, len)
		    ),
		    TP_fast_assign(__entry->xprt_id = READ_ONCE(ep->ep_owner_id);
				   __entry->role = xr_trace_role(ep);
				   __entry->xid = be32_to_cpu(xid);
				   __entry->len = len;
		    ),
		    TP_printk("xprt.id=%u %s xid=0x%08x len=%u",
			      __entry->xprt_id, xr_show_role(__entry->role),
			      __entry->xid, __entry->len)
);

#define DEFINE_XR_BC_EVENT(name)					\
	DEFINE_EVENT(xrpcrdma_bc_class, name,				\
		     TP_PROTO(const struct xr_ep *ep, __be32 xid, u32 len), \
		     TP_ARGS(ep, xid, len))

/* The server sends a callback, and gets its reply. */
DEFINE_XR_BC_EVENT(xrpcrdma_bc_call);
DEFINE_XR_BC_EVENT(xrpcrdma_bc_reply);
/* The client receives a callback, and sends its reply. */
DEFINE_XR_BC_EVENT(xrpcrdma_cb_call);
DEFINE_XR_BC_EVENT(xrpcrdma_cb_reply);

#endif /* _XRPCRDMA_TRACE_MSG_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace_msg
#include <trace/define_trace.h>
