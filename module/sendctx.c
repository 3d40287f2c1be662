// SPDX-License-Identifier: GPL-2.0
/*
 * sendctx.c - the send path shared by the server and the client: a pool of
 * send contexts per connection, each with a buffer DMA-mapped once; the
 * single place that posts Send work requests and accounts for send queue
 * slots; and the Send completion handler. Nothing here knows RPC.
 *
 * Send queue accounting: sq_avail starts at the queue depth. A post takes
 * the slots of its chain (the Send, plus unsignaled work requests chained
 * before it); when too few are left the poster waits (counted in the
 * owner's sq_count_starves) until retired Sends return some or the
 * connection closes.
 *
 * Completions: a Send asks for one only every sq_signal_every posts, or
 * when RDMA Writes go ahead of it (their memory is released with it). A
 * reliable connection's send queue completes in order, so a signaled
 * Send's completion retires it and every context posted before it: their
 * slots come back and the contexts go back to the free list. The
 * unsignaled run since the last signaled Send never starves anyone: it
 * holds at most a quarter of the send queue while a reservation may take
 * at most the rest, a post at the context cap or while someone waits for
 * slots or contexts asks for a completion, and the cap does not count the
 * run. Only signaled Sends pin the owner, so a run left at the end never
 * keeps a connection alive: the drain flushes it and xr_sendq_destroy()
 * retires it. Nor does it escape the send-timeout watchdog
 * (sendq_timeout.c), which asks for a completion behind a run that has
 * had none for that long.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "core.h"
#include "ep.h"
#include "fault.h"
#include "rw.h"
#include "sendq.h"
#include "snap.h"
#include "trace_wr.h"

/**
 * xr_sendq_preinit - what a close may use, from the owner's allocation on
 * @sq: zeroed by the caller
 *
 * A connection may be closed (xr_sendq_close()) before its queue pair
 * exists and xr_sendq_init() has run.
 */
void xr_sendq_preinit(struct xr_sendq *sq)
{
	init_waitqueue_head(&sq->sq_wait);
	spin_lock_init(&sq->sq_lock);
}

/**
 * xr_sendq_init - prepare the send contexts of a connection
 * @sq: zeroed and xr_sendq_preinit() by the caller, which sets the owner
 *	callbacks
 * @ep: endpoint with its queue pair created
 * @buf_size: size of each context's buffer (largest inline Send)
 */
void xr_sendq_init(struct xr_sendq *sq, struct xr_ep *ep, u32 buf_size)
{
	xr_sendq_timeout_init(sq);
	INIT_LIST_HEAD(&sq->sq_free);
	INIT_LIST_HEAD(&sq->sq_posted);
	INIT_LIST_HEAD(&sq->sq_rw_failed);
	sq->sq_signal_every = 1;
	sq->sq_ep = ep;
	sq->sq_buf_size = buf_size;
	atomic_set(&sq->sq_avail, ep->ep_sq_depth);
}

static void xr_sendctx_free(struct xr_sendctx *sc)
{
	struct xr_sendq *sq = sc->sc_pool;

	if (sc->sc_rw)
		xr_rw_set_release(sc->sc_rw);

	ib_dma_unmap_single(sq->sq_ep->ep_pd->device, sc->sc_buf_dma,
			    sc->sc_buf_size, DMA_TO_DEVICE);
	kfree(sc->sc_buf);
	kfree(sc);
	atomic_dec(&sq->sq_allocated);
	xr_obj_put(XR_OBJ_SENDCTX);
}

/**
 * xr_sendq_destroy - free every send context
 * @sq: the send contexts of a connection whose queue pair is drained
 *
 * After ib_drain_qp() no Send is outstanding: the unsignaled run still
 * listed as posted is done, and every signaled Send has completed. The
 * owner must have released the contexts it held. RDMA Read/Write
 * contexts whose chain failed to post are released here too, and so are
 * the Writes ahead of the Sends of that run. The queue pair still
 * exists.
 */
void xr_sendq_destroy(struct xr_sendq *sq)
{
	struct xr_sendctx *sc, *next;

	/* Nothing is posted any more: nothing queues the check again. */
	xr_sendq_timeout_stop(sq);

	xr_rw_reap(sq);
	list_for_each_entry_safe(sc, next, &sq->sq_posted, sc_list) {
		/* Its completion would have retired it. */
		WARN_ON_ONCE(sc->sc_signaled);
		list_del(&sc->sc_list);
		xr_sendctx_free(sc);
	}
	list_for_each_entry_safe(sc, next, &sq->sq_free, sc_list) {
		list_del(&sc->sc_list);
		xr_sendctx_free(sc);
	}
	WARN_ON(atomic_read(&sq->sq_allocated));
}

/**
 * xr_sendq_close - the connection is closing: wake every waiting poster
 * @sq: the send contexts of the connection
 *
 * Nothing is posted once this has returned (xr_sendctx_post_chain()
 * answers -ENOTCONN). Not from a context that may interrupt a holder of
 * the queue's lock (hard or soft interrupt).
 */
void xr_sendq_close(struct xr_sendq *sq)
{
	WRITE_ONCE(sq->sq_closing, true);
	/*
	 * A post that saw the queue open (under the lock) is on the queue
	 * pair once this returns: before the owner's drain.
	 */
	spin_lock(&sq->sq_lock);
	spin_unlock(&sq->sq_lock);
	wake_up_all(&sq->sq_wait);
}

static void xr_sendctx_done(struct ib_cq *cq, struct ib_wc *wc);

static struct xr_sendctx *xr_sendctx_alloc(struct xr_sendq *sq)
{
	struct ib_device *dev = sq->sq_ep->ep_pd->device;
	struct xr_sendctx *sc;

	sc = kzalloc(sizeof(*sc), GFP_KERNEL);
	if (!sc)
		goto out;
	sc->sc_buf = kmalloc(sq->sq_buf_size, GFP_KERNEL);
	if (!sc->sc_buf)
		goto out_free;
	sc->sc_buf_size = sq->sq_buf_size;
	if (xr_fault_hit(XRPCRDMA_FAULT_POINT_DMA_MAP, sq->sq_ep))
		goto out_free_buf;
	sc->sc_buf_dma = ib_dma_map_single(dev, sc->sc_buf, sc->sc_buf_size,
					   DMA_TO_DEVICE);
	if (ib_dma_mapping_error(dev, sc->sc_buf_dma))
		goto out_free_buf;

	sc->sc_pool = sq;
	sc->sc_cqe.done = xr_sendctx_done;
	sc->sc_sges[0].addr = sc->sc_buf_dma;
	sc->sc_sges[0].lkey = sq->sq_ep->ep_pd->local_dma_lkey;
	sc->sc_wr.wr_cqe = &sc->sc_cqe;
	sc->sc_wr.sg_list = sc->sc_sges;
	sc->sc_wr.num_sge = 1;
	sc->sc_wr.opcode = IB_WR_SEND;
	sc->sc_wr.send_flags = IB_SEND_SIGNALED;
	xr_obj_get(XR_OBJ_SENDCTX);
	return sc;

out_free_buf:
	kfree(sc->sc_buf);
out_free:
	kfree(sc);
out:
	return NULL;
}

/* Ready a context for its next Send: one buffer, no invalidation. */
static void xr_sendctx_reset(struct xr_sendctx *sc)
{
	sc->sc_wr.num_sge = 1;
	xr_sendctx_clear_invalidate(sc);
}

/* Take a context off the free list, or NULL when it is empty. */
static struct xr_sendctx *xr_sendctx_take(struct xr_sendq *sq)
{
	struct xr_sendctx *sc;

	if (xr_fault_hit(XRPCRDMA_FAULT_POINT_SENDCTX_ALLOC, sq->sq_ep))
		return NULL;
	spin_lock(&sq->sq_lock);
	sc = list_first_entry_or_null(&sq->sq_free, struct xr_sendctx,
				      sc_list);
	if (sc)
		list_del(&sc->sc_list);
	spin_unlock(&sq->sq_lock);
	return sc;
}

/*
 * The cap on contexts (0: none). A Send posted at the cap asks for a
 * completion, so an unsignaled run exists at the cap only when the cap
 * was lowered under it or the contexts came after it; its contexts come
 * back only after a later signaled Send, which may be the one the caller
 * is about to make: they are not counted.
 */
static u32 xr_sendq_cap(struct xr_sendq *sq)
{
	u32 max = READ_ONCE(sq->sq_max);

	return max ? max + READ_ONCE(sq->sq_unsig_count) : 0;
}

/* Count one more context unless that would pass the cap. */
static bool xr_sendq_claim(struct xr_sendq *sq)
{
	u32 max = xr_sendq_cap(sq);
	int n = atomic_read(&sq->sq_allocated);

	do {
		if (max && n >= max)
			return false;
	} while (!atomic_try_cmpxchg(&sq->sq_allocated, &n, n + 1));
	return true;
}

/* What a getter at the cap waits for. */
static bool xr_sendq_may_retry(struct xr_sendq *sq)
{
	u32 max = xr_sendq_cap(sq);

	return !list_empty_careful(&sq->sq_free) ||
	       !max || atomic_read(&sq->sq_allocated) < max ||
	       READ_ONCE(sq->sq_closing);
}

/**
 * xr_sendctx_get - a send context for one Send
 * @sq: the send contexts of a connection
 *
 * Reuses a free context, or allocates a new one unless sq_max are
 * allocated already: then it waits for one to be put back. May sleep.
 *
 * Return: the context, or NULL when none can be had.
 */
struct xr_sendctx *xr_sendctx_get(struct xr_sendq *sq)
{
	struct xr_sendctx *sc;

	for (;;) {
		sc = xr_sendctx_take(sq);
		if (sc)
			return sc;
		if (xr_sendq_claim(sq))
			break;
		if (READ_ONCE(sq->sq_closing))
			return NULL;
		/* At the cap: a completion puts one back. */
		xr_count(sq->sq_count_ctx_waits);
		trace_xrpcrdma_sendctx_wait(sq, 1);
		if (!wait_event_timeout(sq->sq_wait, xr_sendq_may_retry(sq),
					xr_sendq_wait_limit(sq))) {
			xr_sendq_expire(sq, 1);
			return NULL;
		}
	}
	sc = xr_sendctx_alloc(sq);
	if (!sc)
		atomic_dec(&sq->sq_allocated);
	return sc;
}

/**
 * xr_sendctx_put - return a send context to its pool
 * @sc: a context that is not posted
 */
void xr_sendctx_put(struct xr_sendctx *sc)
{
	struct xr_sendq *sq = sc->sc_pool;

	xr_sendctx_reset(sc);
	spin_lock(&sq->sq_lock);
	list_add(&sc->sc_list, &sq->sq_free);
	spin_unlock(&sq->sq_lock);
	/* A getter may wait at the cap (sq_max). */
	if (wq_has_sleeper(&sq->sq_wait))
		wake_up(&sq->sq_wait);
}

/**
 * xr_sendctx_set_invalidate - make the context's next Send invalidate a
 *	region of the peer
 * @sc: a context from xr_sendctx_get(), not posted
 * @rkey: the peer's R_key, which the peer let us invalidate (RFC 8797
 *	private data) and which its request offered
 *
 * The Send becomes a Send With Invalidate; the peer's adapter invalidates
 * @rkey when the message arrives. The context forgets it once retired or
 * put back.
 */
void xr_sendctx_set_invalidate(struct xr_sendctx *sc, u32 rkey)
{
	sc->sc_wr.opcode = IB_WR_SEND_WITH_INV;
	sc->sc_wr.ex.invalidate_rkey = rkey;
}

/**
 * xr_sendctx_clear_invalidate - make the context's next Send a plain one
 * @sc: a context from xr_sendctx_get(), not posted
 *
 * Undoes xr_sendctx_set_invalidate(): for a message sent in place of the
 * one that was to invalidate (an RDMA_ERROR instead of the reply).
 */
void xr_sendctx_clear_invalidate(struct xr_sendctx *sc)
{
	sc->sc_wr.opcode = IB_WR_SEND;
	sc->sc_wr.ex.invalidate_rkey = 0;
}

/**
 * xr_sendq_set_max - change the cap on send contexts of a connection
 * @sq: the send contexts of a connection
 * @max: most contexts to allocate from now on, 0 for no cap
 *
 * Contexts already allocated stay; a lower cap only stops new ones.
 */
void xr_sendq_set_max(struct xr_sendq *sq, u32 max)
{
	WRITE_ONCE(sq->sq_max, max);
	wake_up_all(&sq->sq_wait);
}

/**
 * xr_sendq_signal_every - how often a connection's Sends ask for a completion
 * @interval: the signal-interval tunable
 * @sq_depth: the connection's send queue depth
 *
 * Return: @interval, but at most an eighth of the queue, and at least 1.
 */
u32 xr_sendq_signal_every(u32 interval, u32 sq_depth)
{
	return clamp(interval, 1U, max(sq_depth / 8, 1U));
}

/**
 * xr_sendq_set_signal_every - how often Sends ask for a completion
 * @sq: the send contexts of a connection, before its first post
 * @every: at least every this many Sends; 1 (or 0) for every Send
 */
void xr_sendq_set_signal_every(struct xr_sendq *sq, u32 every)
{
	spin_lock(&sq->sq_lock);
	sq->sq_signal_every = max(every, 1U);
	spin_unlock(&sq->sq_lock);
}

/* Queues shallower than this signal every Send. */
#define XR_SENDQ_MIN_UNSIG_DEPTH	16

/* Send queue slots the unsignaled run may hold. */
static u32 xr_sendq_unsig_budget(const struct xr_sendq *sq)
{
	u32 depth = sq->sq_ep->ep_sq_depth;

	if (sq->sq_signal_every <= 1 || depth < XR_SENDQ_MIN_UNSIG_DEPTH)
		return 0;
	return depth / 4;
}

/* Does a post of @slots slots ask for a completion? Under sq_lock. */
static bool xr_sendq_want_signal(struct xr_sendq *sq, u32 slots)
{
	u32 max = READ_ONCE(sq->sq_max);

	lockdep_assert_held(&sq->sq_lock);
	return sq->sq_unsig_count + 1 >= sq->sq_signal_every ||
	       sq->sq_unsig_slots + slots > xr_sendq_unsig_budget(sq) ||
	       (max && atomic_read(&sq->sq_allocated) >= max) ||
	       wq_has_sleeper(&sq->sq_wait);
}

/* @sc was posted: list it, and extend or end the unsignaled run. */
static void xr_sendq_track(struct xr_sendq *sq, struct xr_sendctx *sc)
{
	lockdep_assert_held(&sq->sq_lock);
	list_add_tail(&sc->sc_list, &sq->sq_posted);
	if (sc->sc_signaled) {
		WRITE_ONCE(sq->sq_unsig_count, 0);
		sq->sq_unsig_slots = 0;
	} else {
		WRITE_ONCE(sq->sq_unsig_count, sq->sq_unsig_count + 1);
		sq->sq_unsig_slots += sc->sc_slots;
	}
}

/*
 * @sc completed, so did every context posted before it: put them all
 * back and return their slots.
 */
static void xr_sendq_retire(struct xr_sendq *sq, struct xr_sendctx *sc)
{
	struct xr_rw_set *set, *next;
	struct xr_sendctx *pos;
	LIST_HEAD(writes);
	LIST_HEAD(done);
	u32 slots = 0;

	spin_lock(&sq->sq_lock);
	list_cut_position(&done, &sq->sq_posted, &sc->sc_list);
	list_for_each_entry(pos, &done, sc_list) {
		slots += pos->sc_slots;
		xr_sendctx_reset(pos);
		if (pos->sc_rw) {
			list_add_tail(&pos->sc_rw->rs_entry, &writes);
			pos->sc_rw = NULL;
		}
	}
	/* An error completion of an unsignaled Send may end the run. */
	if (list_empty(&sq->sq_posted)) {
		WRITE_ONCE(sq->sq_unsig_count, 0);
		sq->sq_unsig_slots = 0;
	}
	list_splice(&done, &sq->sq_free);
	spin_unlock(&sq->sq_lock);
	/* Wakes posters waiting for slots and getters at the cap. */
	xr_sendq_release(sq, slots);
	list_for_each_entry_safe(set, next, &writes, rs_entry) {
		list_del(&set->rs_entry);
		xr_rw_set_release(set);
	}
}

/* Send contexts allocated and not in use now; stale as soon as read. */
static u32 xr_sendq_free_count(struct xr_sendq *sq)
{
	struct xr_sendctx *sc;
	u32 n = 0;

	spin_lock(&sq->sq_lock);
	list_for_each_entry(sc, &sq->sq_free, sc_list)
		n++;
	spin_unlock(&sq->sq_lock);
	return n;
}

/**
 * xr_sendq_snapshot - copy the send side's figures, for observers
 * @sq: the send contexts of a connection
 * @cs: where to copy them
 *
 * The figures can change as soon as they are read. Free slots never show
 * below zero (sq_avail dips briefly while a poster backs off).
 */
void xr_sendq_snapshot(struct xr_sendq *sq, struct xr_conn_snap *cs)
{
	cs->cs_sq_depth = sq->sq_ep->ep_sq_depth;
	cs->cs_sq_free = max(atomic_read(&sq->sq_avail), 0);
	cs->cs_sendctx_allocated = atomic_read(&sq->sq_allocated);
	cs->cs_sendctx_free = xr_sendq_free_count(sq);
}

/**
 * xr_sendq_fits - can @n work requests posted at once ever get slots
 * @sq: the send queue
 * @n: work requests in one chain
 *
 * Return: false when @n exceeds the queue depth less what an unsignaled
 * run may hold (xr_sendq_reserve() would answer -E2BIG)
 */
bool xr_sendq_fits(const struct xr_sendq *sq, u32 n)
{
	return n <= sq->sq_ep->ep_sq_depth - xr_sendq_unsig_budget(sq);
}

/**
 * xr_sendq_reserve - take send queue slots, waiting for them if need be
 * @sq: the send queue
 * @n: slots wanted: the number of work requests about to be posted
 *
 * Return values:
 *   %0: the slots are the caller's; xr_sendq_release() returns them
 *   %-E2BIG: @n exceeds the queue depth less what an unsignaled run may
 *	hold: it can never be sure to fit
 *   %-ENOTCONN: the connection is closing
 */
int xr_sendq_reserve(struct xr_sendq *sq, u32 n)
{
	if (!xr_sendq_fits(sq, n))
		return -E2BIG;
	while (atomic_sub_return(n, &sq->sq_avail) < 0) {
		/*
		 * Give them back with a wake-up: a poster that looked while
		 * they were gone may be going to sleep on them.
		 */
		xr_sendq_release(sq, n);
		xr_count(sq->sq_count_starves);
		trace_xrpcrdma_sq_full(sq, n);
		if (!wait_event_timeout(sq->sq_wait,
					atomic_read(&sq->sq_avail) >= n ||
					READ_ONCE(sq->sq_closing),
					xr_sendq_wait_limit(sq))) {
			xr_sendq_expire(sq, n);
			return -ENOTCONN;
		}
		if (READ_ONCE(sq->sq_closing))
			return -ENOTCONN;
		trace_xrpcrdma_sq_retry(sq, n);
	}
	return 0;
}

/**
 * xr_sendq_release - return send queue slots and wake waiters
 * @sq: the send queue
 * @n: slots whose work requests have completed
 */
void xr_sendq_release(struct xr_sendq *sq, u32 n)
{
	/* Fully ordered: the owner's check of its work sees these slots. */
	int avail = atomic_add_return(n, &sq->sq_avail);

	wake_up_all(&sq->sq_wait);
	if (sq->sq_on_space && avail - (int)n <= 0 && avail > 0)
		sq->sq_on_space(sq->sq_owner);
}

/**
 * xr_sendctx_post - send the first @len bytes of the context's buffer
 * @sc: a context from xr_sendctx_get(), its buffer filled
 * @len: bytes to send, at most the buffer size
 *
 * Syncs the buffer for the device and posts the Send, waiting for a send
 * queue slot if all are in use. On success the context is put back when
 * its Send or a later one completes; on failure the caller still owns it.
 *
 * Return values:
 *   %0: posted
 *   %-EINVAL: @len exceeds the buffer
 *   %-ENOTCONN: the connection is closing, or the post failed
 */
int xr_sendctx_post(struct xr_sendctx *sc, u32 len)
{
	return xr_sendctx_post_chain(sc, len, NULL, NULL, 0);
}

/*
 * The Send of @sc was not posted: release the Writes meant to go ahead
 * of it, or, when part of the chain may be on the queue pair (@posted),
 * keep them mapped until the teardown's drain (xr_rw_reap()).
 */
static void xr_sendctx_drop_rw(struct xr_sendctx *sc, bool posted)
{
	struct xr_sendq *sq = sc->sc_pool;
	struct xr_rw_set *set = sc->sc_rw;

	if (!set)
		return;
	sc->sc_rw = NULL;
	if (!posted) {
		xr_rw_set_release(set);
		return;
	}
	spin_lock(&sq->sq_lock);
	list_add_tail(&set->rs_entry, &sq->sq_rw_failed);
	spin_unlock(&sq->sq_lock);
}

/**
 * xr_sendq_post - post a chain of work requests that ends in a context's
 * @sq: the send queue
 * @sc: the context whose completion entry @tail carries
 * @first: first work request of the chain
 * @tail: last work request of the chain
 * @slots: send queue slots the chain takes
 * @signal: @tail must ask for a completion
 *
 * Waits for the slots; @tail asks for a completion when @signal says so
 * or the queue wants one. For the send path's files (sendq_timeout.c
 * posts its probe through it); others use xr_sendctx_post_chain().
 *
 * Return: as xr_sendctx_post_chain().
 */
int xr_sendq_post(struct xr_sendq *sq, struct xr_sendctx *sc,
		  struct ib_send_wr *first, struct ib_send_wr *tail,
		  u32 slots, bool signal)
{
	struct xr_ep *ep = sq->sq_ep;
	bool signaled;
	int err;

	sc->sc_slots = slots;
	err = xr_sendq_reserve(sq, slots);
	if (err) {
		xr_sendctx_drop_rw(sc, false);
		return err;
	}

	/* Posted and listed under one lock: the list keeps queue order. */
	spin_lock(&sq->sq_lock);
	/* Closed: the owner's drain may be under way, or done. */
	if (READ_ONCE(sq->sq_closing)) {
		spin_unlock(&sq->sq_lock);
		xr_sendq_release(sq, slots);
		xr_sendctx_drop_rw(sc, false);
		return -ENOTCONN;
	}
	signaled = signal || xr_sendq_want_signal(sq, slots);
	sc->sc_signaled = signaled;
	tail->send_flags = signaled ? IB_SEND_SIGNALED : 0;
	if (signaled && sq->sq_get)
		sq->sq_get(sq->sq_owner);
	xr_sendq_timeout_arm(sq, signaled);
	if (trace_xrpcrdma_post_send_enabled() ||
	    trace_xrpcrdma_wc_send_enabled())
		xr_cid_assign(&sc->sc_cid, ep->ep_scq, &ep->ep_scq_cids);
	trace_xrpcrdma_post_send(sc);
	err = xr_fault_hit(XRPCRDMA_FAULT_POINT_POST_SEND, ep);
	if (!err)
		err = ib_post_send(ep->ep_qp, first, NULL);
	if (!err)
		xr_sendq_track(sq, sc);
	spin_unlock(&sq->sq_lock);
	/* Once posted, @sc may be retired and reused: not read again. */
	if (!err && signaled)
		xr_count(sq->sq_count_signaled);
	/*
	 * A longer run raises the cap (xr_sendq_cap()): a getter that came
	 * to sleep after xr_sendq_want_signal() looked may now go on.
	 */
	if (!err && !signaled && wq_has_sleeper(&sq->sq_wait))
		wake_up_all(&sq->sq_wait);
	if (err) {
		trace_xrpcrdma_post_err(ep, &sc->sc_cid, XR_TRACE_WR_SEND, err);
		pr_warn_ratelimited("ib_post_send: %d\n", err);
		xr_sendq_release(sq, sc->sc_slots);
		xr_sendctx_drop_rw(sc, true);
		if (signaled)
			atomic_dec(&sq->sq_signaled_out);
		if (signaled && sq->sq_put)
			sq->sq_put(sq->sq_owner);
		if (sq->sq_on_close)
			sq->sq_on_close(sq->sq_owner);
		return -ENOTCONN;
	}
	return 0;
}

/**
 * xr_sendctx_post_chain - post work requests and then the Send, in one post
 * @sc: a context from xr_sendctx_get(), its buffer filled
 * @len: bytes to send, at most the buffer size
 * @first: first of @count unsignaled work requests to post before the
 *	Send (memory registrations), or NULL
 * @last: the last of them; its next pointer is set to the Send
 * @count: how many
 *
 * The Send's completion returns the send queue slots of the whole chain:
 * the work requests before it complete, in order, before it does.
 * Otherwise as xr_sendctx_post(). RDMA Writes in the chain (@sc's
 * sc_rw) are released with the Send; when the post fails, at once if
 * nothing was posted, else after the teardown's drain.
 *
 * Return values:
 *   %0: posted
 *   %-EINVAL: @len exceeds the buffer
 *   %-E2BIG: the chain can never fit in the send queue
 *   %-ENOTCONN: the connection is closing, or the post failed
 */
int xr_sendctx_post_chain(struct xr_sendctx *sc, u32 len,
			  struct ib_send_wr *first, struct ib_send_wr *last,
			  u32 count)
{
	struct xr_sendq *sq = sc->sc_pool;
	struct ib_device *dev = sq->sq_ep->ep_pd->device;

	if (len > sc->sc_buf_size) {
		xr_sendctx_drop_rw(sc, false);
		return -EINVAL;
	}
	sc->sc_sges[0].length = len;
	ib_dma_sync_single_for_device(dev, sc->sc_buf_dma, len, DMA_TO_DEVICE);

	if (first)
		last->next = &sc->sc_wr;
	else
		first = &sc->sc_wr;
	/* Writes ahead of it hold memory: release that when the Send is done. */
	return xr_sendq_post(sq, sc, first, &sc->sc_wr, count + 1, !!sc->sc_rw);
}

/*
 * A Send completed: it retires the contexts posted up to it, and on an
 * error other than a flush (which only means the connection is already
 * going away) closes the connection. A signaled Send's owner stays pinned
 * until this is done.
 */
static void xr_sendctx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct xr_sendctx *sc = container_of(wc->wr_cqe, struct xr_sendctx,
					     sc_cqe);
	struct xr_sendq *sq = sc->sc_pool;
	void *owner = sq->sq_owner;
	/* Once retired, the context is another Send's. */
	bool signaled = sc->sc_signaled;
	bool pinned;

	xr_ep_check_wc(sq->sq_ep);
	xr_fault_wc(sq->sq_ep, wc);
	trace_xrpcrdma_wc_send(wc, &sc->sc_cid);
	WRITE_ONCE(sq->sq_progress, jiffies);
	if (signaled) {
		/* The check that sees the count sees this stamp. */
		smp_mb__before_atomic();
		atomic_dec(&sq->sq_signaled_out);
	}
	if (wc->status != IB_WC_SUCCESS) {
		if (wc->status != IB_WC_WR_FLUSH_ERR) {
			xr_count(sq->sq_count_errors);
			xr_ep_set_close_reason(sq->sq_ep,
					       XRPCRDMA_CLOSE_REASON_SEND_ERROR);
			xr_ep_report_wc_error(sq->sq_ep, XRPCRDMA_WC_KIND_SEND, wc);
			pr_err_ratelimited("send completion: %s (%d)\n",
					   ib_wc_status_msg(wc->status),
					   wc->status);
		}
		pinned = xr_sendq_pin(sq, signaled);
		if (pinned && sq->sq_on_close)
			sq->sq_on_close(owner);
		if (pinned && !signaled && sq->sq_put)
			sq->sq_put(owner);
	}
	xr_sendq_retire(sq, sc);
	if (signaled && sq->sq_put)
		sq->sq_put(owner);
}
