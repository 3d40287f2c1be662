// SPDX-License-Identifier: GPL-2.0
/*
 * sendq_timeout.c - the send queue's watchdog: a peer that stops taking
 * Sends (no Receive posted, and an RNR retry count of 7) must not hold a
 * connection, its Sends and the threads that wait behind them for ever.
 * While anything is posted, a delayed work item checks that the queue
 * made progress within send-timeout; behind a run of unsignaled Sends,
 * which says nothing of whether it went, it first asks for a completion
 * (a signaled zero-length RDMA Write); with a signaled one out and no
 * progress, it breaks the connection. Also where the send path closes its
 * owner from a completion or the watchdog, pinning it for the call.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/sched/mm.h>
#include <rdma/ib_verbs.h>

#include "core.h"
#include "ep.h"
#include "sendq.h"
#include "trace_wr.h"

static void xr_sendq_timeout_check(struct work_struct *work);

/**
 * xr_sendq_timeout_init - prepare the watchdog of a send queue
 * @sq: the send queue, from xr_sendq_init()
 */
void xr_sendq_timeout_init(struct xr_sendq *sq)
{
	INIT_DELAYED_WORK(&sq->sq_timeout_work, xr_sendq_timeout_check);
}

/**
 * xr_sendq_timeout_stop - stop the watchdog for good
 * @sq: the send queue of a drained queue pair (nothing posted queues the
 *	check again)
 */
void xr_sendq_timeout_stop(struct xr_sendq *sq)
{
	cancel_delayed_work_sync(&sq->sq_timeout_work);
}

/**
 * xr_sendq_set_timeout - bound how long the send queue may make no progress
 * @sq: a send queue, before its first post
 * @ms: milliseconds; 0: no bound
 *
 * A peer chooses how long this side retries a Send it has no Receive
 * posted for (its RNR retry count; 7 is for ever). With a bound, the
 * connection is broken (close reason send-timeout) when Sends are
 * posted and none has completed for @ms (a run of unsignaled ones gets
 * a signaled RDMA Write of no bytes behind it first, and @ms more), when
 * a thread has waited that long for a slot or a send context, and when
 * one waiting for its RDMA Reads or invalidations has seen nothing on
 * the queue complete for that long (xr_sendq_wait_moving()).
 */
void xr_sendq_set_timeout(struct xr_sendq *sq, u32 ms)
{
	sq->sq_timeout = msecs_to_jiffies(ms);
}

/**
 * xr_sendq_wait_limit - how long a thread may wait on the send queue
 * @sq: the send queue
 *
 * Return: the bound in jiffies, %MAX_SCHEDULE_TIMEOUT when there is none.
 */
long xr_sendq_wait_limit(const struct xr_sendq *sq)
{
	return sq->sq_timeout ?: MAX_SCHEDULE_TIMEOUT;
}

/**
 * xr_sendq_wait_moving - wait for work requests while the send queue moves
 * @sq: the send queue they were posted on
 * @done: completed by their completion
 *
 * Waits for @done as long as the queue makes progress: a chain queued
 * behind a busy queue whose work requests keep completing is not stuck,
 * however long it waits. Gives up only once send-timeout has passed both
 * since the wait began and since the queue's last progress stamp
 * (xr_sendq_progress(), or a post that armed the watchdog). Work
 * requests complete in order, so only those ahead of the caller's can
 * stamp while it waits: a peer that lets one through just within each
 * send-timeout holds the caller that many times send-timeout at most.
 *
 * Context: process context; sleeps.
 *
 * Return: true when @done completed (and was consumed); false when the
 * queue made no progress for send-timeout: the caller breaks the
 * connection, whose flush completes @done, and waits for it.
 */
bool xr_sendq_wait_moving(const struct xr_sendq *sq, struct completion *done)
{
	unsigned long deadline, moved;
	long left;

	if (!sq->sq_timeout) {
		wait_for_completion(done);
		return true;
	}
	deadline = jiffies + sq->sq_timeout;
	for (;;) {
		left = (long)(deadline - jiffies);
		if (left > 0 && wait_for_completion_timeout(done, left))
			return true;
		moved = READ_ONCE(sq->sq_progress) + sq->sq_timeout;
		if (time_after(moved, deadline))
			deadline = moved;
		else if (!time_before(jiffies, deadline))
			break;
	}
	/* Unless it completed just now. */
	return try_wait_for_completion(done);
}

/**
 * xr_sendq_progress - a work request posted on the send queue completed
 * @sq: the send queue
 *
 * Completion handlers of work requests other than Sends (RDMA Reads,
 * the client's invalidations) call it: a Send or a chain queued behind
 * them is not stalled.
 */
void xr_sendq_progress(struct xr_sendq *sq)
{
	WRITE_ONCE(sq->sq_progress, jiffies);
}

/**
 * xr_sendq_timeout_arm - a Send is about to be posted
 * @sq: the send queue, its sq_lock held
 * @signaled: the Send asks for a completion
 *
 * The time is stamped when it is the first posted since the queue was
 * last empty, or the first signaled one out, so that a check after
 * either times from its post; the stamp comes before the count shows it.
 * The check runs while anything is posted and not retired.
 */
void xr_sendq_timeout_arm(struct xr_sendq *sq, bool signaled)
{
	bool first = list_empty(&sq->sq_posted);

	lockdep_assert_held(&sq->sq_lock);
	if (first || (signaled && atomic_read(&sq->sq_signaled_out) == 0)) {
		WRITE_ONCE(sq->sq_progress, jiffies);
		/* Pairs with the check's smp_rmb(): it sees this stamp. */
		smp_mb__before_atomic();
	}
	if (signaled)
		atomic_inc(&sq->sq_signaled_out);
	if (first && sq->sq_timeout)
		queue_delayed_work(xr_percpu_wq, &sq->sq_timeout_work,
				   sq->sq_timeout);
}

static bool xr_sendq_idle(struct xr_sendq *sq)
{
	bool idle;

	spin_lock(&sq->sq_lock);
	idle = list_empty(&sq->sq_posted);
	spin_unlock(&sq->sq_lock);
	return idle;
}

/**
 * xr_sendq_pin - pin the owner for a call that may close it
 * @sq: the send queue
 * @signaled: the caller is the completion of a signaled Send, which
 *	holds a pin already
 *
 * The owner must not be closed through a reference it no longer has: an
 * unsignaled Send holds none, so its error completion takes one if it
 * can (the owner's memory lasts until the drain either way). A pin taken
 * here (any but @signaled's) is dropped with the owner's sq_put.
 *
 * Return: false when the owner's last reference is gone (it is closing
 * anyway).
 */
bool xr_sendq_pin(struct xr_sendq *sq, bool signaled)
{
	if (signaled || !sq->sq_get)
		return true;
	if (sq->sq_tryget)
		return sq->sq_tryget(sq->sq_owner);
	sq->sq_get(sq->sq_owner);
	return true;
}

/*
 * Ask for a completion behind the unsignaled run that is all the queue
 * has posted: a signaled RDMA Write of no bytes, which touches no memory
 * of the peer (its R_key is not checked, IBTA C9-88; 1, not 0, which
 * some iWARP adapters treat as special) and completes only after every
 * Send before it. Its context retires the run when it does. From the
 * check; the owner is pinned for the call, unless it is already going.
 *
 * Return values:
 *   %0: posted
 *   %-ENOMEM: no send context could be had, the queue still open
 *   %-ENOTCONN: the connection is closing, or was just broken
 */
static int xr_sendq_probe(struct xr_sendq *sq)
{
	struct ib_rdma_wr wr = {
		.wr.opcode	= IB_WR_RDMA_WRITE,
		.rkey		= 1,
	};
	struct xr_sendctx *sc;
	unsigned int nofs;
	int err = -ENOTCONN;

	if (!xr_sendq_pin(sq, false))
		return err;
	/* A client's transport may be what reclaim writes back through. */
	nofs = memalloc_nofs_save();
	sc = xr_sendctx_get(sq);
	memalloc_nofs_restore(nofs);
	if (!sc) {
		if (!READ_ONCE(sq->sq_closing))
			err = -ENOMEM;
		goto out;
	}
	trace_xrpcrdma_sq_probe(sq, READ_ONCE(sq->sq_unsig_count));
	wr.wr.wr_cqe = &sc->sc_cqe;
	/* For the post and completion events: no bytes. */
	sc->sc_wr.num_sge = 0;
	sc->sc_sges[0].length = 0;
	err = xr_sendq_post(sq, sc, &wr.wr, &wr.wr, 1, true);
	if (err)
		xr_sendctx_put(sc);
out:
	if (sq->sq_put)
		sq->sq_put(sq->sq_owner);
	return err;
}

/*
 * While Sends are posted and not retired: when none completed for
 * sq_timeout, break the connection if a signaled one is out; if only an
 * unsignaled run is (its Sends may all be done, with nothing to say so),
 * ask for a completion behind it and look again after sq_timeout. Else
 * look again when the time would be up. Stops when nothing is posted;
 * the next post queues it again.
 */
static void xr_sendq_timeout_check(struct work_struct *work)
{
	struct xr_sendq *sq = container_of(to_delayed_work(work),
					   struct xr_sendq, sq_timeout_work);
	unsigned long deadline, now = jiffies;
	int out;

	if (xr_sendq_idle(sq) || READ_ONCE(sq->sq_closing))
		return;
	out = atomic_read(&sq->sq_signaled_out);
	WARN_ON_ONCE(out < 0);
	/* Pairs with the arm's barrier: a count of its Send, its stamp. */
	smp_rmb();
	deadline = READ_ONCE(sq->sq_progress) + sq->sq_timeout;
	if (time_before(now, deadline)) {
		queue_delayed_work(xr_percpu_wq, &sq->sq_timeout_work,
				   deadline - now);
		return;
	}
	if (out > 0) {
		xr_sendq_expire(sq, out);
		return;
	}
	/* Its post stamped the time: the check looks again after that. */
	switch (xr_sendq_probe(sq)) {
	case 0:
		queue_delayed_work(xr_percpu_wq, &sq->sq_timeout_work,
				   sq->sq_timeout);
		break;
	case -ENOMEM:
		/* The run is still out: it must not go unwatched. */
		queue_delayed_work(xr_percpu_wq, &sq->sq_timeout_work, HZ);
		break;
	}
}

/**
 * xr_sendq_fail - close the connection from a completion handler
 * @sq: the send queue of the work request that failed
 *
 * For a completion that holds no pin on the owner (a Write ahead of a
 * Send): the owner is pinned for the call, unless its last reference is
 * already gone and it is closing anyway.
 */
void xr_sendq_fail(struct xr_sendq *sq)
{
	if (!sq->sq_on_close || !xr_sendq_pin(sq, false))
		return;
	sq->sq_on_close(sq->sq_owner);
	if (sq->sq_put)
		sq->sq_put(sq->sq_owner);
}

/**
 * xr_sendq_expire - the send queue made no progress: break the connection
 * @sq: the send queue
 * @what: for the trace event: what waited (Sends out, or slots wanted)
 *
 * Moves the queue pair to the error state at once, which flushes every
 * work request stuck on it and so wakes whoever waits for them, and
 * closes the connection (close reason send-timeout). Process context.
 * The owner is pinned for the call; when its last reference is gone it
 * is being torn down, and nothing is left to do.
 */
void xr_sendq_expire(struct xr_sendq *sq, u32 what)
{
	if (!xr_sendq_pin(sq, false))
		return;
	trace_xrpcrdma_sq_timeout(sq, what);
	pr_warn_ratelimited("xprt %u: the send queue made no progress for %u ms: closing the connection\n",
			    READ_ONCE(sq->sq_ep->ep_owner_id),
			    jiffies_to_msecs(sq->sq_timeout));
	xr_ep_set_close_reason(sq->sq_ep, XRPCRDMA_CLOSE_REASON_SEND_TIMEOUT);
	/* svc's own close may wait for a thread that waits on this queue. */
	xr_ep_disconnect(sq->sq_ep);
	if (sq->sq_on_close)
		sq->sq_on_close(sq->sq_owner);
	if (sq->sq_put)
		sq->sq_put(sq->sq_owner);
}
