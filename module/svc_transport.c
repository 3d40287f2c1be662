// SPDX-License-Identifier: GPL-2.0
/*
 * svc_transport.c - the server transport's SUNRPC face: the svc_xprt_class
 * nfsd listens on, listener and connection lifetimes, and the svc_xprt_ops
 * that are neither receive (svc_recv.c) nor send (svc_send.c). What
 * observers see and change of them (snapshots, events, live tunables) is
 * in svc_snap.c.
 *
 * Lifetime of a connection: a connection request arrives on the
 * listener's endpoint (connection manager context) and is queued; an svc
 * thread calls xpo_accept, which creates the queue pair, initialises the
 * svc_xprt, posts the Receives and accepts. From then on the svc_xprt's
 * reference count governs it: when the last reference goes, xpo_free
 * queues a work item that drains the queue pair (every posted work request
 * completes) and only then frees anything.
 *
 * Listeners and connections are numbered in the registry (registry.c)
 * from svc_xprt_init() until before anything of them is freed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <net/net_namespace.h>
#include <linux/sunrpc/addr.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/sunrpc/xprt.h>

#include "core.h"
#include "ep.h"
#include "proto.h"
#include "recvq.h"
#include "registry.h"
#include "sendq.h"
#include "snap.h"
#include "stats.h"
#include "svc.h"
#include "trace_svc.h"

/* Large payloads move in chunks; nfsd clamps this further by memory. */
#define XR_SVC_MAX_PAYLOAD	RPCSVC_MAXPAYLOAD

/*
 * RDMA Read/Write contexts one call may hold at once: one per remote
 * segment of the set it moves, at most a Reply chunk's segments
 * (svc_recv.c's call limits) each split in two around the payload (the
 * Read chunk's segments and a Write chunk's are fewer).
 */
#define XR_SVC_RW_CTXS_PER_CALL	(2 * 16)

/* Connection requests that may wait for an svc thread to accept them. */
#define XR_SVC_LISTEN_BACKLOG	16

static char *mode = "auto";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "auto, dropin or sidebyside (see the admin guide)");

/* Bits of xr_svc_xprt.sx_flags */
enum {
	XR_SX_INITED,		/* svc_xprt_init() done: svc owns lifetime */
	XR_SX_DISCONNECTED,	/* the endpoint reported a disconnect */
	XR_SX_ESTABLISHED,	/* connection: up, and announced as such */
	XR_SX_ACCEPTED,		/* connection: our accept went out */
};

static struct svc_xprt_class xr_svc_class;
static struct workqueue_struct *xr_svc_wq;

static const struct xr_ep_ops xr_svc_listener_ep_ops;
static const struct xr_ep_ops xr_svc_conn_ep_ops;

static struct xr_svc_xprt *xr_svc_xprt_alloc(void)
{
	struct xr_svc_xprt *sx;

	sx = kzalloc(sizeof(*sx), GFP_KERNEL);
	if (!sx)
		return NULL;
	spin_lock_init(&sx->sx_lock);
	xr_sendq_preinit(&sx->sx_sq);
	INIT_LIST_HEAD(&sx->sx_accept_q);
	INIT_LIST_HEAD(&sx->sx_accept_entry);
	xr_obj_get(XR_OBJ_SVC_XPRT);
	return sx;
}

static void xr_svc_xprt_free(struct xr_svc_xprt *sx)
{
	if (sx->sx_net)
		put_net(sx->sx_net);
	kfree(sx);
	xr_obj_put(XR_OBJ_SVC_XPRT);
}

static inline struct xr_svc_xprt *xr_svc_of(struct svc_xprt *xprt)
{
	return container_of(xprt, struct xr_svc_xprt, sx_xprt);
}

/*
 * Give @sx its number. The caller holds the registry lock and initialises
 * the svc_xprt before dropping it; @serv is alive (svc is calling us).
 */
static int xr_svc_registry_add(struct xr_svc_xprt *sx, struct svc_serv *serv)
{
	u32 id;
	int err;

	err = xr_reg_add_svc(sx, &id);
	if (err)
		return err;
	sx->sx_id = id;
	sx->sx_ep.ep_owner_id = id;
	strscpy(sx->sx_serv_name, serv->sv_name ? serv->sv_name : "",
		sizeof(sx->sx_serv_name));
	return 0;
}

/* Before anything of @sx is freed; its counts go to the module's totals. */
static void xr_svc_registry_del(struct xr_svc_xprt *sx)
{
	if (!sx->sx_id)
		return;
	xr_reg_lock();
	xr_reg_del_svc(sx->sx_id);
	xr_svc_stats_retire(&sx->sx_stats);
	if (xr_svc_is_listener(sx))
		xr_svc_announce(sx, XR_EV_LISTENER_DEL);
	/*
	 * Also one that failed before the connection manager said it was
	 * established: the peer may send at once, and a message that fails
	 * (too long for our Receive) can close it first. Why it went is
	 * worth telling, announced or not.
	 */
	else if (test_bit(XR_SX_ESTABLISHED, &sx->sx_flags) ||
		 test_bit(XR_SX_ACCEPTED, &sx->sx_flags))
		xr_svc_announce(sx, XR_EV_DISCONNECT);
	sx->sx_id = 0;
	xr_reg_unlock();
}

/**
 * xr_svc_is_listener - whether @sx listens (else it is a connection)
 * @sx: a listed transport
 *
 * Return: true for a listener.
 */
bool xr_svc_is_listener(struct xr_svc_xprt *sx)
{
	return test_bit(XPT_LISTENER, &sx->sx_xprt.xpt_flags);
}

/**
 * xr_svc_state - what a listed transport is doing
 * @sx: the transport
 *
 * Return: %XRPCRDMA_TRANSPORT_STATE_CLOSING once svc or the connection
 * manager started closing it, else listening or connected.
 */
enum xrpcrdma_transport_state xr_svc_state(struct xr_svc_xprt *sx)
{
	if (svc_xprt_is_dead(&sx->sx_xprt) ||
	    test_bit(XR_SX_DISCONNECTED, &sx->sx_flags))
		return XRPCRDMA_TRANSPORT_STATE_CLOSING;
	return xr_svc_is_listener(sx) ? XRPCRDMA_TRANSPORT_STATE_LISTENING :
					XRPCRDMA_TRANSPORT_STATE_CONNECTED;
}

/**
 * xr_svc_of_bc - the connection nfsd wants to send callbacks on
 * @xprt: the svc_xprt nfsd passed as bc_xprt, or NULL
 *
 * Return: the connection when @xprt is one of ours (not a listener),
 * else NULL.
 */
struct xr_svc_xprt *xr_svc_of_bc(struct svc_xprt *xprt)
{
	if (!xprt || xprt->xpt_class != &xr_svc_class ||
	    test_bit(XPT_LISTENER, &xprt->xpt_flags))
		return NULL;
	return xr_svc_of(xprt);
}

/**
 * xr_svc_close - close a server connection soon, from any context
 * @sx: the connection
 *
 * Wakes senders waiting for send queue slots and asks svc to close the
 * transport. Before xpo_accept has set the transport up, only records the
 * disconnect: xpo_accept closes it then.
 */
void xr_svc_close(struct xr_svc_xprt *sx)
{
	set_bit(XR_SX_DISCONNECTED, &sx->sx_flags);
	/* Pairs with the barrier in xr_svc_accept(): one side sees both. */
	smp_mb__after_atomic();
	if (!test_bit(XR_SX_INITED, &sx->sx_flags))
		return;
	xr_sendq_close(&sx->sx_sq);
	svc_xprt_deferred_close(&sx->sx_xprt);
}

/* Owner callbacks of the send and receive contexts. */
static void xr_svc_owner_close(void *owner)
{
	xr_svc_close(owner);
}

static void xr_svc_owner_get(void *owner)
{
	svc_xprt_get(&((struct xr_svc_xprt *)owner)->sx_xprt);
}

static void xr_svc_owner_put(void *owner)
{
	svc_xprt_put(&((struct xr_svc_xprt *)owner)->sx_xprt);
}

static bool xr_svc_owner_tryget(void *owner)
{
	return kref_get_unless_zero(&((struct xr_svc_xprt *)owner)->sx_xprt.xpt_ref);
}

static void xr_svc_owner_data_ready(void *owner)
{
	struct svc_xprt *xprt = &((struct xr_svc_xprt *)owner)->sx_xprt;

	set_bit(XPT_DATA, &xprt->xpt_flags);
	svc_xprt_enqueue(xprt);
}

/*
 * Send queue slots came back after none were free. A call that arrived
 * meanwhile, or a deferred one revisited, found no write space
 * (xr_svc_has_wspace()) and was left waiting, and svc looks again only
 * when something enqueues the transport: without this, a client at its
 * credit limit would wait for its RPC timeout.
 */
static void xr_svc_owner_space(void *owner)
{
	struct xr_svc_xprt *sx = owner;
	unsigned long flags = READ_ONCE(sx->sx_xprt.xpt_flags);

	if (!(flags & (BIT(XPT_DATA) | BIT(XPT_DEFERRED))) ||
	    !xr_svc_owner_tryget(sx))
		return;
	svc_xprt_enqueue(&sx->sx_xprt);
	svc_xprt_put(&sx->sx_xprt);
}

/*
 * Refuse a connection request: count it on the listener and say why.
 * Returning an error from the handler makes the connection manager
 * reject the request and destroy its ID.
 */
static int xr_svc_reject(struct xr_svc_xprt *listener, struct rdma_cm_id *id,
			 enum xrpcrdma_reject_reason reason, int err)
{
	xr_svc_count(listener, XR_SVC_STAT_CONNECTS_REJECTED, 1);
	trace_xrpcrdma_reject(listener->sx_id,
			      (struct sockaddr *)&id->route.addr.dst_addr,
			      reason, err);
	xr_reg_lock();
	/* Not yet listed (svc is still creating it): counted, not announced. */
	if (listener->sx_id)
		xr_svc_announce_reject(listener,
				       (struct sockaddr *)&id->route.addr.dst_addr,
				       reason);
	xr_reg_unlock();
	return err;
}

/* Listener endpoint: a client asks to connect. Connection manager context. */
static int xr_svc_connect_request(struct xr_ep *lep, struct rdma_cm_id *id,
				  const struct xr_cm_pdata *peer, u8 peer_rd_atom)
{
	struct xr_svc_xprt *listener = container_of(lep, struct xr_svc_xprt,
						    sx_ep);
	struct xr_svc_xprt *sx;

	/* An administrator keeps new connections off a disabled device. */
	if (!xr_device_accepts(id->device))
		return xr_svc_reject(listener, id,
				     XRPCRDMA_REJECT_REASON_DEVICE_DISABLED,
				     -EACCES);
	/*
	 * Calls with a Read chunk (an NFS WRITE) need RDMA Reads from the
	 * client: one that answers none could connect, but not write.
	 */
	if (!peer_rd_atom)
		return xr_svc_reject(listener, id,
				     XRPCRDMA_REJECT_REASON_NO_RDMA_READ,
				     -EPROTO);
	sx = xr_svc_xprt_alloc();
	if (!sx)
		return -ENOMEM;
	xr_ep_adopt(&sx->sx_ep, &xr_svc_conn_ep_ops, id, peer, peer_rd_atom);

	spin_lock(&listener->sx_lock);
	list_add_tail(&sx->sx_accept_entry, &listener->sx_accept_q);
	spin_unlock(&listener->sx_lock);
	/*
	 * The listener listens before xr_svc_create() has set its svc_xprt
	 * up (which clears its flags), and nothing may touch that before:
	 * create looks at the queue once it has. Pairs with the barrier
	 * there: one side sees the other.
	 */
	smp_mb();
	if (!test_bit(XR_SX_INITED, &listener->sx_flags))
		return 0;
	set_bit(XPT_CONN, &listener->sx_xprt.xpt_flags);
	svc_xprt_enqueue(&listener->sx_xprt);
	return 0;
}

/*
 * The device under a bound listener went away (or it could not listen
 * again after an address change). The removal waits until the listener's
 * ID is destroyed, so the listener is closed at once, not left to a
 * thread: nfsd may run none (its listeners are set before it starts),
 * and svc_xprt_close() then deletes it here. A thread holding it closes
 * it when it lets go.
 */
static void xr_svc_listener_disconnected(struct xr_ep *ep)
{
	struct xr_svc_xprt *listener = container_of(ep, struct xr_svc_xprt,
						    sx_ep);

	set_bit(XR_SX_DISCONNECTED, &listener->sx_flags);
	/* As for a request: before the svc_xprt is set up, create closes it. */
	smp_mb__after_atomic();
	if (test_bit(XR_SX_INITED, &listener->sx_flags))
		svc_xprt_close(&listener->sx_xprt);
}

/* Announced only while listed: a late event after the free is dropped. */
static void xr_svc_established(struct xr_ep *ep)
{
	struct xr_svc_xprt *sx = container_of(ep, struct xr_svc_xprt, sx_ep);

	xr_reg_lock();
	if (sx->sx_id) {
		set_bit(XR_SX_ESTABLISHED, &sx->sx_flags);
		xr_svc_announce(sx, XR_EV_CONNECT);
	}
	xr_reg_unlock();
}

static void xr_svc_disconnected(struct xr_ep *ep)
{
	xr_svc_close(container_of(ep, struct xr_svc_xprt, sx_ep));
}

static const struct xr_ep_ops xr_svc_listener_ep_ops = {
	.eo_connect_request	= xr_svc_connect_request,
	.eo_disconnected	= xr_svc_listener_disconnected,
};

static const struct xr_ep_ops xr_svc_conn_ep_ops = {
	.eo_established		= xr_svc_established,
	.eo_disconnected	= xr_svc_disconnected,
	.eo_qp_fatal		= xr_svc_disconnected,
};

static void xr_svc_free_work(struct work_struct *work);
static void xr_svc_conn_destroy(struct xr_svc_xprt *sx);

/* Refuse the connection requests a listener has queued; it is gone. */
static void xr_svc_listener_drop_queued(struct xr_svc_xprt *listener)
{
	struct xr_svc_xprt *sx, *next;

	list_for_each_entry_safe(sx, next, &listener->sx_accept_q,
				 sx_accept_entry) {
		list_del(&sx->sx_accept_entry);
		xr_svc_conn_destroy(sx);
	}
}

/*
 * The svc_xprt of a new listener is set up (and busy until svc lets it
 * go): what its endpoint reported before that is acted on now.
 */
static void xr_svc_listener_inited(struct xr_svc_xprt *sx)
{
	bool queued;

	set_bit(XR_SX_INITED, &sx->sx_flags);
	/* Pairs with xr_svc_connect_request(), _listener_disconnected(). */
	smp_mb__after_atomic();
	spin_lock(&sx->sx_lock);
	queued = !list_empty(&sx->sx_accept_q);
	spin_unlock(&sx->sx_lock);
	if (queued)
		set_bit(XPT_CONN, &sx->sx_xprt.xpt_flags);
	if (test_bit(XR_SX_DISCONNECTED, &sx->sx_flags))
		svc_xprt_deferred_close(&sx->sx_xprt);
}

static struct svc_xprt *xr_svc_create(struct svc_serv *serv, struct net *net,
				      struct sockaddr *sa, int salen,
				      int flags)
{
	struct sockaddr_storage local;
	struct xr_svc_xprt *sx;
	int err;

	if (sa->sa_family != AF_INET && sa->sa_family != AF_INET6)
		return ERR_PTR(-EAFNOSUPPORT);
	sx = xr_svc_xprt_alloc();
	if (!sx)
		return ERR_PTR(-ENOMEM);
	INIT_WORK(&sx->sx_free_work, xr_svc_free_work);
	err = xr_ep_listen(&sx->sx_ep, &xr_svc_listener_ep_ops, net, sa,
			   XR_SVC_LISTEN_BACKLOG);
	if (err) {
		xr_svc_xprt_free(sx);
		return ERR_PTR(err);
	}

	/* Not under the registry lock: an ID replacement waits for handlers. */
	xr_ep_listen_local(&sx->sx_ep, &local);

	xr_reg_lock();
	err = xr_svc_registry_add(sx, serv);
	if (err) {
		xr_reg_unlock();
		/* No request is queued once the listening ID is gone. */
		xr_ep_destroy(&sx->sx_ep);
		xr_svc_listener_drop_queued(sx);
		xr_svc_xprt_free(sx);
		return ERR_PTR(err);
	}
	svc_xprt_init(net, &xr_svc_class, &sx->sx_xprt, serv);
	sx->sx_net = get_net(net);
	set_bit(XPT_LISTENER, &sx->sx_xprt.xpt_flags);
	svc_xprt_set_local(&sx->sx_xprt, (struct sockaddr *)&local, salen);
	xr_svc_listener_inited(sx);
	xr_svc_announce(sx, XR_EV_LISTENER_ADD);
	xr_reg_unlock();
	return &sx->sx_xprt;
}

/*
 * Resources of a connection, before svc knows it, sized by the tunables
 * of the moment (a snapshot, see config.c). Besides the credits, the
 * receive queue holds the backchannel's replies: it is never shallower
 * than both together, whatever rq-depth says.
 */
/*
 * RDMA Read/Write contexts a connection may have outstanding. A call's
 * Reads hold theirs only while an svc thread runs them (xr_rw_run()
 * waits), so no more calls hold Read contexts at once than the service
 * has threads, nor than the credits let in. Sizing by the credits alone
 * would grow every connection's send and completion queues (and, where
 * rdma_rw registers memory, its pool of memory regions) by an order of
 * magnitude for calls that cannot run. Should the service gain threads
 * later and the pool run dry, the call's connection is closed and the
 * client's retransmission finds a new one, sized anew. A reply's Writes
 * stay until its Send completes (svc_send.c), after the thread has
 * moved on; rdma_rw registers no memory for Writes (unless ib_core's
 * debugging parameter force_mr makes it: then a pool run dry closes the
 * connection as above), and the send queue slots they take are
 * accounted like any (xr_sendq_reserve() waits).
 */
static u32 xr_svc_rw_ctxs(const struct svc_serv *serv, u32 credits)
{
	u32 calls = min_t(u32, credits, max_t(u32, serv->sv_nrthreads, 1));

	return calls * XR_SVC_RW_CTXS_PER_CALL;
}

/*
 * Our Receive buffers need to hold what the client will send inline: no
 * more than the Send size its private data gives (RFC 8797), and no
 * more than inline-recv. Clients have sent 4096 bytes without saying
 * so (the Linux client before it sent private data), so a smaller or
 * missing Send size still gets that much.
 */
#define XR_SVC_RECV_FLOOR	4096

static u32 xr_svc_recv_size(u32 inline_recv, const struct xr_cm_pdata *peer)
{
	return min(inline_recv, max_t(u32, peer->cp_send_size,
				      XR_SVC_RECV_FLOOR));
}

static int xr_svc_conn_setup(struct xr_svc_xprt *sx,
			     const struct svc_serv *serv)
{
	const u32 *cfg = sx->sx_config.cf_val;
	u32 credits, rq_depth;
	int err;

	xr_config_snapshot(&sx->sx_config);
	credits = cfg[XR_CFG_CREDITS];
	rq_depth = max(cfg[XR_CFG_RQ_DEPTH], credits + XR_BC_MAX_REQUESTS);
	err = xr_ep_create_qp(&sx->sx_ep, cfg[XR_CFG_SQ_DEPTH], rq_depth,
			      xr_svc_rw_ctxs(serv, credits));
	if (err)
		return err;
	/* No more than the device let the receive queue hold. */
	if (sx->sx_ep.ep_rq_depth <= XR_BC_MAX_REQUESTS)
		return -ENOSPC;
	sx->sx_credits = min(credits,
			     sx->sx_ep.ep_rq_depth - XR_BC_MAX_REQUESTS);
	sx->sx_inline_recv = xr_svc_recv_size(cfg[XR_CFG_INLINE_RECV],
					      &sx->sx_ep.ep_peer);
	/*
	 * No larger than we advertise: a client may size its Receives by
	 * our Send Size (the in-tree one does).
	 */
	sx->sx_inline_send = min(xr_cm_size_carried(cfg[XR_CFG_INLINE_SEND]),
				 sx->sx_ep.ep_peer.cp_recv_size);
	/* Send With Invalidate: the client allows it, our device has it. */
	sx->sx_remote_inv = (sx->sx_ep.ep_peer.cp_flags & XR_CM_SWI_OK) &&
			    xr_ep_has_frwr(&sx->sx_ep);

	xr_sendq_init(&sx->sx_sq, &sx->sx_ep, sx->sx_inline_send);
	sx->sx_sq.sq_max = cfg[XR_CFG_SENDCTX_MAX];
	sx->sx_sq.sq_owner = sx;
	sx->sx_sq.sq_on_close = xr_svc_owner_close;
	sx->sx_sq.sq_on_space = xr_svc_owner_space;
	sx->sx_sq.sq_get = xr_svc_owner_get;
	sx->sx_sq.sq_put = xr_svc_owner_put;
	sx->sx_sq.sq_tryget = xr_svc_owner_tryget;
	xr_sendq_set_signal_every(&sx->sx_sq,
				  xr_sendq_signal_every(cfg[XR_CFG_SIGNAL_INTERVAL],
							sx->sx_ep.ep_sq_depth));
	xr_sendq_set_timeout(&sx->sx_sq, cfg[XR_CFG_SEND_TIMEOUT]);
	sx->sx_sq.sq_count_signaled =
		&sx->sx_stats.ss_count[XR_SVC_STAT_SENDS_SIGNALED];
	sx->sx_sq.sq_count_starves =
		&sx->sx_stats.ss_count[XR_SVC_STAT_SQ_STARVES];
	sx->sx_sq.sq_count_ctx_waits =
		&sx->sx_stats.ss_count[XR_SVC_STAT_SENDCTX_WAITS];
	sx->sx_sq.sq_count_errors =
		&sx->sx_stats.ss_count[XR_SVC_STAT_SEND_ERRORS];

	xr_recvq_init(&sx->sx_rq, &sx->sx_ep, sx->sx_inline_recv);
	sx->sx_rq.rcvq_count_errors =
		&sx->sx_stats.ss_count[XR_SVC_STAT_RECV_ERRORS];
	sx->sx_rq.rcvq_owner = sx;
	sx->sx_rq.rcvq_on_ready = xr_svc_owner_data_ready;
	sx->sx_rq.rcvq_on_close = xr_svc_owner_close;
	return 0;
}

/* Contexts are unmapped after the drain and before the PD goes. */
static void xr_svc_conn_destroy(struct xr_svc_xprt *sx)
{
	xr_ep_drain(&sx->sx_ep);
	/* After the drain: the last completions are counted. */
	xr_svc_registry_del(sx);
	if (sx->sx_sq.sq_ep)
		xr_sendq_destroy(&sx->sx_sq);
	if (sx->sx_rq.rcvq_ep)
		xr_recvq_destroy(&sx->sx_rq);
	xr_ep_destroy(&sx->sx_ep);
	xr_svc_xprt_free(sx);
}

/*
 * Start the connection svc now owns: post the Receives that back the
 * credits we grant and the backchannel replies, then accept. On failure the transport is closed and
 * svc frees it through the usual path.
 */
static void xr_svc_conn_start(struct xr_svc_xprt *sx)
{
	struct xr_cm_pdata ours = {
		.cp_send_size	= sx->sx_inline_send,
		.cp_recv_size	= sx->sx_inline_recv,
	};
	int err;

	err = xr_recvq_post(&sx->sx_rq, sx->sx_credits + XR_BC_MAX_REQUESTS);
	if (!err)
		err = xr_ep_accept(&sx->sx_ep, &ours);
	if (!err)
		set_bit(XR_SX_ACCEPTED, &sx->sx_flags);
	if (err) {
		pr_warn_ratelimited("accept failed: %d\n", err);
		xr_svc_close(sx);
	}
}

/*
 * The peer's address, as svc sees it and as netlink shows it. svc gets
 * it with port 0: the peer's CM port is an ephemeral one that changes
 * with every reconnect, and nfsd keys its duplicate reply cache (and
 * records NFSv4 clients) by the address svc gives it. With the real
 * port, a call retransmitted on a new connection would miss the cache
 * and a non-idempotent one would run twice. The in-tree server records
 * port 0 too. Netlink keeps the real port in sx_peer.
 */
static void xr_svc_set_peer(struct xr_svc_xprt *sx, struct sockaddr *sa)
{
	size_t len = rdma_addr_size(sa);

	memcpy(&sx->sx_peer, sa, min(len, sizeof(sx->sx_peer)));
	svc_xprt_set_remote(&sx->sx_xprt, sa, len);
	rpc_set_port((struct sockaddr *)&sx->sx_xprt.xpt_remote, 0);
}

static struct svc_xprt *xr_svc_accept(struct svc_xprt *xprt)
{
	struct xr_svc_xprt *listener = xr_svc_of(xprt);
	struct rdma_cm_id *id;
	struct xr_svc_xprt *sx;

	spin_lock(&listener->sx_lock);
	sx = list_first_entry_or_null(&listener->sx_accept_q,
				      struct xr_svc_xprt, sx_accept_entry);
	if (sx)
		list_del_init(&sx->sx_accept_entry);
	else
		clear_bit(XPT_CONN, &xprt->xpt_flags);
	spin_unlock(&listener->sx_lock);
	if (!sx)
		return NULL;

	if (xr_svc_conn_setup(sx, xprt->xpt_server))
		goto out_reject;
	xr_reg_lock();
	if (xr_svc_registry_add(sx, xprt->xpt_server)) {
		xr_reg_unlock();
		goto out_reject;
	}

	INIT_WORK(&sx->sx_free_work, xr_svc_free_work);
	svc_xprt_init(xprt->xpt_net, &xr_svc_class, &sx->sx_xprt,
		      xprt->xpt_server);
	sx->sx_net = get_net(xprt->xpt_net);
	id = sx->sx_ep.ep_id;
	xr_svc_set_peer(sx, (struct sockaddr *)&id->route.addr.dst_addr);
	svc_xprt_set_local(&sx->sx_xprt,
			   (struct sockaddr *)&id->route.addr.src_addr,
			   rdma_addr_size((struct sockaddr *)&id->route.addr.src_addr));
	set_bit(XPT_CONG_CTRL, &sx->sx_xprt.xpt_flags);
	xr_reg_unlock();
	set_bit(XR_SX_INITED, &sx->sx_flags);
	/* Pairs with the barrier in xr_svc_close(): one side sees both. */
	smp_mb__after_atomic();
	if (test_bit(XR_SX_DISCONNECTED, &sx->sx_flags))
		xr_svc_close(sx);
	else
		xr_svc_conn_start(sx);
	return &sx->sx_xprt;

out_reject:
	/* Destroying the unaccepted ID rejects the connection. */
	xr_svc_conn_destroy(sx);
	return NULL;
}

static int xr_svc_has_wspace(struct svc_xprt *xprt)
{
	/*
	 * Whoever enqueues has just set XPT_DATA or XPT_DEFERRED, or
	 * cleared XPT_BUSY: either xr_svc_owner_space() sees that, or the
	 * slots it was called for are seen here.
	 */
	smp_mb();
	return atomic_read(&xr_svc_of(xprt)->sx_sq.sq_avail) > 0;
}

static void xr_svc_detach(struct svc_xprt *xprt)
{
	struct xr_svc_xprt *sx = xr_svc_of(xprt);

	/* svc closes it; unless something else closed it first. */
	xr_ep_set_close_reason(&sx->sx_ep, XRPCRDMA_CLOSE_REASON_LOCAL);
	if (test_bit(XPT_LISTENER, &xprt->xpt_flags))
		return;
	xr_svc_bc_detach(sx);
	xr_sendq_close(&sx->sx_sq);
	xr_ep_disconnect(&sx->sx_ep);
}

static void xr_svc_listener_destroy(struct xr_svc_xprt *listener)
{
	xr_svc_registry_del(listener);
	/* No connection request is queued once the listener ID is gone. */
	xr_ep_destroy(&listener->sx_ep);
	xr_svc_listener_drop_queued(listener);
	xr_svc_xprt_free(listener);
}

static void xr_svc_free_work(struct work_struct *work)
{
	struct xr_svc_xprt *sx = container_of(work, struct xr_svc_xprt,
					      sx_free_work);

	if (test_bit(XPT_LISTENER, &sx->sx_xprt.xpt_flags))
		xr_svc_listener_destroy(sx);
	else
		xr_svc_conn_destroy(sx);
	module_put(THIS_MODULE);
}

/*
 * The last reference is gone, possibly in a context that must not sleep.
 * The module stays pinned until the work has run.
 */
static void xr_svc_free(struct svc_xprt *xprt)
{
	__module_get(THIS_MODULE);
	queue_work(xr_svc_wq, &xr_svc_of(xprt)->sx_free_work);
}

static void xr_svc_kill_temp_xprt(struct svc_xprt *xprt)
{
}

#if XR_HAVE_SVC_SECURE_PORT
/* RDMA connections come from the kernel: as trusted as a privileged port. */
static void xr_svc_secure_port(struct svc_rqst *rqstp)
{
	set_bit(RQ_SECURE, &rqstp->rq_flags);
}

static void xr_svc_start_tls(struct svc_xprt *xprt)
{
}
#endif

static const struct svc_xprt_ops xr_svc_ops = {
	.xpo_create		= xr_svc_create,
	.xpo_accept		= xr_svc_accept,
	.xpo_has_wspace		= xr_svc_has_wspace,
	.xpo_recvfrom		= xr_svc_recvfrom,
	.xpo_sendto		= xr_svc_sendto,
	.xpo_result_payload	= xr_svc_result_payload,
	.xpo_release_ctxt	= xr_svc_release_ctxt,
	.xpo_detach		= xr_svc_detach,
	.xpo_free		= xr_svc_free,
	.xpo_kill_temp_xprt	= xr_svc_kill_temp_xprt,
	XR_SVC_XPRT_OPS_COMPAT
};

static struct svc_xprt_class xr_svc_class = {
	.xcl_owner		= THIS_MODULE,
	.xcl_ops		= &xr_svc_ops,
	.xcl_max_payload	= XR_SVC_MAX_PAYLOAD,
};

static int xr_svc_register(void)
{
	bool auto_mode = !strcmp(mode, "auto");
	int err;

	if (auto_mode || !strcmp(mode, "dropin")) {
		xr_svc_class.xcl_name = "rdma";
		xr_svc_class.xcl_ident = XPRT_TRANSPORT_RDMA;
		err = svc_reg_xprt_class(&xr_svc_class);
		if (!err || !auto_mode) {
			if (err)
				pr_err("drop-in mode: an rdma transport is already registered (unload rpcrdma)\n");
			return err;
		}
	} else if (strcmp(mode, "sidebyside")) {
		pr_err("mode=%s: use auto, dropin or sidebyside\n",
		       mode);
		return -EINVAL;
	}
	xr_svc_class.xcl_name = "xrdma";
	xr_svc_class.xcl_ident = XR_XPRT_TRANSPORT_SIDEBYSIDE;
	return svc_reg_xprt_class(&xr_svc_class);
}

/**
 * xr_svc_init - register the server transport class
 *
 * In drop-in mode the class is "rdma" with the in-tree transport's ident,
 * so nfsd's "rdma PORT" listeners use xrpcrdma; side-by-side it is "xrdma"
 * with an ident of its own. "auto" is drop-in unless the in-tree server
 * transport is already registered.
 *
 * Each class comes with its NFSv4.1 backchannel class (svc_backchannel.c).
 *
 * Return values:
 *   %0: registered
 *   %-ENOMEM: no memory for the workqueue
 *   %-EINVAL: unknown mode
 *   %-EEXIST: drop-in asked for, but the in-tree transport is registered
 */
int xr_svc_init(void)
{
	int err;

	xr_svc_wq = alloc_workqueue("xrpcrdma_svc", WQ_UNBOUND, 0);
	if (!xr_svc_wq)
		return -ENOMEM;
	err = xr_svc_register();
	if (err)
		goto out_wq;
	err = xr_svc_bc_init(xr_svc_class.xcl_ident);
	if (err) {
		pr_err("backchannel class for ident %d: %d\n",
		       xr_svc_class.xcl_ident, err);
		goto out_class;
	}
	return 0;

out_class:
	svc_unreg_xprt_class(&xr_svc_class);
out_wq:
	destroy_workqueue(xr_svc_wq);
	return err;
}

/**
 * xr_svc_exit - unregister the server transport class
 *
 * Transports still open keep the module pinned, so none is left here.
 */
void xr_svc_exit(void)
{
	xr_svc_bc_exit();
	svc_unreg_xprt_class(&xr_svc_class);
	destroy_workqueue(xr_svc_wq);
	xr_reg_exit();
}

/**
 * xr_svc_mode - the mode the server transport runs in
 *
 * Return: %XRPCRDMA_MODE_DROPIN or %XRPCRDMA_MODE_SIDEBYSIDE.
 */
enum xrpcrdma_mode xr_svc_mode(void)
{
	return xr_svc_class.xcl_ident == XPRT_TRANSPORT_RDMA ?
		XRPCRDMA_MODE_DROPIN : XRPCRDMA_MODE_SIDEBYSIDE;
}
