// SPDX-License-Identifier: GPL-2.0
/*
 * xprt_transport.c - the client transport's SUNRPC face: the xprt_class
 * the NFS client mounts through (proto=rdma), the rpc_xprt_ops, and when
 * the transport's connections are opened, published and closed. The
 * connections themselves are in xprt_conn.c, marshaling in
 * xprt_marshal.c, memory registration in xprt_frwr.c.
 *
 * Connections: the connect op queues a worker (at once the first time,
 * then after an exponentially growing delay) that opens a connection
 * (xr_xconn_open(): it resolves the server, creates a struct xr_xconn
 * with its queue pair, Receives and memory regions, and connects). Once
 * established the connection is published in rx_conn and the transport
 * marked connected. Anything that breaks it (a disconnect, a completion
 * error, an RPC timeout) forces a disconnect; the RPC layer then calls
 * close with the transport's write lock held, which unpublishes the
 * connection, drains its queue pair and releases every device resource
 * it holds (also memory regions requests still hold: a device removal is
 * not held up by them). The connection's memory is freed from a
 * workqueue when the last request holding its memory regions lets go.
 *
 * Credits: the congestion window is the server's last credit grant, so
 * never more calls are in flight than it granted.
 *
 * Netlink: a transport is numbered in the server's registry from setup
 * to destroy (it leaves the registry before its memory goes, so a dump
 * holding the registry sees it whole); rx_mutex keeps its connection
 * from being unpublished while a dump reads it. Each connection that was
 * published is announced when it comes up and once it is closed.
 *
 * NFSv4.1: the transport carries the session backchannel
 * (xprt_backchannel.c). Each connection keeps XR_BC_MAX_REQUESTS more
 * Receives for the server's callbacks and as many more send queue slots
 * for their replies, which send_request recognises (bc_prealloc()) and
 * sends without a forward credit.
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
#include "registry.h"
#include "sendq.h"
#include "snap.h"
#include "stats.h"
#include "xprt.h"
#include "xprt_req.h"

/* Bound on the server's answer to our request. */
#define XR_XPRT_BIND_TO		(60 * HZ)

/* RDMA has no keep-alive: an RPC timeout forces a reconnect (timer op). */
static const struct rpc_timeout xr_xprt_timeout = {
	.to_initval	= 60 * HZ,
	.to_maxval	= 60 * HZ,
	.to_retries	= 2,
};

struct workqueue_struct *xr_xprt_wq;
static struct xprt_class xr_xprt_class;
static bool xr_xprt_registered;

static struct xr_xprt *xr_xprt_of(struct rpc_xprt *xprt)
{
	return container_of(xprt, struct xr_xprt, rx_xprt);
}

/* Make @c the transport's connection; the RPC layer may send. */
static void xr_xprt_publish(struct xr_xprt *rx, struct xr_xconn *c)
{
	struct rpc_xprt *xprt = &rx->rx_xprt;

	mutex_lock(&rx->rx_mutex);
	rx->rx_conn = c;
	WRITE_ONCE(rx->rx_bc_inline, min(c->xc_inline_send,
					 c->xc_rq.rcvq_buf_size));
	set_bit(XR_XC_PUBLISHED, &c->xc_flags);
	/* A timeout of an earlier connection is not this one's reason. */
	atomic_set(&rx->rx_timed_out, 0);
	mutex_unlock(&rx->rx_mutex);

	spin_lock(&xprt->transport_lock);
	/* One call until the server's first grant. */
	xprt->cwnd = RPC_CWNDSCALE;
	spin_unlock(&xprt->transport_lock);
	if (xprt->stat.connect_count)
		xr_xprt_count(rx, XR_XPRT_STAT_RECONNECTS, 1);
	xprt->connect_cookie++;
	xprt->stat.connect_count++;
	xprt->stat.connect_time += (long)jiffies - xprt->stat.connect_start;
	xprt->reestablish_timeout = 0;
	xprt_set_connected(xprt);

	/* Pairs with the barrier in xr_xconn_fail(): one side sees both. */
	smp_mb__after_atomic();
	if (test_bit(XR_XC_DOWN, &c->xc_flags))
		xprt_force_disconnect(xprt);
}

/* The name of client counter @pos, in the order netlink shows them. */
static const char *xr_xprt_snap_stat_name(unsigned int pos)
{
	enum xr_xprt_stat stat;

	return xr_xprt_stat_at(pos, &stat);
}

/*
 * Copy what observers see of @rx into @snap, with its connection @c (or
 * none) and @state. The caller keeps @c alive (rx_mutex, or a reference).
 */
static void xr_xprt_copy(struct xr_xprt *rx, struct xr_xconn *c, u32 state,
			 struct xr_xprt_snap *snap)
{
	struct rpc_xprt *xprt = &rx->rx_xprt;
	struct xr_conn_snap *cs = &snap->xs_conn;
	enum xr_xprt_stat stat;
	unsigned int pos;

	BUILD_BUG_ON(XR_XPRT_STAT_COUNT > XR_SNAP_STATS_MAX);
	memset(snap, 0, sizeof(*snap));
	snap->xs_net = xprt->xprt_net;
	snap->xs_id = rx->rx_id;
	snap->xs_role = XRPCRDMA_TRANSPORT_ROLE_CLIENT;
	snap->xs_state = state;
	snap->xs_class = xprt->xprt_class->name;
	memcpy(&snap->xs_peer, &xprt->addr, sizeof(snap->xs_peer));
	if (c) {
		memcpy(&snap->xs_local, &c->xc_local, sizeof(snap->xs_local));
		snap->xs_reason = xr_ep_close_reason(&c->xc_ep);
		snap->xs_has_conn = true;
		cs->cs_credits = READ_ONCE(xprt->cwnd) >> RPC_CWNDSHIFT;
		cs->cs_inline_send = c->xc_inline_send;
		cs->cs_inline_recv = c->xc_inline_recv;
		cs->cs_peer_inline_send = c->xc_ep.ep_peer.cp_send_size;
		cs->cs_peer_inline_recv = c->xc_ep.ep_peer.cp_recv_size;
		xr_sendq_snapshot(&c->xc_sq, cs);
		xr_recvq_snapshot(&c->xc_rq, cs);
	}
	snap->xs_nstats = XR_XPRT_STAT_COUNT;
	snap->xs_stat_name = xr_xprt_snap_stat_name;
	for (pos = 0; pos < XR_XPRT_STAT_COUNT; pos++) {
		xr_xprt_stat_at(pos, &stat);
		snap->xs_stats[pos] = atomic64_read(&rx->rx_stats[stat]);
	}
}

/*
 * Tell event listeners that @c of @rx is up (@up) or was closed and
 * drained. The caller holds a reference on @c. Sleeps.
 */
static void xr_xprt_announce(struct xr_xprt *rx, struct xr_xconn *c, bool up)
{
	struct xr_xprt_snap *snap;

	if (!rx->rx_id || !xr_nl_listening(rx->rx_xprt.xprt_net))
		return;
	snap = kmalloc(sizeof(*snap), GFP_KERNEL);
	if (!snap)
		return;
	xr_xprt_copy(rx, c, up ? XRPCRDMA_TRANSPORT_STATE_CONNECTED :
				 XRPCRDMA_TRANSPORT_STATE_CLOSING, snap);
	xr_nl_notify_xprt(snap, up ? XR_EV_CONNECT : XR_EV_DISCONNECT);
	kfree(snap);
}

static void xr_xprt_connect_worker(struct work_struct *work)
{
	struct xr_xprt *rx = container_of(work, struct xr_xprt,
					  rx_connect_work.work);
	struct rpc_xprt *xprt = &rx->rx_xprt;
	struct xr_xconn *c;
	int err;

	err = xr_xconn_open(rx, &c);
	if (!err) {
		/* The close may unpublish and release it at once. */
		kref_get(&c->xc_ref);
		xr_xprt_publish(rx, c);
		xr_xprt_announce(rx, c, true);
		xr_xconn_put(c);
	} else {
		pr_debug("connect to %s: %d\n",
			 xprt->address_strings[RPC_DISPLAY_ADDR], err);
	}
	xprt_clear_connecting(xprt);
	/* A close waiting for the write lock (and the idle timer) may go. */
	xprt_unlock_connect(xprt, rx);
	xprt_wake_pending_tasks(xprt, err);
}

/* rpc_xprt_ops */

static void xr_xprt_connect(struct rpc_xprt *xprt, struct rpc_task *task)
{
	struct xr_xprt *rx = xr_xprt_of(xprt);
	unsigned long delay = 0, first;

	if (rx->rx_tried) {
		delay = xprt_reconnect_delay(xprt);
		first = xr_config_ms_to_jiffies(&rx->rx_config,
						XR_CFG_RECONNECT_MIN);
		xprt_reconnect_backoff(xprt, first);
	}
	rx->rx_tried = true;
	/*
	 * The worker holds the write lock the task took for the connect
	 * until it is done (xprt_unlock_connect()): no close, idle close
	 * or change of address may run while it opens and publishes.
	 */
	WARN_ON_ONCE(!xprt_lock_connect(xprt, task, rx));
	queue_delayed_work(xr_xprt_wq, &rx->rx_connect_work, delay);
}

/* With the transport's write lock held (or from destroy). */
static void xr_xprt_close(struct rpc_xprt *xprt)
{
	struct xr_xprt *rx = xr_xprt_of(xprt);
	struct xr_xconn *c;

	mutex_lock(&rx->rx_mutex);
	c = rx->rx_conn;
	rx->rx_conn = NULL;
	/* Its late failures must not disconnect a successor. */
	if (c)
		clear_bit(XR_XC_PUBLISHED, &c->xc_flags);
	mutex_unlock(&rx->rx_mutex);
	if (c) {
		/* Unless something else broke it first. */
		if (atomic_xchg(&rx->rx_timed_out, 0))
			xr_ep_set_close_reason(&c->xc_ep,
					       XRPCRDMA_CLOSE_REASON_TIMEOUT);
		xr_ep_set_close_reason(&c->xc_ep, XRPCRDMA_CLOSE_REASON_LOCAL);
		xr_xconn_shutdown(c);
		/* Drained: every work request completed. */
		xr_xprt_announce(rx, c, false);
		xr_xconn_put(c);
	}
	xprt_disconnect_done(xprt);
}

/*
 * What client transport @rx is doing; the caller holds its rx_mutex.
 * Return: connected while its connection is published and up; closing
 * once that connection broke or the RPC layer is closing it; connecting
 * while a connect is under way or waits for its back-off; else
 * disconnected.
 */
static enum xrpcrdma_transport_state xr_xprt_state(struct xr_xprt *rx)
{
	struct rpc_xprt *xprt = &rx->rx_xprt;
	struct xr_xconn *c = rx->rx_conn;

	lockdep_assert_held(&rx->rx_mutex);
	if (c && test_bit(XR_XC_DOWN, &c->xc_flags))
		return XRPCRDMA_TRANSPORT_STATE_CLOSING;
	if (c && xprt_connected(xprt))
		return XRPCRDMA_TRANSPORT_STATE_CONNECTED;
	if (test_bit(XPRT_CLOSE_WAIT, &xprt->state) ||
	    test_bit(XPRT_CLOSING, &xprt->state))
		return XRPCRDMA_TRANSPORT_STATE_CLOSING;
	if (xprt_connecting(xprt) || delayed_work_pending(&rx->rx_connect_work))
		return XRPCRDMA_TRANSPORT_STATE_CONNECTING;
	return XRPCRDMA_TRANSPORT_STATE_DISCONNECTED;
}

/**
 * xr_xprt_fill_snap - copy what observers see of a client transport
 * @rx: the transport; the caller keeps it in memory (the registry)
 * @snap: where to copy it
 *
 * Its connection stays published, and its queues in place, while this
 * holds rx_mutex. Sleeps.
 */
void xr_xprt_fill_snap(struct xr_xprt *rx, struct xr_xprt_snap *snap)
{
	mutex_lock(&rx->rx_mutex);
	xr_xprt_copy(rx, rx->rx_conn, xr_xprt_state(rx), snap);
	mutex_unlock(&rx->rx_mutex);
}

static void xr_xprt_set_port(struct rpc_xprt *xprt, unsigned short port)
{
	struct sockaddr *sap = (struct sockaddr *)&xprt->addr;
	char buf[8];

	rpc_set_port(sap, port);
	kfree(xprt->address_strings[RPC_DISPLAY_PORT]);
	snprintf(buf, sizeof(buf), "%u", port);
	xprt->address_strings[RPC_DISPLAY_PORT] = kstrdup(buf, GFP_KERNEL);
	kfree(xprt->address_strings[RPC_DISPLAY_HEX_PORT]);
	snprintf(buf, sizeof(buf), "%4hx", port);
	xprt->address_strings[RPC_DISPLAY_HEX_PORT] = kstrdup(buf, GFP_KERNEL);
}

/* An RPC timed out on a live connection: the path may be dead. */
static void xr_xprt_timer(struct rpc_xprt *xprt, struct rpc_task *task)
{
	struct xr_xprt *rx = xr_xprt_of(xprt);

	if (!xprt_connected(xprt))
		return;
	xr_xprt_count(rx, XR_XPRT_STAT_TIMEOUTS, 1);
	atomic_set(&rx->rx_timed_out, 1);
	xprt_force_disconnect(xprt);
}

static int xr_xprt_buf_alloc(struct rpc_task *task)
{
	struct rpc_rqst *rqst = task->tk_rqstp;
	size_t callsize = round_up(rqst->rq_callsize, 8);
	struct xr_req *req;

	req = kmalloc(struct_size(req, rr_buf, callsize + rqst->rq_rcvsize),
		      rpc_task_gfp_mask() | __GFP_NOWARN);
	if (!req)
		return -ENOMEM;
	mutex_init(&req->rr_mutex);
	req->rr_conn = NULL;
	INIT_LIST_HEAD(&req->rr_mrs);
	req->rr_nmrs = 0;
	req->rr_nwsegs = 0;
	req->rr_reply_kind = XR_REPLY_INLINE;
	/* Nothing is sent yet: no message answers it. */
	req->rr_answered = true;
	rqst->rq_buffer = req->rr_buf;
	rqst->rq_rbuffer = req->rr_buf + callsize;
	xr_obj_get(XR_OBJ_REQ);
	return 0;
}

static void xr_xprt_buf_free(struct rpc_task *task)
{
	struct rpc_rqst *rqst = task->tk_rqstp;
	struct xr_req *req;

	if (!rqst->rq_buffer)
		return;
	req = container_of(rqst->rq_buffer, struct xr_req, rr_buf);
	mutex_lock(&req->rr_mutex);
	xr_frwr_release(req);
	mutex_unlock(&req->rr_mutex);
	mutex_destroy(&req->rr_mutex);
	kfree(req);
	rqst->rq_buffer = NULL;
	rqst->rq_rbuffer = NULL;
	xr_obj_put(XR_OBJ_REQ);
}

/*
 * A forward call. The RPC layer sends a call again on the connection it
 * went out on when it woke the task before the reply came (a reconnect's
 * wake-up, say): a second copy would take a second credit of the
 * server's grant, run twice there, and its chunks would be answered
 * twice. As the in-tree client does, that connection is given up
 * instead (-ENOTCONN) and the call goes out on the next one. Counts the
 * bytes sent for the RPC layer (mountstats); the time it went out is
 * stamped when it is posted (xr_marshal_post()).
 */
static int xr_xprt_send_call(struct xr_xprt *rx, struct xr_xconn *c,
			     struct rpc_rqst *rqst)
{
	struct rpc_xprt *xprt = &rx->rx_xprt;
	int err;

	if (!xprt_request_get_cong(xprt, rqst))
		return -EBADSLT;
	if (rqst->rq_connect_cookie == xprt->connect_cookie)
		return -ENOTCONN;
	err = xr_marshal_send(rx, c, rqst);
	if (!err)
		rqst->rq_xmit_bytes_sent += rqst->rq_snd_buf.len;
	return err;
}

/*
 * Return values (see call_transmit_status()):
 *   %0: posted
 *   %-EBADSLT: no credit now: the RPC layer waits for a reply
 *   %-ENOTCONN: not connected: reconnect and call again
 *   %-EAGAIN: waiting for write space (memory regions being allocated)
 *   %-ENOBUFS: no resources now: call again later
 *   %-EIO: cannot be sent; do not retry
 *   %-ECONNRESET: a backchannel reply for an earlier connection (dropped)
 */
static int xr_xprt_send_request(struct rpc_rqst *rqst)
{
	struct rpc_xprt *xprt = rqst->rq_xprt;
	struct xr_xprt *rx = xr_xprt_of(xprt);
	struct xr_xconn *c = rx->rx_conn;
	int err;

	if (!xprt_connected(xprt) || !c)
		return -ENOTCONN;
	if (bc_prealloc(rqst))
		err = xr_xprt_bc_send_reply(rx, c, rqst);
	else
		err = xr_xprt_send_call(rx, c, rqst);
	if (err == -ENOTCONN)
		xr_xconn_fail(c);
	return err;
}

static void xr_xprt_print_stats(struct rpc_xprt *xprt, struct seq_file *seq)
{
	struct xr_xprt *rx = xr_xprt_of(xprt);
	long idle = 0;
	u64 s[XR_XPRT_STAT_COUNT];
	int i;

	for (i = 0; i < XR_XPRT_STAT_COUNT; i++)
		s[i] = atomic64_read(&rx->rx_stats[i]);
	if (xprt_connected(xprt))
		idle = (long)jiffies - xprt->last_used;

	seq_printf(seq, "\txprt:\trdma 0 %lu %lu %lu %ld %lu %lu %lu %llu %llu ",
		   xprt->stat.bind_count, xprt->stat.connect_count,
		   xprt->stat.connect_time / HZ, idle / HZ,
		   xprt->stat.sends, xprt->stat.recvs, xprt->stat.bad_xids,
		   xprt->stat.req_u, xprt->stat.bklog_u);
	seq_printf(seq, "%llu %llu %llu %llu %llu %llu %llu 0 %llu %llu %llu ",
		   s[XR_XPRT_STAT_READ_SEGS], s[XR_XPRT_STAT_WRITE_SEGS],
		   s[XR_XPRT_STAT_REPLY_SEGS], s[XR_XPRT_STAT_RDMA_REQ_BYTES],
		   s[XR_XPRT_STAT_RDMA_REPLY_BYTES],
		   s[XR_XPRT_STAT_PULLUP_BYTES], s[XR_XPRT_STAT_FIXUP_BYTES],
		   s[XR_XPRT_STAT_FAILED_MARSHAL], s[XR_XPRT_STAT_BAD_REPLIES],
		   s[XR_XPRT_STAT_NOMSG_CALLS]);
	seq_printf(seq, "0 0 %llu %llu %llu 0\n",
		   s[XR_XPRT_STAT_MRS_ALLOCATED], s[XR_XPRT_STAT_LOCAL_INVS],
		   s[XR_XPRT_STAT_EMPTY_SENDCTX]);
}

static void xr_xprt_free_addresses(struct rpc_xprt *xprt)
{
	int i;

	for (i = 0; i < RPC_DISPLAY_MAX; i++) {
		kfree(xprt->address_strings[i]);
		xprt->address_strings[i] = NULL;
	}
}

static int xr_xprt_format_addresses(struct rpc_xprt *xprt)
{
	struct sockaddr *sap = (struct sockaddr *)&xprt->addr;
	bool v6 = sap->sa_family == AF_INET6;
	char buf[128];

	rpc_ntop(sap, buf, sizeof(buf));
	xprt->address_strings[RPC_DISPLAY_ADDR] = kstrdup(buf, GFP_KERNEL);
	if (v6)
		snprintf(buf, sizeof(buf), "%pi6",
			 &((struct sockaddr_in6 *)sap)->sin6_addr);
	else
		snprintf(buf, sizeof(buf), "%08x",
			 ntohl(((struct sockaddr_in *)sap)->sin_addr.s_addr));
	xprt->address_strings[RPC_DISPLAY_HEX_ADDR] = kstrdup(buf, GFP_KERNEL);
	xprt->address_strings[RPC_DISPLAY_PROTO] = kstrdup("rdma", GFP_KERNEL);
	xprt->address_strings[RPC_DISPLAY_NETID] =
		kstrdup(v6 ? "rdma6" : "rdma", GFP_KERNEL);
	xr_xprt_set_port(xprt, rpc_get_port(sap));
	if (!xprt->address_strings[RPC_DISPLAY_ADDR] ||
	    !xprt->address_strings[RPC_DISPLAY_HEX_ADDR] ||
	    !xprt->address_strings[RPC_DISPLAY_PROTO] ||
	    !xprt->address_strings[RPC_DISPLAY_NETID] ||
	    !xprt->address_strings[RPC_DISPLAY_PORT] ||
	    !xprt->address_strings[RPC_DISPLAY_HEX_PORT])
		return -ENOMEM;
	return 0;
}

static void xr_xprt_destroy(struct rpc_xprt *xprt)
{
	struct xr_xprt *rx = xr_xprt_of(xprt);

	/* No registry walker sees it any more. */
	xr_reg_del_client(rx->rx_id);
	cancel_delayed_work_sync(&rx->rx_connect_work);
	xr_xprt_close(xprt);
	/* SUNRPC did this already; nothing is left to free then. */
	xr_xprt_bc_destroy(xprt, UINT_MAX);
	xr_xprt_free_addresses(xprt);
	mutex_destroy(&rx->rx_mutex);
	xprt_free(xprt);
	xr_obj_put(XR_OBJ_XPRT);
	module_put(THIS_MODULE);
}

static const struct rpc_xprt_ops xr_xprt_ops = {
	.reserve_xprt		= xprt_reserve_xprt_cong,
	.release_xprt		= xprt_release_xprt_cong,
	.alloc_slot		= xprt_alloc_slot,
	.free_slot		= xprt_free_slot,
	.release_request	= xprt_release_rqst_cong,
	.rpcbind		= rpcb_getport_async,
	.set_port		= xr_xprt_set_port,
	.connect		= xr_xprt_connect,
	.buf_alloc		= xr_xprt_buf_alloc,
	.buf_free		= xr_xprt_buf_free,
	.send_request		= xr_xprt_send_request,
	.wait_for_reply_request	= xprt_wait_for_reply_request_def,
	.timer			= xr_xprt_timer,
	.close			= xr_xprt_close,
	.destroy		= xr_xprt_destroy,
	.print_stats		= xr_xprt_print_stats,
	.bc_setup		= xr_xprt_bc_setup,
	.bc_maxpayload		= xr_xprt_bc_maxpayload,
	.bc_num_slots		= xr_xprt_bc_num_slots,
	.bc_free_rqst		= xr_xprt_bc_free_rqst,
	.bc_destroy		= xr_xprt_bc_destroy,
};

/* The timeouts of a new transport, from its snapshot of the tunables. */
static void xr_xprt_apply_config(struct rpc_xprt *xprt,
				 const struct xr_config *cfg)
{
	unsigned long rmin, rmax;

	rmin = xr_config_ms_to_jiffies(cfg, XR_CFG_RECONNECT_MIN);
	rmax = xr_config_ms_to_jiffies(cfg, XR_CFG_RECONNECT_MAX);
	xprt->reestablish_timeout = rmin;
	xprt->max_reconnect_timeout = max(rmin, rmax);
	xprt->idle_timeout = xr_config_ms_to_jiffies(cfg, XR_CFG_IDLE_TIMEOUT);
}

static struct rpc_xprt *xr_xprt_setup(struct xprt_create *args)
{
	struct sockaddr *sap = args->dstaddr;
	struct rpc_xprt *xprt;
	struct xr_config cfg;
	struct xr_xprt *rx;
	int id;
	u32 reqs;

	if (args->addrlen > sizeof(xprt->addr))
		return ERR_PTR(-EBADF);
	if (sap->sa_family != AF_INET && sap->sa_family != AF_INET6)
		return ERR_PTR(-EAFNOSUPPORT);
	/* A transport over a server's connection is the server's (bc_xprt). */
	if (args->bc_xprt)
		return ERR_PTR(-EINVAL);
	if (!try_module_get(THIS_MODULE))
		return ERR_PTR(-EIO);

	xr_config_snapshot(&cfg);
	reqs = cfg.cf_val[XR_CFG_CLIENT_CREDITS];
	xprt = xprt_alloc(args->net, sizeof(*rx), reqs, reqs);
	if (!xprt) {
		module_put(THIS_MODULE);
		return ERR_PTR(-ENOMEM);
	}
	rx = xr_xprt_of(xprt);
	rx->rx_config = cfg;
	xr_obj_get(XR_OBJ_XPRT);
	mutex_init(&rx->rx_mutex);
	INIT_DELAYED_WORK(&rx->rx_connect_work, xr_xprt_connect_worker);
	rx->rx_max_reqs = reqs;
	xr_hdr_attach(&rx->rx_hdr, rx->rx_hdr_writes,
		      ARRAY_SIZE(rx->rx_hdr_writes), rx->rx_hdr_reads,
		      ARRAY_SIZE(rx->rx_hdr_reads), rx->rx_hdr_segs,
		      ARRAY_SIZE(rx->rx_hdr_segs));

	xprt->timeout = &xr_xprt_timeout;
	xprt->connect_timeout = xprt->timeout->to_initval;
	xr_xprt_apply_config(xprt, &cfg);
	xprt->bind_timeout = XR_XPRT_BIND_TO;
	xprt->prot = IPPROTO_TCP;
	xprt->xprt_class = &xr_xprt_class;
	xprt->ops = &xr_xprt_ops;
	xprt->max_payload =
		xr_frwr_max_payload(cfg.cf_val[XR_CFG_MAX_FRWR_SEGMENTS]);
	memcpy(&xprt->addr, sap, args->addrlen);
	xprt->addrlen = args->addrlen;
	if (rpc_get_port(sap))
		xprt_set_bound(xprt);
	if (xr_xprt_format_addresses(xprt)) {
		xr_xprt_destroy(xprt);
		return ERR_PTR(-ENOMEM);
	}
	id = xr_reg_add_client(rx);
	if (id < 0) {
		xr_xprt_destroy(xprt);
		return ERR_PTR(id);
	}
	rx->rx_id = id;
	return xprt;
}

static struct xprt_class xr_xprt_class = {
	.list		= LIST_HEAD_INIT(xr_xprt_class.list),
	.owner		= THIS_MODULE,
	.setup		= xr_xprt_setup,
	.netid		= { "rdma", "rdma6", "" },
};

/**
 * xr_xprt_init - register the client transport class
 *
 * Drop-in mode (the server class took the in-tree name): the class is
 * "rdma" with ident XPRT_TRANSPORT_RDMA, netids rdma and rdma6, the one
 * NFS mounts with proto=rdma, NFSv4.1 included: the NFS client runs its
 * callback service over any transport with the bc_* ops and sends the
 * callbacks' replies through send_request (the kernels supported have no
 * bc_up op and no "rdma-bc" server class to register). Side-by-side
 * (in-tree rpcrdma loaded) the class is not registered: NFS could not
 * reach it under another ident, and nothing else of ours uses it yet.
 *
 * Return values:
 *   %0: registered, or nothing to register
 *   %-ENOMEM: no memory for the workqueue
 *   %-EEXIST: drop-in, but another "rdma" client transport is registered
 */
int xr_xprt_init(void)
{
	int err;

	xr_xprt_wq = alloc_workqueue("xrpcrdma_xprt",
				     WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	if (!xr_xprt_wq)
		return -ENOMEM;
	if (xr_svc_mode() != XRPCRDMA_MODE_DROPIN)
		return 0;

	xr_xprt_class.ident = XPRT_TRANSPORT_RDMA;
	strscpy(xr_xprt_class.name, "rdma", sizeof(xr_xprt_class.name));
	err = xprt_register_transport(&xr_xprt_class);
	if (err) {
		pr_err("drop-in mode: an rdma client transport is already registered (unload rpcrdma)\n");
		destroy_workqueue(xr_xprt_wq);
		return err;
	}
	xr_xprt_registered = true;
	return 0;
}

/**
 * xr_xprt_exit - unregister the client transport class
 *
 * Transports still open keep the module pinned, so none is left; their
 * connections may still be freeing on the workqueue, which is flushed.
 */
void xr_xprt_exit(void)
{
	if (xr_xprt_registered)
		xprt_unregister_transport(&xr_xprt_class);
	xr_xprt_registered = false;
	destroy_workqueue(xr_xprt_wq);
}
