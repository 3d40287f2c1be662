/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - the counters each transport keeps, one set per role, and
 * their names and totals (stats.c). The server's live in struct
 * xr_svc_xprt, the client's in struct xr_xprt; netlink shows them by name.
 */
#ifndef _XRPCRDMA_STATS_H
#define _XRPCRDMA_STATS_H

#include <linux/atomic.h>
#include <linux/types.h>

/**
 * enum xr_svc_stat - what the server counts for each connection
 * @XR_SVC_STAT_CALLS_RECEIVED: messages taken from the receive queue
 * @XR_SVC_STAT_REPLIES_INLINE: replies sent entirely inline
 * @XR_SVC_STAT_REPLIES_WRITE_CHUNK: replies whose payload went in Write chunks
 * @XR_SVC_STAT_REPLIES_REPLY_CHUNK: replies sent through a Reply chunk
 * @XR_SVC_STAT_RDMA_READ_BYTES: bytes pulled from the client by RDMA Read
 * @XR_SVC_STAT_RDMA_WRITE_BYTES: bytes pushed to the client by RDMA Write
 * @XR_SVC_STAT_SQ_STARVES: times a sender waited for a send queue slot
 * @XR_SVC_STAT_SEND_ERRORS: Send completions with an error (not flushes)
 * @XR_SVC_STAT_SENDS_SIGNALED: Sends that asked for a completion
 * @XR_SVC_STAT_REMOTE_INVS: replies sent With Invalidate of the client's region
 * @XR_SVC_STAT_SENDCTX_WAITS: waits for a send context at the sendctx-max cap
 * @XR_SVC_STAT_RECV_ERRORS: Receive completions with an error (not flushes)
 * @XR_SVC_STAT_BAD_HEADERS: calls answered with RDMA_ERROR or dropped
 *	because of their transport header
 * @XR_SVC_STAT_RDMA_ERRORS_SENT: RDMA_ERROR replies posted
 * @XR_SVC_STAT_BC_CALLS_SENT: backchannel (NFSv4.1 callback) calls posted
 * @XR_SVC_STAT_BC_REPLIES_RECEIVED: backchannel replies that completed a
 *	callback
 * @XR_SVC_STAT_CONNECTS_REJECTED: connection requests a listener refused
 * @XR_SVC_STAT_RDMA_READ_SEGS: Read chunk segments pulled by RDMA Read
 * @XR_SVC_STAT_RDMA_WRITE_SEGS: RDMA Writes into Write and Reply chunk
 *	segments (a segment the reply's holes split takes one per part)
 * @XR_SVC_STAT_COUNT: number of counters
 *
 * The names shown through netlink are in stats.c. Add new counters at
 * the end: the order is the order they are listed in.
 */
enum xr_svc_stat {
	XR_SVC_STAT_CALLS_RECEIVED,
	XR_SVC_STAT_REPLIES_INLINE,
	XR_SVC_STAT_REPLIES_WRITE_CHUNK,
	XR_SVC_STAT_REPLIES_REPLY_CHUNK,
	XR_SVC_STAT_RDMA_READ_BYTES,
	XR_SVC_STAT_RDMA_WRITE_BYTES,
	XR_SVC_STAT_SQ_STARVES,
	XR_SVC_STAT_SEND_ERRORS,
	XR_SVC_STAT_RECV_ERRORS,
	XR_SVC_STAT_BAD_HEADERS,
	XR_SVC_STAT_RDMA_ERRORS_SENT,
	XR_SVC_STAT_BC_CALLS_SENT,
	XR_SVC_STAT_BC_REPLIES_RECEIVED,
	XR_SVC_STAT_SENDS_SIGNALED,
	XR_SVC_STAT_REMOTE_INVS,
	XR_SVC_STAT_SENDCTX_WAITS,
	XR_SVC_STAT_CONNECTS_REJECTED,
	XR_SVC_STAT_RDMA_READ_SEGS,
	XR_SVC_STAT_RDMA_WRITE_SEGS,
	XR_SVC_STAT_COUNT
};

/**
 * struct xr_svc_stats - the counters of one server connection
 * @ss_count: one per &enum xr_svc_stat
 */
struct xr_svc_stats {
	atomic64_t		ss_count[XR_SVC_STAT_COUNT];
};

const char *xr_svc_stat_name(enum xr_svc_stat stat);
void xr_svc_stats_sum(const struct xr_svc_stats *ss, u64 *sum);
void xr_svc_stats_retire(const struct xr_svc_stats *ss);
void xr_svc_stats_retired(u64 *sum);

/**
 * enum xr_xprt_stat - what the client counts for each transport
 * @XR_XPRT_STAT_READ_SEGS: segments offered in Read lists
 * @XR_XPRT_STAT_WRITE_SEGS: segments offered in Write lists
 * @XR_XPRT_STAT_REPLY_SEGS: segments offered in Reply chunks
 * @XR_XPRT_STAT_RDMA_REQ_BYTES: call bytes the server pulls by RDMA Read
 * @XR_XPRT_STAT_RDMA_REPLY_BYTES: reply bytes the server pushed by RDMA
 *	Write
 * @XR_XPRT_STAT_PULLUP_BYTES: call bytes copied into Send buffers
 * @XR_XPRT_STAT_FIXUP_BYTES: reply bytes copied out of Receive buffers
 * @XR_XPRT_STAT_FAILED_MARSHAL: calls that could not be marshaled
 * @XR_XPRT_STAT_BAD_REPLIES: replies dropped because of their header
 * @XR_XPRT_STAT_NOMSG_CALLS: calls sent as RDMA_NOMSG
 * @XR_XPRT_STAT_MRS_ALLOCATED: memory regions allocated
 * @XR_XPRT_STAT_LOCAL_INVS: LOCAL_INV work requests posted
 * @XR_XPRT_STAT_EMPTY_SENDCTX: sends that found no send context
 * @XR_XPRT_STAT_INLINE_CALLS: calls sent entirely inline
 * @XR_XPRT_STAT_TIMEOUTS: RPC timeouts that forced a disconnect
 * @XR_XPRT_STAT_RECONNECTS: connections made after the first
 * @XR_XPRT_STAT_ENOBUFS: send_request returns of -ENOBUFS
 * @XR_XPRT_STAT_RPCS_SENT: calls posted
 * @XR_XPRT_STAT_READ_CHUNK_CALLS: calls posted with a Read list
 * @XR_XPRT_STAT_WRITE_CHUNK_CALLS: calls posted offering a Write chunk
 * @XR_XPRT_STAT_REPLY_CHUNK_CALLS: calls posted offering a Reply chunk
 * @XR_XPRT_STAT_REGISTRATIONS: FastReg work requests posted
 * @XR_XPRT_STAT_BC_CALLS_RECEIVED: backchannel (NFSv4.1 callback) calls
 *	from the server handed to the callback service
 * @XR_XPRT_STAT_BC_CALLS_DROPPED: backchannel calls dropped: malformed,
 *	too long, no free backchannel request, or no callback service
 * @XR_XPRT_STAT_BC_REPLIES_SENT: replies to backchannel calls posted
 * @XR_XPRT_STAT_SENDS_SIGNALED: Sends that asked for a completion
 * @XR_XPRT_STAT_REMOTE_INVS: regions the server invalidated (Send With
 *	Invalidate), so no LOCAL_INV was needed
 * @XR_XPRT_STAT_DIRECT_REPLIES: replies completed in the Receive
 *	completion handler, with no hand-off to the reply worker
 * @XR_XPRT_STAT_RECV_SHORT_COMPLETIONS: RPCs completed while fewer
 *	Receives were posted than the connection keeps posted (xc_recvs)
 * @XR_XPRT_STAT_COUNT: number of counters
 *
 * The names shown through netlink are in stats.c. Add new counters at
 * the end: print_stats (mountstats) reads them by name here.
 */
enum xr_xprt_stat {
	XR_XPRT_STAT_READ_SEGS,
	XR_XPRT_STAT_WRITE_SEGS,
	XR_XPRT_STAT_REPLY_SEGS,
	XR_XPRT_STAT_RDMA_REQ_BYTES,
	XR_XPRT_STAT_RDMA_REPLY_BYTES,
	XR_XPRT_STAT_PULLUP_BYTES,
	XR_XPRT_STAT_FIXUP_BYTES,
	XR_XPRT_STAT_FAILED_MARSHAL,
	XR_XPRT_STAT_BAD_REPLIES,
	XR_XPRT_STAT_NOMSG_CALLS,
	XR_XPRT_STAT_MRS_ALLOCATED,
	XR_XPRT_STAT_LOCAL_INVS,
	XR_XPRT_STAT_EMPTY_SENDCTX,
	XR_XPRT_STAT_INLINE_CALLS,
	XR_XPRT_STAT_TIMEOUTS,
	XR_XPRT_STAT_RECONNECTS,
	XR_XPRT_STAT_ENOBUFS,
	XR_XPRT_STAT_RPCS_SENT,
	XR_XPRT_STAT_READ_CHUNK_CALLS,
	XR_XPRT_STAT_WRITE_CHUNK_CALLS,
	XR_XPRT_STAT_REPLY_CHUNK_CALLS,
	XR_XPRT_STAT_REGISTRATIONS,
	XR_XPRT_STAT_BC_CALLS_RECEIVED,
	XR_XPRT_STAT_BC_CALLS_DROPPED,
	XR_XPRT_STAT_BC_REPLIES_SENT,
	XR_XPRT_STAT_SENDS_SIGNALED,
	XR_XPRT_STAT_REMOTE_INVS,
	XR_XPRT_STAT_DIRECT_REPLIES,
	XR_XPRT_STAT_RECV_SHORT_COMPLETIONS,
	XR_XPRT_STAT_COUNT
};

const char *xr_xprt_stat_at(unsigned int pos, enum xr_xprt_stat *stat);

#endif /* _XRPCRDMA_STATS_H */
