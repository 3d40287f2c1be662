// SPDX-License-Identifier: GPL-2.0
/*
 * xprt_conn.c - the client transport's connections (struct xr_xconn):
 * opening one (resolve the server, create the queue pair, Receives and
 * memory regions, connect and wait for the outcome), the Receives it
 * keeps posted and the replies they bring, failing it from any context,
 * shutting it down and freeing it. When a connection is published and
 * closed is the transport's business (xprt_transport.c).
 *
 * A connection that breaks (a disconnect, a completion error) is failed:
 * once published, that forces a disconnect, and the RPC layer's close
 * shuts it down: its queue pair is drained and every device resource it
 * holds given back (also memory regions requests still hold: a device
 * removal is not held up by them). Its memory is freed from a workqueue
 * when the last reference goes, the last request holding its memory
 * regions among them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sunrpc/addr.h>
#include <linux/sunrpc/clnt.h>
#include <linux/sunrpc/sched.h>
#include <linux/sunrpc/xprt.h>

#include "core.h"
#include "ep.h"
#include "proto.h"
#include "recvq.h"
#include "sendq.h"
#include "stats.h"
#include "xprt.h"
#include "xprt_req.h"

/*
 * A connection starts with the memory regions one call may hold at most
 * (XR_REQ_MAX_MRS), so a call can always go once the others let go, and
 * allocates more as calls need them (xr_frwr_get()), up to what every
 * request may hold at once: an idle mount, or one whose calls all go
 * inline, holds no more than the first. A call uses one region for its
 * payload (two where it starts inside a page); a Reply chunk, and a call
 * sent whole in a position-zero Read chunk (krb5i, krb5p), three: head,
 * pages, tail (four where the pages start inside a page). A lower bound
 * than XR_REQ_MAX_MRS per request would make such calls, all credits in
 * flight, wait out a fixed delay for a region (-ENOBUFS), not a reply.
 * (A request whose RPC is ending may still hold its regions while its
 * credit is another's, so the bound can be met for a moment; and where
 * the device or memory gives no more, the bound becomes what is there.)
 */
/* Bound on resolving the server. */
#define XR_XPRT_RESOLVE_MS	5000

/* The device resources went in xr_xconn_shutdown(); memory is left. */
static void xr_xconn_destroy(struct xr_xconn *c)
{
	xr_frwr_pool_destroy(c);
	kfree(c);
	xr_obj_put(XR_OBJ_XCONN);
}

static void xr_xconn_free_work(struct work_struct *work)
{
	xr_xconn_destroy(container_of(work, struct xr_xconn, xc_free_work));
	module_put(THIS_MODULE);
}

/* Possibly from a completion handler: the freeing sleeps, so defer it. */
static void xr_xconn_release(struct kref *ref)
{
	struct xr_xconn *c = container_of(ref, struct xr_xconn, xc_ref);

	__module_get(THIS_MODULE);
	queue_work(xr_xprt_wq, &c->xc_free_work);
}

/**
 * xr_xconn_put - drop a reference on a client connection
 * @c: the connection; freed (from a workqueue) with the last reference
 */
void xr_xconn_put(struct xr_xconn *c)
{
	kref_put(&c->xc_ref, xr_xconn_release);
}

/**
 * xr_xconn_fail - a client connection is broken: have it closed
 * @c: the connection; any context
 *
 * Wakes senders waiting for send queue slots and, once the transport
 * uses the connection, forces a disconnect (the RPC layer then closes it
 * and reconnects).
 */
void xr_xconn_fail(struct xr_xconn *c)
{
	if (test_and_set_bit(XR_XC_DOWN, &c->xc_flags))
		return;
	/* Pairs with the barrier in xr_xprt_publish(). */
	smp_mb__after_atomic();
	xr_sendq_close(&c->xc_sq);
	if (test_bit(XR_XC_PUBLISHED, &c->xc_flags))
		xprt_force_disconnect(&c->xc_xprt->rx_xprt);
}

/**
 * xr_xconn_shutdown - stop a client connection and give back everything
 *	it holds of the device
 * @c: the connection; the caller holds a reference
 *
 * Nothing is posted after the drain, and requests still holding memory
 * regions only keep the memory. Never from the connection manager's
 * callbacks. Sleeps.
 */
void xr_xconn_shutdown(struct xr_xconn *c)
{
	set_bit(XR_XC_DOWN, &c->xc_flags);
	/* Before the barrier: see xr_frwr_inv_expire(). */
	set_bit(XR_XC_SHUTDOWN, &c->xc_flags);
	xr_sendq_close(&c->xc_sq);
	/* Whoever is posting has posted: its work requests get flushed. */
	down_write(&c->xc_post_rwsem);
	up_write(&c->xc_post_rwsem);
	xr_ep_disconnect(&c->xc_ep);
	xr_ep_drain(&c->xc_ep);
	set_bit(XR_XC_DRAINED, &c->xc_flags);
	complete_all(&c->xc_drained);
	cancel_work_sync(&c->xc_reply_work);

	xr_frwr_pool_orphan(c);
	if (c->xc_sq.sq_ep)
		xr_sendq_destroy(&c->xc_sq);
	if (c->xc_rq.rcvq_ep)
		xr_recvq_destroy(&c->xc_rq);
	xr_ep_destroy(&c->xc_ep);
}

static void xr_xconn_owner_fail(void *owner)
{
	xr_xconn_fail(owner);
}

static void xr_xconn_owner_get(void *owner)
{
	kref_get(&((struct xr_xconn *)owner)->xc_ref);
}

static void xr_xconn_owner_put(void *owner)
{
	xr_xconn_put(owner);
}

static bool xr_xconn_owner_tryget(void *owner)
{
	return kref_get_unless_zero(&((struct xr_xconn *)owner)->xc_ref);
}

static void xr_xconn_data_ready(void *owner)
{
	struct xr_xconn *c = owner;

	queue_work(xr_xprt_wq, &c->xc_reply_work);
}

/**
 * xr_xconn_recv_replace - done with a received message: post a Receive
 *	in its place
 * @c: the connection it arrived on
 * @rc: its receive context, not to be touched afterwards (it may be the
 *	one posted)
 * @settle: the message stands for no call in flight any more: anything
 *	but a reply about to complete its RPC, which settles when it
 *	releases the call's slot (xc_unsettled)
 *
 * A reply that completes an RPC is handed back here before the RPC is
 * completed, so the connection again has a Receive for each call the
 * server may answer. A failed post fails the connection.
 */
void xr_xconn_recv_replace(struct xr_xconn *c, struct xr_recvctx *rc,
			   bool settle)
{
	int err;

	xr_recvctx_put(rc);
	down_read(&c->xc_post_rwsem);
	err = test_bit(XR_XC_DOWN, &c->xc_flags) ? 0 :
		xr_recvq_post(&c->xc_rq, 1);
	up_read(&c->xc_post_rwsem);
	if (settle)
		atomic_dec(&c->xc_unsettled);
	if (err)
		xr_xconn_fail(c);
}

/*
 * Every message is offered here first, from the Receive completion
 * handler, and its header decoded once. A dropped one, one whose header
 * does not decode, and a reply that needs no waiting are done with here:
 * one hand-off fewer on the way to the waiting RPC. Anything that may
 * wait goes on to the reply worker.
 */
static bool xr_xconn_recv(void *owner, struct xr_recvctx *rc)
{
	struct xr_xconn *c = owner;

	if (xr_recvctx_drop(rc) || !xr_reply_decode(c, rc)) {
		/* It completes no RPC: it settles here. */
		xr_xconn_recv_replace(c, rc, true);
		return true;
	}
	return xr_reply_try_direct(c, rc);
}

/* Replies that may sleep, one at a time. */
static void xr_xconn_reply_work(struct work_struct *work)
{
	struct xr_xconn *c = container_of(work, struct xr_xconn,
					  xc_reply_work);
	struct xr_recvctx *rc;

	while ((rc = xr_recvq_next_ready(&c->xc_rq))) {
		if (!xr_reply_handle(c, rc))
			xr_xconn_recv_replace(c, rc, true);
	}
}

static void xr_xconn_established(struct xr_ep *ep)
{
	struct xr_xconn *c = container_of(ep, struct xr_xconn, xc_ep);

	set_bit(XR_XC_ESTABLISHED, &c->xc_flags);
	complete(&c->xc_up);
}

static void xr_xconn_disconnected(struct xr_ep *ep)
{
	struct xr_xconn *c = container_of(ep, struct xr_xconn, xc_ep);

	xr_xconn_fail(c);
	complete(&c->xc_up);
}

static void xr_xconn_qp_fatal(struct xr_ep *ep)
{
	xr_xconn_fail(container_of(ep, struct xr_xconn, xc_ep));
}

static const struct xr_ep_ops xr_xconn_ep_ops = {
	.eo_established		= xr_xconn_established,
	.eo_disconnected	= xr_xconn_disconnected,
	.eo_qp_fatal		= xr_xconn_qp_fatal,
};

static struct xr_xconn *xr_xconn_alloc(struct xr_xprt *rx)
{
	struct xr_xconn *c;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return NULL;
	c->xc_xprt = rx;
	/* xr_xconn_fail() may close it before xr_sendq_init(). */
	xr_sendq_preinit(&c->xc_sq);
	init_rwsem(&c->xc_post_rwsem);
	spin_lock_init(&c->xc_mr_lock);
	INIT_LIST_HEAD(&c->xc_mr_free);
	INIT_LIST_HEAD(&c->xc_mr_all);
	kref_init(&c->xc_ref);
	init_completion(&c->xc_up);
	init_completion(&c->xc_drained);
	INIT_WORK(&c->xc_reply_work, xr_xconn_reply_work);
	INIT_WORK(&c->xc_free_work, xr_xconn_free_work);
	/* Completion error events name the transport. */
	c->xc_ep.ep_owner_id = rx->rx_id;
	xr_obj_get(XR_OBJ_XCONN);
	return c;
}

/* Queue pair, memory regions, send and receive contexts. */
static int xr_xconn_setup(struct xr_xconn *c, u32 reqs)
{
	u32 sq_depth = reqs * (2 * XR_REQ_MAX_MRS + 1) + XR_BC_MAX_REQUESTS;
	u32 recvs = reqs + XR_BC_MAX_REQUESTS;
	u32 every;
	int err;

	err = xr_ep_create_qp(&c->xc_ep, sq_depth, recvs, 0);
	if (err)
		return err;
	/* A device too small for a Receive per call cannot carry them. */
	if (c->xc_ep.ep_rq_depth < recvs)
		return -ENOSPC;
	err = xr_frwr_pool_init(c, XR_REQ_MAX_MRS, reqs * XR_REQ_MAX_MRS);
	if (err)
		return err;

	xr_sendq_init(&c->xc_sq, &c->xc_ep,
		      c->xc_xprt->rx_config.cf_val[XR_CFG_INLINE_SEND]);
	c->xc_sq.sq_owner = c;
	c->xc_sq.sq_on_close = xr_xconn_owner_fail;
	c->xc_sq.sq_get = xr_xconn_owner_get;
	c->xc_sq.sq_put = xr_xconn_owner_put;
	c->xc_sq.sq_tryget = xr_xconn_owner_tryget;
	c->xc_sq.sq_count_signaled =
		&c->xc_xprt->rx_stats[XR_XPRT_STAT_SENDS_SIGNALED];
	every = c->xc_xprt->rx_config.cf_val[XR_CFG_SIGNAL_INTERVAL];
	xr_sendq_set_signal_every(&c->xc_sq,
				  xr_sendq_signal_every(every,
							c->xc_ep.ep_sq_depth));
	xr_sendq_set_timeout(&c->xc_sq,
			     c->xc_xprt->rx_config.cf_val[XR_CFG_SEND_TIMEOUT]);

	c->xc_inline_recv = c->xc_xprt->rx_config.cf_val[XR_CFG_INLINE_RECV];
	xr_recvq_init(&c->xc_rq, &c->xc_ep, c->xc_inline_recv);
	c->xc_rq.rcvq_owner = c;
	c->xc_rq.rcvq_on_recv = xr_xconn_recv;
	c->xc_rq.rcvq_on_ready = xr_xconn_data_ready;
	c->xc_rq.rcvq_on_close = xr_xconn_owner_fail;
	c->xc_rq.rcvq_count_taken = &c->xc_unsettled;
	/* One Receive for every call that may be in flight, either way. */
	c->xc_recvs = recvs;
	return xr_recvq_post(&c->xc_rq, recvs);
}

/* Map what went wrong to what the RPC layer's connect logic knows. */
static int xr_xconn_errno(int err)
{
	switch (err) {
	case -ECONNREFUSED:
	case -ECONNRESET:
	case -ECONNABORTED:
	case -ENETUNREACH:
	case -EHOSTUNREACH:
	case -ETIMEDOUT:
		return err;
	default:
		return -ENOTCONN;
	}
}

/**
 * xr_xconn_open - resolve, set up and connect a new client connection
 * @rx: the transport it is for
 * @conn: set to the connection, established, on success
 *
 * Waits for the outcome, at most the transport's connect-timeout. Sleeps.
 *
 * Return: 0, with a reference on *@conn for the caller; else an error
 * the RPC layer's connect logic knows (-ECONNREFUSED, -ETIMEDOUT, ...;
 * -ENOTCONN for anything else), and nothing is left of the connection.
 */
int xr_xconn_open(struct xr_xprt *rx, struct xr_xconn **conn)
{
	const struct xr_config *cfg = &rx->rx_config;
	struct rpc_xprt *xprt = &rx->rx_xprt;
	struct xr_cm_pdata ours = {
		.cp_send_size	= cfg->cf_val[XR_CFG_INLINE_SEND],
		.cp_recv_size	= cfg->cf_val[XR_CFG_INLINE_RECV],
		/* The reply may invalidate our regions (see xprt_frwr.c). */
		.cp_flags	= XR_CM_SWI_OK,
	};
	unsigned long timeout;
	struct xr_xconn *c;
	int err;

	c = xr_xconn_alloc(rx);
	if (!c)
		return -ENOMEM;
	err = xr_ep_resolve(&c->xc_ep, &xr_xconn_ep_ops, xprt->xprt_net,
			    (struct sockaddr *)&xprt->addr, XR_XPRT_RESOLVE_MS);
	if (err)
		goto out;
	/* Switched off (device-set): the server is out of reach through it. */
	if (!xr_device_accepts(c->xc_ep.ep_id->device)) {
		pr_warn_ratelimited("xprt %u: device %s is disabled: not connecting\n",
				    rx->rx_id, dev_name(&c->xc_ep.ep_id->device->dev));
		err = -ENETUNREACH;
		goto out;
	}
	err = xr_xconn_setup(c, rx->rx_max_reqs);
	if (!err)
		err = xr_ep_connect(&c->xc_ep, &ours);
	if (err)
		goto out;
	timeout = xr_config_ms_to_jiffies(cfg, XR_CFG_CONNECT_TIMEOUT);
	if (!wait_for_completion_timeout(&c->xc_up, timeout))
		err = -ETIMEDOUT;
	else if (!test_bit(XR_XC_ESTABLISHED, &c->xc_flags) ||
		 test_bit(XR_XC_DOWN, &c->xc_flags))
		err = c->xc_ep.ep_cm_error ? : -ECONNABORTED;
	if (err)
		goto out;

	/*
	 * Calls go out no larger than the server receives, and a reply is
	 * expected inline only as large as the server sends inline (1024
	 * when it said nothing, RFC 8166): a larger one gets a chunk to
	 * come back in. Our buffers stay as they were posted. Calls are no
	 * larger than our Send Size either, as advertised.
	 */
	c->xc_inline_send =
		min(xr_cm_size_carried(cfg->cf_val[XR_CFG_INLINE_SEND]),
		    c->xc_ep.ep_peer.cp_recv_size);
	c->xc_inline_recv = min_t(u32, c->xc_rq.rcvq_buf_size,
				  c->xc_ep.ep_peer.cp_send_size);
	memcpy(&c->xc_local, &c->xc_ep.ep_id->route.addr.src_addr,
	       sizeof(c->xc_local));
	c->xc_sq.sq_buf_size = c->xc_inline_send;
	*conn = c;
	return 0;

out:
	xr_xconn_shutdown(c);
	xr_xconn_put(c);
	return xr_xconn_errno(err);
}
