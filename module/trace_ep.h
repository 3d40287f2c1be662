/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_ep.h - trace events of connections (ep.c): connection manager
 * events, connect, accept, disconnect, device removal; and the fault
 * points (fault.c). See trace_common.h.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM xrpcrdma

#if !defined(_XRPCRDMA_TRACE_EP_H) || defined(TRACE_HEADER_MULTI_READ)
#define _XRPCRDMA_TRACE_EP_H

#include <linux/tracepoint.h>
#include <rdma/ib_cm.h>
#include <rdma/rdma_cm.h>
#include <trace/misc/rdma.h>

#include "ep.h"
#include "proto.h"
#include "trace_common.h"

#ifndef _XRPCRDMA_TRACE_EP_HELPERS
#define _XRPCRDMA_TRACE_EP_HELPERS

/* The peer of an endpoint, or NULL when it has no connection ID. */
static inline const struct sockaddr *xr_trace_peer(const struct xr_ep *ep)
{
	if (!ep->ep_id)
		return NULL;
	return (const struct sockaddr *)&ep->ep_id->route.addr.dst_addr;
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

#endif /* _XRPCRDMA_TRACE_EP_HELPERS */

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
TRACE_DEFINE_ENUM(XRPCRDMA_FAULT_POINT_QP_FATAL);
TRACE_DEFINE_ENUM(XRPCRDMA_FAULT_POINT_WRITE_CHUNK_LONG);
TRACE_DEFINE_ENUM(XRPCRDMA_FAULT_POINT_REPLY_DELAY);
TRACE_DEFINE_ENUM(XRPCRDMA_FAULT_POINT_BC_RELEASE_DELAY);

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
			 { XRPCRDMA_FAULT_POINT_ADDR_CHANGE, "addr-change" }, \
			 { XRPCRDMA_FAULT_POINT_QP_FATAL, "qp-fatal" },	\
			 { XRPCRDMA_FAULT_POINT_WRITE_CHUNK_LONG,	\
			   "write-chunk-long" },			\
			 { XRPCRDMA_FAULT_POINT_REPLY_DELAY, "reply-delay" }, \
			 { XRPCRDMA_FAULT_POINT_BC_RELEASE_DELAY,	\
			   "bc-release-delay" })

TRACE_DEFINE_ENUM(XRPCRDMA_CLOSE_REASON_UNKNOWN);
TRACE_DEFINE_ENUM(XRPCRDMA_CLOSE_REASON_LOCAL);
TRACE_DEFINE_ENUM(XRPCRDMA_CLOSE_REASON_PEER);
TRACE_DEFINE_ENUM(XRPCRDMA_CLOSE_REASON_DEVICE_REMOVAL);
TRACE_DEFINE_ENUM(XRPCRDMA_CLOSE_REASON_SEND_ERROR);
TRACE_DEFINE_ENUM(XRPCRDMA_CLOSE_REASON_RECV_ERROR);
TRACE_DEFINE_ENUM(XRPCRDMA_CLOSE_REASON_CM_ERROR);
TRACE_DEFINE_ENUM(XRPCRDMA_CLOSE_REASON_TIMEOUT);
TRACE_DEFINE_ENUM(XRPCRDMA_CLOSE_REASON_SEND_TIMEOUT);
TRACE_DEFINE_ENUM(XRPCRDMA_CLOSE_REASON_QP_ERROR);

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
			 { XRPCRDMA_CLOSE_REASON_TIMEOUT, "timeout" },	\
			 { XRPCRDMA_CLOSE_REASON_SEND_TIMEOUT,		\
			   "send-timeout" },				\
			 { XRPCRDMA_CLOSE_REASON_QP_ERROR, "qp-error" })

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

/* An asynchronous event of a connection's queue pair, from the device. */
TRACE_EVENT(xrpcrdma_qp_event,
	    TP_PROTO(const struct xr_ep *ep, const struct ib_qp *qp,
		     unsigned int event),
	    TP_ARGS(ep, qp, event),
	    TP_STRUCT__entry(__field(u32, xprt_id)
			     __field(unsigned int, role)
			     __field(u32, qp_num)
			     __field(unsigned int, event)
	    ),
	    TP_fast_assign(__entry->xprt_id = READ_ONCE(ep->ep_owner_id);
			   __entry->role = xr_trace_role(ep);
			   __entry->qp_num = qp->qp_num;
			   __entry->event = event;
	    ),
	    TP_printk("xprt.id=%u %s qp=%u event=%s (%u)",
		      __entry->xprt_id, xr_show_role(__entry->role),
		      __entry->qp_num, rdma_show_ib_event(__entry->event),
		      __entry->event)
);

/* A fault point fired (xr_fault_hit()). */
TRACE_EVENT(xrpcrdma_fault,
	    TP_PROTO(unsigned int point, u32 xprt_id, int value),
	    TP_ARGS(point, xprt_id, value),
	    TP_STRUCT__entry(__field(unsigned int, point)
			     __field(u32, xprt_id)
			     __field(int, value)
	    ),
	    TP_fast_assign(__entry->point = point;
			   __entry->xprt_id = xprt_id;
			   __entry->value = value;
	    ),
	    TP_printk("point=%s xprt.id=%u value=%d",
		      xr_show_fault_point(__entry->point), __entry->xprt_id,
		      __entry->value)
);

#endif /* _XRPCRDMA_TRACE_EP_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace_ep
#include <trace/define_trace.h>
