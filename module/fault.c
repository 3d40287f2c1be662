// SPDX-License-Identifier: GPL-2.0
/*
 * fault.c - fault injection points: a table of places where the module
 * can be told to fail, armed through netlink (fault-set), so tests can
 * drive the error paths a real device, allocator or peer would. Owns the
 * table and the decision to fire; the callers own what a fired point
 * does, which is what a real failure there does.
 *
 * Cost when nothing is armed: one static branch, patched out. Armed, a
 * hit reads the point's arming under RCU and counts with atomics; arming
 * and disarming are serialised by a mutex and publish a new arming
 * before the old one is freed after a grace period.
 */
#include <linux/delay.h>
#include <linux/jump_label.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "ep.h"
#include "fault.h"
#include "trace_ep.h"

DEFINE_STATIC_KEY_FALSE(xr_fault_key);

/* What probability counts in: parts per million. */
#define XR_FAULT_PPM	1000000

/**
 * struct xr_fault_cfg - one arming of a fault point, never changed once
 *	published
 * @fc_arm: the arming as fault-set gave it
 * @fc_rcu: frees it after readers are done
 */
struct xr_fault_cfg {
	struct xr_fault_arm	fc_arm;
	struct rcu_head		fc_rcu;
};

/**
 * struct xr_fault_state - a fault point
 * @fs_cfg: its arming, or NULL when disarmed
 * @fs_hits: hits by matching transports since it was last armed
 * @fs_fired: times it fired since it was last armed
 */
struct xr_fault_state {
	struct xr_fault_cfg __rcu	*fs_cfg;
	atomic64_t			fs_hits;
	atomic64_t			fs_fired;
};

static struct xr_fault_state xr_faults[XR_FAULT_POINT_COUNT];
static DEFINE_MUTEX(xr_fault_mutex);	/* arming and the static key */
static u32 xr_fault_armed_count;	/* points armed, under the mutex */

static const char * const xr_fault_names[XR_FAULT_POINT_COUNT] = {
	[XRPCRDMA_FAULT_POINT_POST_SEND]	= "post-send",
	[XRPCRDMA_FAULT_POINT_POST_RECV]	= "post-recv",
	[XRPCRDMA_FAULT_POINT_DMA_MAP]		= "dma-map",
	[XRPCRDMA_FAULT_POINT_SENDCTX_ALLOC]	= "sendctx-alloc",
	[XRPCRDMA_FAULT_POINT_FRWR_REG]		= "frwr-reg",
	[XRPCRDMA_FAULT_POINT_COMPLETION_ERROR]	= "completion-error",
	[XRPCRDMA_FAULT_POINT_COMPLETION_DELAY]	= "completion-delay",
	[XRPCRDMA_FAULT_POINT_RECV_DROP]	= "recv-drop",
	[XRPCRDMA_FAULT_POINT_RW_CTX]		= "rw-ctx",
	[XRPCRDMA_FAULT_POINT_ADDR_CHANGE]	= "addr-change",
	[XRPCRDMA_FAULT_POINT_QP_FATAL]		= "qp-fatal",
	[XRPCRDMA_FAULT_POINT_WRITE_CHUNK_LONG]	= "write-chunk-long",
	[XRPCRDMA_FAULT_POINT_REPLY_DELAY]	= "reply-delay",
	[XRPCRDMA_FAULT_POINT_BC_RELEASE_DELAY]	= "bc-release-delay",
};

/**
 * xr_fault_name - the name of a fault point, as the spec spells it
 * @point: a fault point below %XR_FAULT_POINT_COUNT
 *
 * Return: the name.
 */
const char *xr_fault_name(enum xrpcrdma_fault_point point)
{
	return xr_fault_names[point];
}

/**
 * xr_fault_takes_errno - whether a fired point makes an operation fail
 * @point: a fault point
 *
 * Return: true for the points whose operation returns an errno.
 */
bool xr_fault_takes_errno(enum xrpcrdma_fault_point point)
{
	switch (point) {
	case XRPCRDMA_FAULT_POINT_POST_SEND:
	case XRPCRDMA_FAULT_POINT_POST_RECV:
	case XRPCRDMA_FAULT_POINT_DMA_MAP:
	case XRPCRDMA_FAULT_POINT_SENDCTX_ALLOC:
	case XRPCRDMA_FAULT_POINT_FRWR_REG:
	case XRPCRDMA_FAULT_POINT_RW_CTX:
		return true;
	default:
		return false;
	}
}

/**
 * xr_fault_takes_delay - whether a fired point holds its caller back
 * @point: a fault point
 *
 * Return: true for the points armed with a delay in milliseconds.
 */
bool xr_fault_takes_delay(enum xrpcrdma_fault_point point)
{
	return point == XRPCRDMA_FAULT_POINT_COMPLETION_DELAY ||
	       point == XRPCRDMA_FAULT_POINT_REPLY_DELAY ||
	       point == XRPCRDMA_FAULT_POINT_BC_RELEASE_DELAY;
}

/* Count a hit and decide whether it fires; the arming is @arm. */
static bool xr_fault_decide(struct xr_fault_state *fs,
			    const struct xr_fault_arm *arm)
{
	u64 hits = atomic64_inc_return(&fs->fs_hits);
	u64 fired;
	bool fire;

	switch (arm->fa_trigger) {
	case XRPCRDMA_FAULT_TRIGGER_NTH:
		fire = hits == arm->fa_n;
		break;
	case XRPCRDMA_FAULT_TRIGGER_EVERY:
		fire = hits % arm->fa_n == 0;
		break;
	case XRPCRDMA_FAULT_TRIGGER_PROBABILITY:
		fire = get_random_u32() % XR_FAULT_PPM < arm->fa_probability;
		break;
	default:
		fire = false;
	}
	if (!fire)
		return false;
	/* times bounds the firings: take one of them, or give it back. */
	fired = atomic64_inc_return(&fs->fs_fired);
	if (arm->fa_times && fired > arm->fa_times) {
		atomic64_dec(&fs->fs_fired);
		return false;
	}
	return true;
}

/*
 * Point @point reached by the transport numbered @id (0: none known):
 * what __xr_fault_hit() returns.
 */
static int xr_fault_fire(enum xrpcrdma_fault_point point, u32 id)
{
	struct xr_fault_state *fs = &xr_faults[point];
	const struct xr_fault_cfg *cfg;
	int ret = 0;

	rcu_read_lock();
	cfg = rcu_dereference(fs->fs_cfg);
	if (!cfg)
		goto out;
	if (cfg->fc_arm.fa_transport_id && id != cfg->fc_arm.fa_transport_id)
		goto out;
	if (!xr_fault_decide(fs, &cfg->fc_arm))
		goto out;
	if (xr_fault_takes_errno(point))
		ret = -(int)cfg->fc_arm.fa_errno;
	else if (xr_fault_takes_delay(point))
		ret = cfg->fc_arm.fa_delay_ms;
	else
		ret = -EIO;
	trace_xrpcrdma_fault(point, id, ret);
out:
	rcu_read_unlock();
	return ret;
}

/**
 * __xr_fault_hit - an armed fault point was reached
 * @point: which one
 * @ep: the endpoint of the transport that reached it, or NULL
 *
 * Called through xr_fault_hit() only while some point is armed.
 *
 * Return: 0 when the point does not fire; when it fires, its negative
 * errno for the points that take one, the delay in milliseconds for
 * those that take a delay, -EIO for the others.
 */
int __xr_fault_hit(enum xrpcrdma_fault_point point, const struct xr_ep *ep)
{
	return xr_fault_fire(point, ep ? READ_ONCE(ep->ep_owner_id) : 0);
}

/**
 * __xr_fault_wc - the completion points, for one work completion
 * @ep: the endpoint the work request was posted on
 * @wc: the completion, before its handler looks at it
 *
 * Called through xr_fault_wc() only while some point is armed, from a
 * completion handler that may sleep (the completion queues are polled
 * from a workqueue). completion-delay sleeps here: this completion and
 * every later one of the same queue wait, and keep their order.
 * completion-error turns a successful completion into a general error.
 */
void __xr_fault_wc(const struct xr_ep *ep, struct ib_wc *wc)
{
	__xr_fault_delay(XRPCRDMA_FAULT_POINT_COMPLETION_DELAY, ep);
	if (wc->status == IB_WC_SUCCESS &&
	    __xr_fault_hit(XRPCRDMA_FAULT_POINT_COMPLETION_ERROR, ep)) {
		wc->status = IB_WC_GENERAL_ERR;
		wc->vendor_err = 0;
	}
}

/**
 * __xr_fault_delay - a point that holds its caller back was reached
 * @point: a point for which xr_fault_takes_delay() is true
 * @ep: the endpoint of the transport that reached it, or NULL
 *
 * Called through xr_fault_delay() only while some point is armed, and by
 * __xr_fault_wc(). Sleeps the armed delay when the point fires.
 */
void __xr_fault_delay(enum xrpcrdma_fault_point point, const struct xr_ep *ep)
{
	__xr_fault_delay_id(point, ep ? READ_ONCE(ep->ep_owner_id) : 0);
}

/**
 * __xr_fault_delay_id - a point that holds its caller back was reached by
 *	a transport known by its number
 * @point: a point for which xr_fault_takes_delay() is true
 * @transport_id: the transport's number
 *
 * Called through xr_fault_delay_id() only while some point is armed.
 * Sleeps the armed delay when the point fires.
 */
void __xr_fault_delay_id(enum xrpcrdma_fault_point point, u32 transport_id)
{
	int delay = xr_fault_fire(point, transport_id);

	if (delay > 0)
		msleep(delay);
}

/* Point @fs at @cfg (NULL: disarm); frees the arming it replaces. */
static void xr_fault_publish(struct xr_fault_state *fs,
			     struct xr_fault_cfg *cfg)
{
	struct xr_fault_cfg *old;

	lockdep_assert_held(&xr_fault_mutex);
	old = rcu_replace_pointer(fs->fs_cfg, cfg,
				  lockdep_is_held(&xr_fault_mutex));
	if (old) {
		xr_fault_armed_count--;
		kfree_rcu(old, fc_rcu);
	}
	if (cfg)
		xr_fault_armed_count++;
	if (xr_fault_armed_count)
		static_branch_enable(&xr_fault_key);
	else
		static_branch_disable(&xr_fault_key);
}

/**
 * xr_fault_set - arm or disarm a fault point
 * @point: which one, below %XR_FAULT_POINT_COUNT
 * @arm: the arming, checked by the caller; trigger off disarms
 *
 * Arming resets the point's counters; disarming keeps them.
 *
 * Return values:
 *   %0: done
 *   %-ENOMEM: no memory for the arming
 */
int xr_fault_set(enum xrpcrdma_fault_point point,
		 const struct xr_fault_arm *arm)
{
	struct xr_fault_state *fs = &xr_faults[point];
	struct xr_fault_cfg *cfg = NULL;

	if (arm->fa_trigger != XRPCRDMA_FAULT_TRIGGER_OFF) {
		cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
		if (!cfg)
			return -ENOMEM;
		cfg->fc_arm = *arm;
	}
	mutex_lock(&xr_fault_mutex);
	if (cfg) {
		/* Disarm first: hits of the old arming are not counted. */
		xr_fault_publish(fs, NULL);
		synchronize_rcu();
		atomic64_set(&fs->fs_hits, 0);
		atomic64_set(&fs->fs_fired, 0);
	}
	xr_fault_publish(fs, cfg);
	mutex_unlock(&xr_fault_mutex);
	return 0;
}

/**
 * xr_fault_get - the arming and the counters of a fault point
 * @point: which one, below %XR_FAULT_POINT_COUNT
 * @arm: filled with its arming (trigger off when disarmed)
 * @hits: filled with its hits since it was last armed
 * @fired: filled with the times it fired since then
 */
void xr_fault_get(enum xrpcrdma_fault_point point, struct xr_fault_arm *arm,
		  u64 *hits, u64 *fired)
{
	struct xr_fault_state *fs = &xr_faults[point];
	const struct xr_fault_cfg *cfg;

	memset(arm, 0, sizeof(*arm));
	rcu_read_lock();
	cfg = rcu_dereference(fs->fs_cfg);
	if (cfg)
		*arm = cfg->fc_arm;
	rcu_read_unlock();
	*hits = atomic64_read(&fs->fs_hits);
	*fired = atomic64_read(&fs->fs_fired);
}

/**
 * xr_fault_exit - disarm every fault point and free the armings
 *
 * At unload, after netlink is gone and every transport with it.
 */
void xr_fault_exit(void)
{
	int point;

	mutex_lock(&xr_fault_mutex);
	for (point = 0; point < XR_FAULT_POINT_COUNT; point++)
		xr_fault_publish(&xr_faults[point], NULL);
	mutex_unlock(&xr_fault_mutex);
	/* The armings wait for a grace period: let them go before unload. */
	rcu_barrier();
}
