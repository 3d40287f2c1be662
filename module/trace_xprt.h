/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_xprt.h - trace events of the client transport: the calls it
 * marshals and the replies it completes (xprt_marshal.c), its credits,
 * and the memory registrations it posts (xprt_frwr.c). The replies'
 * transport headers and its backchannel are in trace_msg.h. See
 * trace_common.h.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM xrpcrdma

#if !defined(_XRPCRDMA_TRACE_XPRT_H) || defined(TRACE_HEADER_MULTI_READ)
#define _XRPCRDMA_TRACE_XPRT_H

#include <linux/dma-direction.h>
#include <linux/tracepoint.h>
#include <linux/sunrpc/clnt.h>
#include <linux/sunrpc/sched.h>
#include <linux/sunrpc/xprt.h>

#include "proto.h"
#include "recvq.h"
#include "xprt.h"
#include "xprt_req.h"
#include "trace_common.h"

/* For xr_show_err() (trace_common.h). */
TRACE_DEFINE_ENUM(XR_ERR_VERS);
TRACE_DEFINE_ENUM(XR_ERR_CHUNK);

TRACE_DEFINE_ENUM(XR_CALL_INLINE);
TRACE_DEFINE_ENUM(XR_CALL_READ_LIST);
TRACE_DEFINE_ENUM(XR_CALL_NOMSG);

#define xr_show_call_kind(x)					\
	__print_symbolic(x,					\
			 { XR_CALL_INLINE, "inline" },		\
			 { XR_CALL_READ_LIST, "read list" },	\
			 { XR_CALL_NOMSG, "pzrc" })

TRACE_DEFINE_ENUM(XR_REPLY_INLINE);
TRACE_DEFINE_ENUM(XR_REPLY_WRITE);
TRACE_DEFINE_ENUM(XR_REPLY_CHUNK);

#define xr_show_reply_kind(x)					\
	__print_symbolic(x,					\
			 { XR_REPLY_INLINE, "inline" },		\
			 { XR_REPLY_WRITE, "write list" },	\
			 { XR_REPLY_CHUNK, "reply chunk" })

TRACE_DEFINE_ENUM(DMA_BIDIRECTIONAL);
TRACE_DEFINE_ENUM(DMA_TO_DEVICE);
TRACE_DEFINE_ENUM(DMA_FROM_DEVICE);
TRACE_DEFINE_ENUM(DMA_NONE);

#define xr_show_dir(x)						\
	__print_symbolic(x,					\
			 { DMA_BIDIRECTIONAL, "BIDIR" },	\
			 { DMA_TO_DEVICE, "TO_DEVICE" },	\
			 { DMA_FROM_DEVICE, "FROM_DEVICE" },	\
			 { DMA_NONE, "NONE" })

/*
 * The client's memory registration (xprt_frwr.c). The completions of
 * these posts are xrpcrdma_wc_fastreg and xrpcrdma_wc_localinv
 * (trace_wr.h).
 */

TRACE_EVENT(xrpcrdma_post_fastreg,
	    TP_PROTO(const struct xr_mr *mr),
	    TP_ARGS(mr),
	    TP_STRUCT__entry(__field(u32, cq_id)
			     __field(int, completion_id)
			     __field(u32, xprt_id)
			     __field(int, nents)
			     __field(u32, handle)
			     __field(u32, length)
			     __field(u64, offset)
			     __field(u32, dir)
	    ),
	    TP_fast_assign(__entry->cq_id = mr->mr_reg_cid.ci_queue_id;
			   __entry->completion_id = mr->mr_reg_cid.ci_completion_id;
			   __entry->xprt_id = READ_ONCE(mr->mr_conn->xc_ep.ep_owner_id);
			   __entry->nents = mr->mr_nents;
			   __entry->handle = mr->mr_ibmr->rkey;
			   __entry->length = mr->mr_ibmr->length;
			   __entry->offset = mr->mr_ibmr->iova;
			   __entry->dir = mr->mr_dir;
	    ),
	    TP_printk("cq.id=%u cid=%d xprt.id=%u nents=%d %u@0x%016llx:0x%08x (%s)",
		      __entry->cq_id, __entry->completion_id, __entry->xprt_id,
		      __entry->nents, __entry->length,
		      (unsigned long long)__entry->offset, __entry->handle,
		      xr_show_dir(__entry->dir))
);

TRACE_EVENT(xrpcrdma_post_localinv,
	    TP_PROTO(const struct xr_mr *mr),
	    TP_ARGS(mr),
	    TP_STRUCT__entry(__field(u32, cq_id)
			     __field(int, completion_id)
			     __field(u32, xprt_id)
			     __field(u32, handle)
			     __field(bool, signaled)
	    ),
	    TP_fast_assign(__entry->cq_id = mr->mr_inv_cid.ci_queue_id;
			   __entry->completion_id = mr->mr_inv_cid.ci_completion_id;
			   __entry->xprt_id = READ_ONCE(mr->mr_conn->xc_ep.ep_owner_id);
			   __entry->handle = mr->mr_inv_wr.ex.invalidate_rkey;
			   __entry->signaled = mr->mr_inv_wr.send_flags &
					       IB_SEND_SIGNALED;
	    ),
	    TP_printk("cq.id=%u cid=%d xprt.id=%u handle=0x%08x signaled=%d",
		      __entry->cq_id, __entry->completion_id, __entry->xprt_id,
		      __entry->handle, __entry->signaled)
);

/* The client's calls and replies */

TRACE_EVENT(xrpcrdma_marshal,
	    TP_PROTO(const struct rpc_rqst *rqst, const struct xr_hdr *hdr,
		     unsigned int call, unsigned int reply, u32 hdrlen, u32 len),
	    TP_ARGS(rqst, hdr, call, reply, hdrlen, len),
	    TP_STRUCT__entry(__field(unsigned int, task_id)
			     __field(unsigned int, client_id)
			     __field(u32, xid)
			     __field(u32, hdrlen)
			     __field(u32, len)
			     __field(u32, headlen)
			     __field(u32, pagelen)
			     __field(u32, taillen)
			     __field(unsigned int, rtype)
			     __field(unsigned int, wtype)
			     __field(u32, nreads)
			     __field(u32, nsegs)
	    ),
	    TP_fast_assign(__entry->task_id = rqst->rq_task->tk_pid;
			   __entry->client_id = rqst->rq_task->tk_client ?
						rqst->rq_task->tk_client->cl_clid : -1;
			   __entry->xid = be32_to_cpu(rqst->rq_xid);
			   __entry->hdrlen = hdrlen;
			   __entry->len = len;
			   __entry->headlen = rqst->rq_snd_buf.head[0].iov_len;
			   __entry->pagelen = rqst->rq_snd_buf.page_len;
			   __entry->taillen = rqst->rq_snd_buf.tail[0].iov_len;
			   __entry->rtype = call;
			   __entry->wtype = reply;
			   __entry->nreads = hdr->hd_nreads;
			   __entry->nsegs = hdr->hd_nsegs;
	    ),
	    TP_printk("task:%08x@%08x xid=0x%08x hdr=%u send=%u xdr=%u/%u/%u %s/%s read_segs=%u write_segs=%u",
		      __entry->task_id, __entry->client_id, __entry->xid,
		      __entry->hdrlen, __entry->len, __entry->headlen,
		      __entry->pagelen, __entry->taillen,
		      xr_show_call_kind(__entry->rtype),
		      xr_show_reply_kind(__entry->wtype),
		      __entry->nreads, __entry->nsegs)
);

TRACE_EVENT(xrpcrdma_marshal_failed,
	    TP_PROTO(const struct rpc_rqst *rqst, int rc),
	    TP_ARGS(rqst, rc),
	    TP_STRUCT__entry(__field(unsigned int, task_id)
			     __field(unsigned int, client_id)
			     __field(u32, xid)
			     __field(int, rc)
	    ),
	    TP_fast_assign(__entry->task_id = rqst->rq_task->tk_pid;
			   __entry->client_id = rqst->rq_task->tk_client ?
						rqst->rq_task->tk_client->cl_clid : -1;
			   __entry->xid = be32_to_cpu(rqst->rq_xid);
			   __entry->rc = rc;
	    ),
	    TP_printk("task:%08x@%08x xid=0x%08x rc=%d",
		      __entry->task_id, __entry->client_id, __entry->xid,
		      __entry->rc)
);

/* The client received RDMA_ERROR. */
TRACE_EVENT(xrpcrdma_reply_rdma_error,
	    TP_PROTO(const struct xr_recvctx *rc),
	    TP_ARGS(rc),
	    TP_STRUCT__entry(__field(u32, xprt_id)
			     __field(u32, xid)
			     __field(u32, err)
			     __field(u32, low)
			     __field(u32, high)
	    ),
	    TP_fast_assign(__entry->xprt_id = READ_ONCE(rc->rctx_pool->rcvq_ep->ep_owner_id);
			   __entry->xid = be32_to_cpu(rc->rctx_hdr.hd_xid);
			   __entry->err = rc->rctx_hdr.hd_err;
			   __entry->low = rc->rctx_hdr.hd_vers_low;
			   __entry->high = rc->rctx_hdr.hd_vers_high;
	    ),
	    TP_printk("xprt.id=%u xid=0x%08x err=%s vers=%u-%u",
		      __entry->xprt_id, __entry->xid, xr_show_err(__entry->err),
		      __entry->low, __entry->high)
);

/* The client completed an RPC with the reply (len < 0: a bad reply). */
TRACE_EVENT(xrpcrdma_reply_done,
	    TP_PROTO(const struct rpc_rqst *rqst, unsigned int kind, int len),
	    TP_ARGS(rqst, kind, len),
	    TP_STRUCT__entry(__field(unsigned int, task_id)
			     __field(unsigned int, client_id)
			     __field(u32, xid)
			     __field(unsigned int, kind)
			     __field(int, len)
	    ),
	    TP_fast_assign(__entry->task_id = rqst->rq_task->tk_pid;
			   __entry->client_id = rqst->rq_task->tk_client ?
						rqst->rq_task->tk_client->cl_clid : -1;
			   __entry->xid = be32_to_cpu(rqst->rq_xid);
			   __entry->kind = kind;
			   __entry->len = len;
	    ),
	    TP_printk("task:%08x@%08x xid=0x%08x %s len=%d",
		      __entry->task_id, __entry->client_id, __entry->xid,
		      xr_show_reply_kind(__entry->kind), __entry->len)
);

/* The client's congestion window after a credit grant. */
TRACE_EVENT(xrpcrdma_credits,
	    TP_PROTO(const struct rpc_xprt *xprt, u32 granted),
	    TP_ARGS(xprt, granted),
	    TP_STRUCT__entry(__field(u32, xprt_id)
			     __field(u32, granted)
			     __field(unsigned long, cwnd)
			     __field(unsigned long, cong)
			     __field(u32, max_reqs)
	    ),
	    TP_fast_assign(__entry->xprt_id = container_of(xprt, struct xr_xprt,
							   rx_xprt)->rx_id;
			   __entry->granted = granted;
			   __entry->cwnd = xprt->cwnd >> RPC_CWNDSHIFT;
			   __entry->cong = xprt->cong >> RPC_CWNDSHIFT;
			   __entry->max_reqs = xprt->max_reqs;
	    ),
	    TP_printk("xprt.id=%u granted=%u cwnd=%lu cong=%lu max_reqs=%u",
		      __entry->xprt_id, __entry->granted, __entry->cwnd,
		      __entry->cong, __entry->max_reqs)
);

#endif /* _XRPCRDMA_TRACE_XPRT_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace_xprt
#include <trace/define_trace.h>
