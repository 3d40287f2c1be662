/* SPDX-License-Identifier: GPL-2.0 */
/*
 * recvq.h - the receive path (recvctx.c): posted Receives, their
 * DMA-mapped buffers and the transport header decoded from each.
 */
#ifndef _XRPCRDMA_RECVQ_H
#define _XRPCRDMA_RECVQ_H

#include <linux/spinlock.h>

#include "ep.h"
#include "proto.h"

struct xr_conn_snap;

struct xr_recvq;

/*
 * The largest chunk lists a server accepts in a call (svc_recv.c): what
 * a receive context's header may have to hold at most.
 */
#define XR_SVC_MAX_READ_SEGS	16
#define XR_SVC_MAX_WRITE_CHUNKS	4
#define XR_SVC_MAX_CHUNK_SEGS	16
#define XR_SVC_MAX_SEGS		32	/* Read, Write and Reply together */

/*
 * Lists a receive context holds in place: every reply the client takes
 * (one Write chunk or a Reply chunk of at most XR_REQ_MAX_WSEGS
 * segments, no Read list) and the common calls. A call that needs more
 * is decoded again into &struct xr_hdr_lists, taken for that request.
 */
#define XR_RC_WRITES		XR_SVC_MAX_WRITE_CHUNKS
#define XR_RC_READS		4
#define XR_RC_SEGS		8

/**
 * struct xr_hdr_lists - list storage for the largest call a server takes
 * @hl_writes: Write list
 * @hl_reads: Read list
 * @hl_segs: Write and Reply chunk segments
 */
struct xr_hdr_lists {
	struct xr_write_chunk	hl_writes[XR_SVC_MAX_WRITE_CHUNKS];
	struct xr_read_seg	hl_reads[XR_SVC_MAX_READ_SEGS];
	struct xr_seg		hl_segs[XR_SVC_MAX_SEGS];
};

/**
 * struct xr_payload - a byte range of a reply
 * @pl_off: where it begins
 * @pl_len: its length in bytes
 */
struct xr_payload {
	u32	pl_off;
	u32	pl_len;
};

/**
 * struct xr_recvctx - one posted Receive and its buffer
 * @rctx_list: on the pool's free list, or the owner's ready queue
 * @rctx_pool: the pool the context belongs to
 * @rctx_cqe: completion entry
 * @rctx_wr: the Receive work request
 * @rctx_sge: its single scatter/gather entry
 * @rctx_buf: buffer, DMA-mapped once for the context's lifetime
 * @rctx_byte_len: bytes received
 * @rctx_inv_rkey: the R_key the sender invalidated (Send With Invalidate);
 *	valid when @rctx_remote_inv
 * @rctx_remote_inv: the message came With Invalidate
 * @rctx_npayloads: entries of @rctx_payloads used
 * @rctx_payloads: the reply's result payloads (READ data), as svc reported
 *	them through xpo_result_payload, in order: the n-th goes into the
 *	call's n-th Write chunk
 * @rctx_hdr: the decoded transport header; its lists are in @rctx_writes,
 *	@rctx_reads and @rctx_segs, or in @rctx_lists
 * @rctx_lists: larger list storage for the request being processed, or
 *	NULL; freed when the context goes back to its pool
 * @rctx_writes: Write list storage in place
 * @rctx_reads: Read list storage in place
 * @rctx_segs: Write and Reply chunk segment storage in place
 * @rctx_cid: completion ID of the Receive last posted (trace events)
 */
struct xr_recvctx {
	struct list_head	rctx_list;
	struct xr_recvq		*rctx_pool;
	struct ib_cqe		rctx_cqe;
	struct ib_recv_wr	rctx_wr;
	struct ib_sge		rctx_sge;
	void			*rctx_buf;
	u32			rctx_byte_len;
	u32			rctx_inv_rkey;
	bool			rctx_remote_inv;
	u32			rctx_npayloads;
	struct xr_payload	rctx_payloads[XR_SVC_MAX_WRITE_CHUNKS];
	struct xr_hdr		rctx_hdr;
	struct xr_hdr_lists	*rctx_lists;
	struct xr_write_chunk	rctx_writes[XR_RC_WRITES];
	struct xr_read_seg	rctx_reads[XR_RC_READS];
	struct xr_seg		rctx_segs[XR_RC_SEGS];
	struct xr_cid		rctx_cid;
};

/**
 * struct xr_recvq - the receive contexts of one connection
 * @rcvq_lock: protects @rcvq_free and @rcvq_ready
 * @rcvq_free: contexts not posted
 * @rcvq_ready: contexts received, waiting for the owner
 * @rcvq_ep: the endpoint
 * @rcvq_buf_size: size of each buffer (the largest inline message received)
 * @rcvq_allocated: contexts allocated
 * @rcvq_lists: larger list storage (&struct xr_hdr_lists) held by contexts
 * @rcvq_posted: Receives posted whose completion was not handled yet
 * @rcvq_count_taken: the owner's count of messages received and not yet
 *	settled, or NULL: raised before @rcvq_posted drops, so the two never
 *	both miss a message
 * @rcvq_count_errors: the owner's counter of Receive completion errors
 *	other than flushes, or NULL
 * @rcvq_on_recv: optional; offered each received message first, from the
 *	completion handler (process context, the completion queue's
 *	worker, so it must not wait for anything a completion brings).
 *	Returns true when it took the context, which is then not queued
 * @rcvq_on_ready: called after a context was added to @rcvq_ready
 * @rcvq_on_close: called on a completion error other than a flush
 * @rcvq_owner: argument of the callbacks
 */
struct xr_recvq {
	spinlock_t		rcvq_lock;	/* rcvq_free, rcvq_ready */
	struct list_head	rcvq_free;
	struct list_head	rcvq_ready;
	struct xr_ep		*rcvq_ep;
	u32			rcvq_buf_size;
	atomic_t		rcvq_allocated;
	atomic_t		rcvq_lists;
	atomic_t		rcvq_posted;
	atomic_t		*rcvq_count_taken;
	atomic64_t		*rcvq_count_errors;
	bool			(*rcvq_on_recv)(void *owner,
						struct xr_recvctx *rc);
	void			(*rcvq_on_ready)(void *owner);
	void			(*rcvq_on_close)(void *owner);
	void			*rcvq_owner;
};

void xr_recvq_init(struct xr_recvq *rq, struct xr_ep *ep, u32 buf_size);
void xr_recvq_destroy(struct xr_recvq *rq);
int xr_recvq_post(struct xr_recvq *rq, u32 count);
struct xr_recvctx *xr_recvq_next_ready(struct xr_recvq *rq);
void xr_recvctx_put(struct xr_recvctx *rc);
bool xr_recvctx_drop(struct xr_recvctx *rc);
int xr_recvctx_decode(struct xr_recvctx *rc, const struct xr_limits *lim,
		      bool may_grow);
void xr_recvq_snapshot(struct xr_recvq *rq, struct xr_conn_snap *cs);

/* Receives posted and not yet seen completing. */
static inline int xr_recvq_posted(struct xr_recvq *rq)
{
	return atomic_read(&rq->rcvq_posted);
}

#endif /* _XRPCRDMA_RECVQ_H */
