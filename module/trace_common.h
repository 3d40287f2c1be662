/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_common.h - what the trace headers of xrpcrdma share.
 *
 * The trace events are declared by layer, all in the one system
 * xrpcrdma (tracefs events/xrpcrdma/):
 *
 *   trace_ep.h    connections: connection manager events, connect,
 *                 accept, disconnect, device removal; fault points
 *   trace_wr.h    work requests: posts, completions, send queue waits
 *   trace_msg.h   messages both roles handle alike: received transport
 *                 headers, backchannel calls and replies
 *   trace_svc.h   the server's rejected connection requests, its replies
 *   trace_xprt.h  the client's calls, replies, credits and memory
 *                 registrations
 *
 * Each has a trace_*.c of its own that defines CREATE_TRACE_POINTS: the
 * per-system definitions <trace/define_trace.h> makes allow one header
 * of a system per compilation unit. Their header search path has this
 * directory (module/Kbuild), which TRACE_INCLUDE_PATH names.
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
 * This is no tracepoint header: it is read once per compilation unit.
 * The values a symbolic table prints are resolved per compilation unit,
 * so each tracepoint header that prints a table of this file names the
 * table's values with TRACE_DEFINE_ENUM itself.
 */
#ifndef _XRPCRDMA_TRACE_COMMON_H
#define _XRPCRDMA_TRACE_COMMON_H

#include <linux/socket.h>
#include <linux/string.h>
#include <rdma/rdma_cm.h>

#include "ep.h"
#include "proto.h"

/* Which side an endpoint is on, for the events' role field. */
#define XR_TRACE_ROLE_SERVER	0
#define XR_TRACE_ROLE_CLIENT	1
#define XR_TRACE_ROLE_LISTENER	2

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

#define xr_show_role(x)						\
	__print_symbolic(x,					\
			 { XR_TRACE_ROLE_SERVER, "server" },	\
			 { XR_TRACE_ROLE_CLIENT, "client" },	\
			 { XR_TRACE_ROLE_LISTENER, "listener" })

/* Transport header procedures (RFC 8166, section 4.2.4). */
#define xr_show_proc(x)						\
	__print_symbolic(x,					\
			 { XR_RDMA_MSG, "RDMA_MSG" },		\
			 { XR_RDMA_NOMSG, "RDMA_NOMSG" },	\
			 { XR_RDMA_MSGP, "RDMA_MSGP" },		\
			 { XR_RDMA_DONE, "RDMA_DONE" },		\
			 { XR_RDMA_ERROR, "RDMA_ERROR" })

/* RDMA_ERROR codes. */
#define xr_show_err(x)						\
	__print_symbolic(x,					\
			 { XR_ERR_VERS, "ERR_VERS" },		\
			 { XR_ERR_CHUNK, "ERR_CHUNK" })

#endif /* _XRPCRDMA_TRACE_COMMON_H */
