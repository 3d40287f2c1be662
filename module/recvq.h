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
 * @rc_list: on the pool's free list, or the owner's ready queue
 * @rc_pool: the pool the context belongs to
 * @rc_cqe: completion entry
 * @rc_wr: the Receive work request
 * @rc_sge: its single scatter/gather entry
 * @rc_buf: buffer, DMA-mapped once for the context's lifetime
 * @rc_byte_len: bytes received
 * @rc_inv_rkey: the R_key the sender invalidated (Send With Invalidate);
 *	valid when @rc_remote_inv
 * @rc_remote_inv: the message came With Invalidate
 * @rc_npayloads: entries of @rc_payloads used
 * @rc_payloads: the reply's result payloads (READ data), as svc reported
 *	them through xpo_result_payload, in order: the n-th goes into the
 *	call's n-th Write chunk
 * @rc_hdr: the decoded transport header; its lists are in @rc_writes,
 *	@rc_reads and @rc_segs, or in @rc_lists
 * @rc_lists: larger list storage for the request being processed, or
 *	NULL; freed when the context goes back to its pool
 * @rc_writes: Write list storage in place
 * @rc_reads: Read list storage in place
 * @rc_segs: Write and Reply chunk segment storage in place
 * @rc_cid: completion ID of the Receive last posted (trace events)
 */
struct xr_recvctx {
	struct list_head	rc_list;
	struct xr_recvq		*rc_pool;
	struct ib_cqe		rc_cqe;
	struct ib_recv_wr	rc_wr;
	struct ib_sge		rc_sge;
	void			*rc_buf;
	u32			rc_byte_len;
	u32			rc_inv_rkey;
	bool			rc_remote_inv;
	u32			rc_npayloads;
	struct xr_payload	rc_payloads[XR_SVC_MAX_WRITE_CHUNKS];
	struct xr_hdr		rc_hdr;
	struct xr_hdr_lists	*rc_lists;
	struct xr_write_chunk	rc_writes[XR_RC_WRITES];
	struct xr_read_seg	rc_reads[XR_RC_READS];
	struct xr_seg		rc_segs[XR_RC_SEGS];
	struct xr_cid		rc_cid;
};

/**
 * struct xr_recvq - the receive contexts of one connection
 * @rq_lock: protects @rq_free and @rq_ready
 * @rq_free: contexts not posted
 * @rq_ready: contexts received, waiting for the owner
 * @rq_ep: the endpoint
 * @rq_buf_size: size of each buffer (the largest inline message received)
 * @rq_allocated: contexts allocated
 * @rq_lists: larger list storage (&struct xr_hdr_lists) held by contexts
 * @rq_posted: Receives posted whose completion was not handled yet
 * @rq_count_taken: the owner's count of messages received and not yet
 *	settled, or NULL: raised before @rq_posted drops, so the two never
 *	both miss a message
 * @rq_count_errors: the owner's counter of Receive completion errors
 *	other than flushes, or NULL
 * @rq_on_recv: optional; offered each received message first, from the
 *	completion handler (process context, the completion queue's
 *	worker, so it must not wait for anything a completion brings).
 *	Returns true when it took the context, which is then not queued
 * @rq_on_ready: called after a context was added to @rq_ready
 * @rq_on_close: called on a completion error other than a flush
 * @rq_owner: argument of the callbacks
 */
struct xr_recvq {
	spinlock_t		rq_lock;	/* rq_free, rq_ready */
	struct list_head	rq_free;
	struct list_head	rq_ready;
	struct xr_ep		*rq_ep;
	u32			rq_buf_size;
	atomic_t		rq_allocated;
	atomic_t		rq_lists;
	atomic_t		rq_posted;
	atomic_t		*rq_count_taken;
	atomic64_t		*rq_count_errors;
	bool			(*rq_on_recv)(void *owner,
					      struct xr_recvctx *rc);
	void			(*rq_on_ready)(void *owner);
	void			(*rq_on_close)(void *owner);
	void			*rq_owner;
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
	return atomic_read(&rq->rq_posted);
}

#endif /* _XRPCRDMA_RECVQ_H */
