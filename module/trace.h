/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.h - the trace events of xrpcrdma (tracefs events/xrpcrdma/).
 *
 * Every work request carries a completion ID (struct xr_cid): the ID of
 * the completion queue it completes on and a number its endpoint hands
 * out when it is posted. The post event and the completion event of one
 * Send, Receive, RDMA Read or Write chain, registration (REG_MR) or
 * invalidation (LOCAL_INV) report the same "cq.id=%u cid=%d", as the
 * in-tree rpcrdma events do. IDs are handed out only while an event that
 * reports them is enabled (the call sites test trace_*_enabled() before
 * xr_cid_assign()), so disabled events cost a patched-out branch each
 * and nothing else.
 *
 * Only trace.c defines CREATE_TRACE_POINTS. Its header search path has
 * this directory (module/Kbuild), which TRACE_INCLUDE_PATH names.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM xrpcrdma

#if !defined(_XRPCRDMA_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _XRPCRDMA_TRACE_H

#include <linux/scatterlist.h>
#include <linux/tracepoint.h>
#include <linux/sunrpc/clnt.h>
#include <linux/sunrpc/sched.h>
#include <linux/sunrpc/xprt.h>
#include <rdma/ib_cm.h>
#include <rdma/rdma_cm.h>
#include <trace/misc/rdma.h>

#include "ep.h"
#include "proto.h"
#include "recvq.h"
#include "rw.h"
#include "sendq.h"
#include "xprt.h"
#include "xprt_req.h"

#ifndef _XRPCRDMA_TRACE_HELPERS
#define _XRPCRDMA_TRACE_HELPERS

/* Which side an endpoint is on, for the events' role field. */
#define XR_TRACE_ROLE_SERVER	0
#define XR_TRACE_ROLE_CLIENT	1
#define XR_TRACE_ROLE_LISTENER	2

/* The kinds of work request, for xrpcrdma_post_err. */
#define XR_TRACE_WR_SEND	0
#define XR_TRACE_WR_RECV	1
#define XR_TRACE_WR_READ	2
#define XR_TRACE_WR_WRITE	3
#define XR_TRACE_WR_LOCALINV	4

static inline unsigned int xr_trace_role(const struct xr_ep *ep)
{
	if (ep->ep_listening)
		return XR_TRACE_ROLE_LISTENER;
	return ep->ep_active ? XR_TRACE_ROLE_CLIENT : XR_TRACE_ROLE_SERVER;
}

/* Copy a socket address into an event's field of @size bytes. */
static inline void xr_trace_addr(void *dst, size_t size,
				 const struct sockaddr *sa)
{
	memset(dst, 0, size);
	if (sa)
		memcpy(dst, sa, min_t(size_t, size, rdma_addr_size(sa)));
}

/* The peer of an endpoint, or NULL when it has no connection ID. */
static inline const struct sockaddr *xr_trace_peer(const struct xr_ep *ep)
{
	if (!ep->ep_id)
		return NULL;
	return (const struct sockaddr *)&ep->ep_id->route.addr.dst_addr;
}

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

/* The name of an endpoint's device into an event's field. */
static inline void xr_trace_devname(char *dst, size_t size,
				    const struct xr_ep *ep)
{
	if (ep->ep_id && ep->ep_id->device)
		strscpy(dst, dev_name(&ep->ep_id->device->dev), size);
	else
		strscpy(dst, "?", size);
}

/* Bytes of a reply's first @n result payloads (its Write chunks). */
static inline u32 xr_trace_payload(const struct xr_recvctx *rc, u32 n)
{
	u32 i, bytes = 0;

	for (i = 0; i < n && i < ARRAY_SIZE(rc->rc_payloads); i++)
		bytes += rc->rc_payloads[i].pl_len;
	return bytes;
}

#endif /* _XRPCRDMA_TRACE_HELPERS */

#define xr_show_role(x)						\
	__print_symbolic(x,					\
			 { XR_TRACE_ROLE_SERVER, "server" },	\
			 { XR_TRACE_ROLE_CLIENT, "client" },	\
			 { XR_TRACE_ROLE_LISTENER, "listener" })

#define xr_show_wr(x)						\
	__print_symbolic(x,					\
			 { XR_TRACE_WR_SEND, "send" },		\
			 { XR_TRACE_WR_RECV, "receive" },	\
			 { XR_TRACE_WR_READ, "read" },		\
			 { XR_TRACE_WR_WRITE, "write" },	\
			 { XR_TRACE_WR_LOCALINV, "localinv" })

TRACE_DEFINE_ENUM(XRPCRDMA_FAULT_POINT_POST_SEND);
TRACE_DEFINE_ENUM(XRPCRDMA_FAULT_POINT_POST_RECV);
TRACE_DEFINE_ENUM(XRPCRDMA_FAULT_POINT_DMA_MAP);
TRACE_DEFINE_ENUM(XRPCRDMA_FAULT_POINT_SENDCTX_ALLOC);
TRACE_DEFINE_ENUM(XRPCRDMA_FAULT_POINT_FRWR_REG);
TRACE_DEFINE_ENUM(XRPCRDMA_FAULT_POINT_COMPLETION_ERROR);
TRACE_DEFINE_ENUM(XRPCRDMA_FAULT_POINT_COMPLETION_DELAY);
TRACE_DEFINE_ENUM(XRPCRDMA_FAULT_POINT_RECV_DROP);
TRACE_DEFINE_ENUM(XRPCRDMA_FAULT_POINT_RW_CTX);
TRACE_DEFINE_ENUM(XRPCRDMA_FAULT_POINT_ADDR_CHANGE);

#define xr_show_fault_point(x)						\
	__print_symbolic(x,						\
			 { XRPCRDMA_FAULT_POINT_POST_SEND, "post-send" },	\
			 { XRPCRDMA_FAULT_POINT_POST_RECV, "post-recv" },	\
			 { XRPCRDMA_FAULT_POINT_DMA_MAP, "dma-map" },	\
			 { XRPCRDMA_FAULT_POINT_SENDCTX_ALLOC,		\
			   "sendctx-alloc" },				\
			 { XRPCRDMA_FAULT_POINT_FRWR_REG, "frwr-reg" },	\
			 { XRPCRDMA_FAULT_POINT_COMPLETION_ERROR,	\
			   "completion-error" },			\
			 { XRPCRDMA_FAULT_POINT_COMPLETION_DELAY,	\
			   "completion-delay" },			\
			 { XRPCRDMA_FAULT_POINT_RECV_DROP, "recv-drop" },	\
			 { XRPCRDMA_FAULT_POINT_RW_CTX, "rw-ctx" },	\
			 { XRPCRDMA_FAULT_POINT_ADDR_CHANGE, "addr-change" })

TRACE_DEFINE_ENUM(XRPCRDMA_CLOSE_REASON_UNKNOWN);
TRACE_DEFINE_ENUM(XRPCRDMA_CLOSE_REASON_LOCAL);
TRACE_DEFINE_ENUM(XRPCRDMA_CLOSE_REASON_PEER);
TRACE_DEFINE_ENUM(XRPCRDMA_CLOSE_REASON_DEVICE_REMOVAL);
TRACE_DEFINE_ENUM(XRPCRDMA_CLOSE_REASON_SEND_ERROR);
TRACE_DEFINE_ENUM(XRPCRDMA_CLOSE_REASON_RECV_ERROR);
TRACE_DEFINE_ENUM(XRPCRDMA_CLOSE_REASON_CM_ERROR);
TRACE_DEFINE_ENUM(XRPCRDMA_CLOSE_REASON_TIMEOUT);

#define xr_show_close_reason(x)						\
	__print_symbolic(x,						\
			 { XRPCRDMA_CLOSE_REASON_UNKNOWN, "unknown" },	\
			 { XRPCRDMA_CLOSE_REASON_LOCAL, "local" },	\
			 { XRPCRDMA_CLOSE_REASON_PEER, "peer" },		\
			 { XRPCRDMA_CLOSE_REASON_DEVICE_REMOVAL,	\
			   "device-removal" },				\
			 { XRPCRDMA_CLOSE_REASON_SEND_ERROR, "send-error" }, \
			 { XRPCRDMA_CLOSE_REASON_RECV_ERROR, "recv-error" }, \
			 { XRPCRDMA_CLOSE_REASON_CM_ERROR, "cm-error" },	\
			 { XRPCRDMA_CLOSE_REASON_TIMEOUT, "timeout" })

TRACE_DEFINE_ENUM(XRPCRDMA_REJECT_REASON_DEVICE_DISABLED);
TRACE_DEFINE_ENUM(XRPCRDMA_REJECT_REASON_NO_RDMA_READ);

#define xr_show_reject_reason(x)					\
	__print_symbolic(x,						\
			 { XRPCRDMA_REJECT_REASON_DEVICE_DISABLED,	\
			   "device-disabled" },				\
			 { XRPCRDMA_REJECT_REASON_NO_RDMA_READ,		\
			   "no-rdma-read" })

TRACE_DEFINE_ENUM(XR_RDMA_MSG);
TRACE_DEFINE_ENUM(XR_RDMA_NOMSG);
TRACE_DEFINE_ENUM(XR_RDMA_MSGP);
TRACE_DEFINE_ENUM(XR_RDMA_DONE);
TRACE_DEFINE_ENUM(XR_RDMA_ERROR);

#define xr_show_proc(x)						\
	__print_symbolic(x,					\
			 { XR_RDMA_MSG, "RDMA_MSG" },		\
			 { XR_RDMA_NOMSG, "RDMA_NOMSG" },	\
			 { XR_RDMA_MSGP, "RDMA_MSGP" },		\
			 { XR_RDMA_DONE, "RDMA_DONE" },		\
			 { XR_RDMA_ERROR, "RDMA_ERROR" })

TRACE_DEFINE_ENUM(XR_ERR_VERS);
TRACE_DEFINE_ENUM(XR_ERR_CHUNK);

#define xr_show_err(x)						\
	__print_symbolic(x,					\
			 { XR_ERR_VERS, "ERR_VERS" },		\
			 { XR_ERR_CHUNK, "ERR_CHUNK" })

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
	    TP_fast_assign(const struct xr_ep *ep = rc->rc_pool->rq_ep;

			   __entry->cq_id = rc->rc_cid.ci_queue_id;
			   __entry->completion_id = rc->rc_cid.ci_completion_id;
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

/* Connection lifecycle */

TRACE_EVENT(xrpcrdma_cm_event,
	    TP_PROTO(const struct xr_ep *ep, const struct rdma_cm_event *ev),
	    TP_ARGS(ep, ev),
	    TP_STRUCT__entry(__field(u32, xprt_id)
			     __field(unsigned int, role)
			     __field(unsigned int, event)
			     __field(int, status)
	    ),
	    TP_fast_assign(__entry->xprt_id = READ_ONCE(ep->ep_owner_id);
			   __entry->role = xr_trace_role(ep);
			   __entry->event = ev->event;
			   __entry->status = ev->status;
	    ),
	    TP_printk("xprt.id=%u %s event=%s (%u) status=%d",
		      __entry->xprt_id, xr_show_role(__entry->role),
		      rdma_show_cm_event(__entry->event), __entry->event,
		      __entry->status)
);

TRACE_EVENT(xrpcrdma_resolve,
	    TP_PROTO(const struct xr_ep *ep, const struct sockaddr *dst, int rc),
	    TP_ARGS(ep, dst, rc),
	    TP_STRUCT__entry(__field(u32, xprt_id)
			     __array(unsigned char, peer, sizeof(struct sockaddr_in6))
			     __field(int, rc)
	    ),
	    TP_fast_assign(__entry->xprt_id = READ_ONCE(ep->ep_owner_id);
			   xr_trace_addr(__entry->peer, sizeof(__entry->peer), dst);
			   __entry->rc = rc;
	    ),
	    TP_printk("xprt.id=%u peer=%pISpc rc=%d",
		      __entry->xprt_id, __entry->peer, __entry->rc)
);

DECLARE_EVENT_CLASS(xrpcrdma_conn_class,
		    TP_PROTO(const struct xr_ep *ep, const struct xr_cm_pdata *ours,
			     int rc),
		    TP_ARGS(ep, ours, rc),
		    TP_STRUCT__entry(__field(u32, xprt_id)
				     __array(unsigned char, peer, sizeof(struct sockaddr_in6))
				     __field(u32, send_size)
				     __field(u32, recv_size)
				     __field(u32, flags)
				     __field(int, rc)
		    ),
		    TP_fast_assign(__entry->xprt_id = READ_ONCE(ep->ep_owner_id);
				   xr_trace_addr(__entry->peer, sizeof(__entry->peer),
						 xr_trace_peer(ep));
				   __entry->send_size = ours->cp_send_size;
				   __entry->recv_size = ours->cp_recv_size;
				   __entry->flags = ours->cp_flags;
				   __entry->rc = rc;
		    ),
		    TP_printk("xprt.id=%u peer=%pISpc send_size=%u recv_size=%u flags=0x%x rc=%d",
			      __entry->xprt_id, __entry->peer, __entry->send_size,
			      __entry->recv_size, __entry->flags, __entry->rc)
);

DEFINE_EVENT(xrpcrdma_conn_class, xrpcrdma_connect,
	     TP_PROTO(const struct xr_ep *ep, const struct xr_cm_pdata *ours,
		      int rc),
	     TP_ARGS(ep, ours, rc));
DEFINE_EVENT(xrpcrdma_conn_class, xrpcrdma_accept,
	     TP_PROTO(const struct xr_ep *ep, const struct xr_cm_pdata *ours,
		      int rc),
	     TP_ARGS(ep, ours, rc));

/* The connection is up: what the peer advertised. */
TRACE_EVENT(xrpcrdma_established,
	    TP_PROTO(const struct xr_ep *ep),
	    TP_ARGS(ep),
	    TP_STRUCT__entry(__field(u32, xprt_id)
			     __field(unsigned int, role)
			     __array(unsigned char, peer, sizeof(struct sockaddr_in6))
			     __field(u32, send_size)
			     __field(u32, recv_size)
			     __field(u32, flags)
			     __field(u32, rd_atom)
	    ),
	    TP_fast_assign(__entry->xprt_id = READ_ONCE(ep->ep_owner_id);
			   __entry->role = xr_trace_role(ep);
			   xr_trace_addr(__entry->peer, sizeof(__entry->peer),
					 xr_trace_peer(ep));
			   __entry->send_size = ep->ep_peer.cp_send_size;
			   __entry->recv_size = ep->ep_peer.cp_recv_size;
			   __entry->flags = ep->ep_peer.cp_flags;
			   __entry->rd_atom = ep->ep_peer_rd_atom;
	    ),
	    TP_printk("xprt.id=%u %s peer=%pISpc peer send_size=%u recv_size=%u flags=0x%x rd_atom=%u",
		      __entry->xprt_id, xr_show_role(__entry->role),
		      __entry->peer, __entry->send_size, __entry->recv_size,
		      __entry->flags, __entry->rd_atom)
);

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

/* The connection ends: @local when this side starts the disconnect. */
TRACE_EVENT(xrpcrdma_disconnect,
	    TP_PROTO(const struct xr_ep *ep, bool local),
	    TP_ARGS(ep, local),
	    TP_STRUCT__entry(__field(u32, xprt_id)
			     __field(unsigned int, role)
			     __array(unsigned char, peer, sizeof(struct sockaddr_in6))
			     __field(bool, local)
			     __field(unsigned int, reason)
			     __field(int, cm_error)
	    ),
	    TP_fast_assign(__entry->xprt_id = READ_ONCE(ep->ep_owner_id);
			   __entry->role = xr_trace_role(ep);
			   xr_trace_addr(__entry->peer, sizeof(__entry->peer),
					 xr_trace_peer(ep));
			   __entry->local = local;
			   __entry->reason = atomic_read(&ep->ep_close_reason);
			   __entry->cm_error = ep->ep_cm_error;
	    ),
	    TP_printk("xprt.id=%u %s peer=%pISpc by=%s reason=%s cm_error=%d",
		      __entry->xprt_id, xr_show_role(__entry->role),
		      __entry->peer, __entry->local ? "local" : "peer",
		      xr_show_close_reason(__entry->reason), __entry->cm_error)
);

TRACE_EVENT(xrpcrdma_device_removal,
	    TP_PROTO(const struct xr_ep *ep),
	    TP_ARGS(ep),
	    TP_STRUCT__entry(__field(u32, xprt_id)
			     __field(unsigned int, role)
			     __array(char, device, IB_DEVICE_NAME_MAX)
	    ),
	    TP_fast_assign(__entry->xprt_id = READ_ONCE(ep->ep_owner_id);
			   __entry->role = xr_trace_role(ep);
			   xr_trace_devname(__entry->device, sizeof(__entry->device), ep);
	    ),
	    TP_printk("xprt.id=%u %s device=%s",
		      __entry->xprt_id, xr_show_role(__entry->role),
		      __entry->device)
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
		    TP_fast_assign(__entry->cq_id = rc->rc_cid.ci_queue_id;
				   __entry->completion_id = rc->rc_cid.ci_completion_id;
				   __entry->xprt_id = READ_ONCE(rc->rc_pool->rq_ep->ep_owner_id);
				   __entry->xid = be32_to_cpu(rc->rc_hdr.hd_xid);
				   __entry->vers = rc->rc_hdr.hd_vers;
				   __entry->credits = rc->rc_hdr.hd_credits;
				   __entry->proc = rc->rc_hdr.hd_proc;
				   __entry->hdrlen = rc->rc_hdr.hd_hdr_len;
				   __entry->len = rc->rc_byte_len;
				   __entry->nreads = rc->rc_hdr.hd_nreads;
				   __entry->nwrites = rc->rc_hdr.hd_nwrites;
				   __entry->reply_chunk = rc->rc_hdr.hd_flags &
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
	    TP_fast_assign(__entry->cq_id = rc->rc_cid.ci_queue_id;
			   __entry->completion_id = rc->rc_cid.ci_completion_id;
			   __entry->xprt_id = READ_ONCE(rc->rc_pool->rq_ep->ep_owner_id);
			   __entry->xid = rc->rc_byte_len >= 4 ?
					  be32_to_cpup((__be32 *)rc->rc_buf) : 0;
			   __entry->len = rc->rc_byte_len;
			   __entry->err = err;
	    ),
	    TP_printk("cq.id=%u cid=%d xprt.id=%u xid=0x%08x len=%u err=%d",
		      __entry->cq_id, __entry->completion_id, __entry->xprt_id,
		      __entry->xid, __entry->len, __entry->err)
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
	    TP_fast_assign(__entry->xprt_id = READ_ONCE(rc->rc_pool->rq_ep->ep_owner_id);
			   __entry->xid = be32_to_cpu(rc->rc_hdr.hd_xid);
			   __entry->err = rc->rc_hdr.hd_err;
			   __entry->low = rc->rc_hdr.hd_vers_low;
			   __entry->high = rc->rc_hdr.hd_vers_high;
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
	    TP_fast_assign(const struct xr_hdr *hdr = &rc->rc_hdr;

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

/* A fault point fired (xr_fault_hit()). */
TRACE_EVENT(xrpcrdma_fault,
	    TP_PROTO(unsigned int point, const struct xr_ep *ep, int value),
	    TP_ARGS(point, ep, value),
	    TP_STRUCT__entry(__field(unsigned int, point)
			     __field(u32, xprt_id)
			     __field(int, value)
	    ),
	    TP_fast_assign(__entry->point = point;
			   __entry->xprt_id = ep ? READ_ONCE(ep->ep_owner_id) : 0;
			   __entry->value = value;
	    ),
	    TP_printk("point=%s xprt.id=%u value=%d",
		      xr_show_fault_point(__entry->point), __entry->xprt_id,
		      __entry->value)
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

#endif /* _XRPCRDMA_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
