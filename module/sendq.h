/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sendq.h - the send path (sendctx.c): pooled send contexts with their
 * DMA-mapped header buffers, and the send queue's slot accounting; and
 * its watchdog (sendq_timeout.c).
 */
#ifndef _XRPCRDMA_SENDQ_H
#define _XRPCRDMA_SENDQ_H

#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "ep.h"

struct xr_conn_snap;

struct xr_sendq;
struct xr_rw_set;

#define XR_SENDCTX_MAX_SGES	2

/**
 * struct xr_sendctx - one Send and its transport header buffer
 * @sc_list: entry on the pool's free list
 * @sc_pool: the pool the context belongs to
 * @sc_cqe: completion entry
 * @sc_wr: the Send work request
 * @sc_sges: scatter/gather list; sge 0 is the buffer below
 * @sc_buf: buffer, DMA-mapped once for the context's lifetime
 * @sc_buf_dma: DMA address of @sc_buf
 * @sc_buf_size: size of @sc_buf
 * @sc_slots: send queue slots the posted chain took (its retirement
 *	returns them)
 * @sc_signaled: the Send asked for a completion (and pins the owner)
 * @sc_cid: completion ID of the last Send posted (trace events)
 * @sc_rw: RDMA Writes posted ahead of the Send (xr_rw_post_send()),
 *	released when the Send is retired; NULL when there are none
 */
struct xr_sendctx {
	struct list_head	sc_list;
	struct xr_sendq		*sc_pool;
	struct ib_cqe		sc_cqe;
	struct ib_send_wr	sc_wr;
	struct ib_sge		sc_sges[XR_SENDCTX_MAX_SGES];
	void			*sc_buf;
	u64			sc_buf_dma;
	u32			sc_buf_size;
	u32			sc_slots;
	bool			sc_signaled;
	struct xr_cid		sc_cid;
	struct xr_rw_set	*sc_rw;
};

/**
 * struct xr_sendq - the send contexts and send queue of one connection
 * @sq_lock: protects @sq_free, @sq_posted and the unsignaled run; held
 *	across ib_post_send() so that @sq_posted is in send queue order
 * @sq_free: contexts ready for use
 * @sq_posted: contexts posted and not yet retired, oldest first
 * @sq_signal_every: a completion is requested at least every this many
 *	Sends (1: every Send)
 * @sq_unsig_count: Sends posted unsignaled since the last signaled one
 * @sq_unsig_slots: send queue slots those hold
 * @sq_ep: the endpoint the Sends go out on
 * @sq_buf_size: size of each context's buffer
 * @sq_avail: send queue slots not in use; may go below zero briefly
 * @sq_wait: where posters wait for slots
 * @sq_closing: set when the connection closes: waiters give up
 * @sq_rw_failed: RDMA Read/Write sets whose chain failed to post, kept
 *	(mapped) until the drain; under @sq_lock
 * @sq_count_starves: the owner's counter of waits for a slot, or NULL
 * @sq_count_ctx_waits: the owner's counter of waits for a send context
 *	at the cap (@sq_max), or NULL
 * @sq_count_signaled: the owner's counter of Sends that asked for a
 *	completion, or NULL
 * @sq_count_errors: the owner's counter of Send completion errors other
 *	than flushes, or NULL
 * @sq_allocated: contexts allocated
 * @sq_max: most contexts to allocate, 0 for no limit; may change live
 * @sq_on_close: called once on the first completion error
 * @sq_on_space: optional; called when slots come back to a queue that
 *	had none free (xr_sendq_release()), after a full barrier, from any
 *	context that returns them, completion handlers included: must not
 *	sleep, and must pin the owner itself (its last reference may be
 *	gone; its memory lasts until the drain)
 * @sq_owner: argument of the callbacks and of the owner's get/put
 * @sq_get: pin the owner while a signaled Send is outstanding
 * @sq_put: unpin the owner
 * @sq_tryget: pin the owner unless its last reference is gone (for the
 *	error completion of an unsignaled Send, which holds no pin); NULL
 *	when @sq_get cannot fail
 * @sq_signaled_out: signaled Sends posted and not yet completed
 * @sq_progress: jiffies of the last completion of a Send, an RDMA Read
 *	chain or a batch of invalidations, or of the post that took
 *	@sq_signaled_out from 0 or @sq_posted from empty
 * @sq_timeout: the connection is broken when Sends are posted and none
 *	has completed for this long, after a completion was asked for
 *	behind them, or a thread waited this long for a slot or a context,
 *	or for its RDMA Reads or invalidations with no completion on the
 *	queue meanwhile, in jiffies; 0: never
 * @sq_timeout_work: checks the first while Sends are posted
 */
struct xr_sendq {
	spinlock_t		sq_lock;	/* see above */
	struct list_head	sq_free;
	struct list_head	sq_posted;
	u32			sq_signal_every;
	u32			sq_unsig_count;
	u32			sq_unsig_slots;
	struct xr_ep		*sq_ep;
	u32			sq_buf_size;
	atomic_t		sq_avail;
	wait_queue_head_t	sq_wait;
	bool			sq_closing;
	struct list_head	sq_rw_failed;
	atomic64_t		*sq_count_starves;
	atomic64_t		*sq_count_ctx_waits;
	atomic64_t		*sq_count_errors;
	atomic64_t		*sq_count_signaled;
	atomic_t		sq_allocated;
	u32			sq_max;
	void			(*sq_on_close)(void *owner);
	void			(*sq_on_space)(void *owner);
	void			*sq_owner;
	void			(*sq_get)(void *owner);
	void			(*sq_put)(void *owner);
	bool			(*sq_tryget)(void *owner);
	atomic_t		sq_signaled_out;
	unsigned long		sq_progress;
	unsigned long		sq_timeout;
	struct delayed_work	sq_timeout_work;
};

void xr_sendq_preinit(struct xr_sendq *sq);
void xr_sendq_init(struct xr_sendq *sq, struct xr_ep *ep, u32 buf_size);
void xr_sendq_destroy(struct xr_sendq *sq);
void xr_sendq_close(struct xr_sendq *sq);
void xr_sendq_set_max(struct xr_sendq *sq, u32 max);
void xr_sendq_set_signal_every(struct xr_sendq *sq, u32 every);
void xr_sendq_set_timeout(struct xr_sendq *sq, u32 ms);
long xr_sendq_wait_limit(const struct xr_sendq *sq);
bool xr_sendq_wait_moving(const struct xr_sendq *sq,
			  struct completion *done);
void xr_sendq_progress(struct xr_sendq *sq);
void xr_sendq_expire(struct xr_sendq *sq, u32 what);
u32 xr_sendq_signal_every(u32 interval, u32 sq_depth);
bool xr_sendq_fits(const struct xr_sendq *sq, u32 n);
int xr_sendq_reserve(struct xr_sendq *sq, u32 n);
void xr_sendq_release(struct xr_sendq *sq, u32 n);
void xr_sendq_fail(struct xr_sendq *sq);
struct xr_sendctx *xr_sendctx_get(struct xr_sendq *sq);
void xr_sendctx_put(struct xr_sendctx *sc);
void xr_sendctx_set_invalidate(struct xr_sendctx *sc, u32 rkey);
void xr_sendctx_clear_invalidate(struct xr_sendctx *sc);
int xr_sendctx_post(struct xr_sendctx *sc, u32 len);
int xr_sendctx_post_chain(struct xr_sendctx *sc, u32 len,
			  struct ib_send_wr *first, struct ib_send_wr *last,
			  u32 count);
void xr_sendq_snapshot(struct xr_sendq *sq, struct xr_conn_snap *cs);

/* Between sendctx.c and sendq_timeout.c only. */
int xr_sendq_post(struct xr_sendq *sq, struct xr_sendctx *sc,
		  struct ib_send_wr *first, struct ib_send_wr *tail,
		  u32 slots, bool signal);
bool xr_sendq_pin(struct xr_sendq *sq, bool signaled);
void xr_sendq_timeout_init(struct xr_sendq *sq);
void xr_sendq_timeout_stop(struct xr_sendq *sq);
void xr_sendq_timeout_arm(struct xr_sendq *sq, bool signaled);

#endif /* _XRPCRDMA_SENDQ_H */
