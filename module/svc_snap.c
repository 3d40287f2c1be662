// SPDX-License-Identifier: GPL-2.0
/*
 * svc_snap.c - what observers see and change of the server transport's
 * listeners and connections (snap.h): the copies netlink formats, the
 * events announced as they come and go or a connection request is
 * refused, the live tunables of a connection, closing a listener by its
 * number, and the server's counters module-wide. Everything is reached
 * through the registry (registry.c) and under its lock; the transports'
 * lifetimes are in svc_transport.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/xarray.h>
#include <linux/sunrpc/addr.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/sunrpc/xprt.h>

#include "core.h"
#include "ep.h"
#include "recvq.h"
#include "registry.h"
#include "sendq.h"
#include "snap.h"
#include "stats.h"
#include "svc.h"

/* The name of server counter @pos, for snapshots. */
static const char *xr_svc_snap_stat_name(unsigned int pos)
{
	return xr_svc_stat_name(pos);
}

/**
 * xr_svc_fill_snap - copy what observers see of a server transport
 * @sx: the transport; the caller holds xr_reg_lock(), which keeps it in
 *	memory
 * @snap: where to copy it
 */
void xr_svc_fill_snap(struct xr_svc_xprt *sx, struct xr_xprt_snap *snap)
{
	struct svc_xprt *xprt = &sx->sx_xprt;
	bool listener = xr_svc_is_listener(sx);
	struct xr_conn_snap *cs = &snap->xs_conn;

	BUILD_BUG_ON(XR_SVC_STAT_COUNT > XR_SNAP_STATS_MAX);
	BUILD_BUG_ON(sizeof(snap->xs_serv) < sizeof(sx->sx_serv_name));
	memset(snap, 0, sizeof(*snap));
	snap->xs_net = xprt->xpt_net;
	snap->xs_id = sx->sx_id;
	snap->xs_role = listener ? XRPCRDMA_TRANSPORT_ROLE_SERVER_LISTENER :
				   XRPCRDMA_TRANSPORT_ROLE_SERVER_CONNECTION;
	snap->xs_state = xr_svc_state(sx);
	snap->xs_reason = xr_ep_close_reason(&sx->sx_ep);
	snap->xs_class = xprt->xpt_class->xcl_name;
	strscpy(snap->xs_serv, sx->sx_serv_name, sizeof(snap->xs_serv));
	memcpy(&snap->xs_local, &xprt->xpt_local, sizeof(snap->xs_local));
	if (listener)
		return;
	memcpy(&snap->xs_peer, &sx->sx_peer, sizeof(snap->xs_peer));
	snap->xs_has_conn = true;
	cs->cs_credits = sx->sx_credits;
	cs->cs_inline_send = sx->sx_inline_send;
	cs->cs_inline_recv = sx->sx_inline_recv;
	cs->cs_peer_inline_send = sx->sx_ep.ep_peer.cp_send_size;
	cs->cs_peer_inline_recv = sx->sx_ep.ep_peer.cp_recv_size;
	xr_sendq_snapshot(&sx->sx_sq, cs);
	xr_recvq_snapshot(&sx->sx_rq, cs);
	snap->xs_nstats = XR_SVC_STAT_COUNT;
	snap->xs_stat_name = xr_svc_snap_stat_name;
	xr_svc_stats_sum(&sx->sx_stats, snap->xs_stats);
}

/*
 * A copy of @sx for an event (kfree() it), or NULL when nobody listens or
 * there is no memory. Caller holds the registry mutex.
 */
static struct xr_xprt_snap *xr_svc_event_snap(struct xr_svc_xprt *sx)
{
	struct xr_xprt_snap *snap;

	if (!xr_nl_listening(sx->sx_xprt.xpt_net))
		return NULL;
	snap = kmalloc(sizeof(*snap), GFP_KERNEL);
	if (snap)
		xr_svc_fill_snap(sx, snap);
	return snap;
}

/**
 * xr_svc_announce - tell event listeners about a server transport
 * @sx: the listener or connection
 * @ev: what happened to it
 *
 * The caller holds the registry mutex. Nothing is sent when nobody
 * listens or there is no memory for the copy.
 */
void xr_svc_announce(struct xr_svc_xprt *sx, enum xr_xprt_event ev)
{
	struct xr_xprt_snap *snap = xr_svc_event_snap(sx);

	if (snap)
		xr_nl_notify_xprt(snap, ev);
	kfree(snap);
}

/**
 * xr_svc_announce_reject - tell event listeners a listener refused a peer
 * @listener: the listener
 * @peer: the address of the client whose connection request it refused
 * @reason: why
 *
 * The caller holds the registry mutex. Nothing is sent when nobody
 * listens or there is no memory for the copy.
 */
void xr_svc_announce_reject(struct xr_svc_xprt *listener,
			    const struct sockaddr *peer,
			    enum xrpcrdma_reject_reason reason)
{
	struct xr_xprt_snap *snap = xr_svc_event_snap(listener);

	if (snap)
		xr_nl_notify_reject(snap, peer, reason);
	kfree(snap);
}

/*
 * The server connection numbered @id, for the config commands; caller
 * holds the mutex. Return: it, ERR_PTR(-ENOENT) when none is, or
 * ERR_PTR(-EINVAL) for a listener (it has no values of its own).
 */
static struct xr_svc_xprt *xr_svc_find_conn(struct net *net, u32 id)
{
	struct xr_svc_xprt *sx = xr_reg_find_svc(net, id);

	if (IS_ERR_OR_NULL(sx))
		return ERR_PTR(-ENOENT);
	if (xr_svc_is_listener(sx))
		return ERR_PTR(-EINVAL);
	return sx;
}

/**
 * xr_svc_config_get - the tunables of one server connection
 * @net: the caller's network namespace (the connection's must be it)
 * @id: its number
 * @cfg: where to copy them (the live ones as they are now)
 *
 * Return: 0; -ENOENT when no server transport has that number; -EINVAL
 * when it is a listener.
 */
int xr_svc_config_get(struct net *net, u32 id, struct xr_config *cfg)
{
	struct xr_svc_xprt *sx;
	int i;

	xr_reg_lock();
	sx = xr_svc_find_conn(net, id);
	if (!IS_ERR(sx))
		for (i = 0; i < XR_CFG_COUNT; i++)
			cfg->cf_val[i] = READ_ONCE(sx->sx_config.cf_val[i]);
	xr_reg_unlock();
	return PTR_ERR_OR_ZERO(sx);
}

/* Change live tunable @cfg of connection @sx to @val (checked). */
static void xr_svc_config_set_live(struct xr_svc_xprt *sx, enum xr_cfg cfg,
				   u32 val)
{
	WRITE_ONCE(sx->sx_config.cf_val[cfg], val);
	if (cfg == XR_CFG_SENDCTX_MAX)
		xr_sendq_set_max(&sx->sx_sq, val);
}

/**
 * xr_svc_config_set - change live tunables of one server connection
 * @net: the caller's network namespace (the connection's must be it)
 * @id: its number
 * @vals: the new values, each checked with xr_config_check() and allowed
 *	to change live (xr_config_def.cd_live)
 * @given: which of @vals to set
 *
 * config-get shows the new values from now on.
 *
 * Return: 0; -ENOENT when no server transport has that number; -EINVAL
 * when it is a listener. Nothing changes on an error.
 */
int xr_svc_config_set(struct net *net, u32 id, const struct xr_config *vals,
		      const bool *given)
{
	struct xr_svc_xprt *sx;
	int i;

	xr_reg_lock();
	sx = xr_svc_find_conn(net, id);
	if (!IS_ERR(sx))
		for (i = 0; i < XR_CFG_COUNT; i++)
			if (given[i])
				xr_svc_config_set_live(sx, i, vals->cf_val[i]);
	xr_reg_unlock();
	return PTR_ERR_OR_ZERO(sx);
}

/**
 * xr_svc_listener_close_id - stop a listener, whoever created it
 * @net: the caller's network namespace (the listener's must be it)
 * @id: the listener's number
 *
 * The close is svc's own deferred close, the one a device removal uses:
 * an svc thread of the listener's service deletes it from the service's
 * list and drops the list's reference (with no thread running, that
 * happens when the service starts threads or shuts down). Connections
 * accepted on it are not affected. Closing a listener that is already
 * closing does nothing.
 *
 * Return: 0; -ENOENT when no transport has that number; -EINVAL when it
 * is not a listener.
 */
int xr_svc_listener_close_id(struct net *net, u32 id)
{
	struct xr_svc_xprt *sx;
	struct svc_xprt *xprt;
	int err = 0;

	xr_reg_lock();
	sx = xr_reg_find_svc(net, id);
	if (IS_ERR(sx)) {
		err = PTR_ERR(sx);
		goto out;
	}
	if (!sx || !xr_svc_is_listener(sx)) {
		err = -EINVAL;
		goto out;
	}
	xprt = &sx->sx_xprt;
	pr_info("closing listener %u (%s %pISpc)\n",
		sx->sx_id, sx->sx_serv_name, &xprt->xpt_local);
	/* No reference left: svc is already freeing it. */
	if (kref_get_unless_zero(&xprt->xpt_ref)) {
		svc_xprt_deferred_close(xprt);
		svc_xprt_put(xprt);
	}
out:
	xr_reg_unlock();
	return err;
}

static void xr_svc_add_stats(struct xr_svc_xprt *sx, void *sum)
{
	xr_svc_stats_sum(&sx->sx_stats, sum);
}

/**
 * xr_svc_totals - the server's counters, module-wide
 * @sum: %XR_SVC_STAT_COUNT values, set to the counts of every connection
 *	since the module was loaded, those gone and those still here
 */
void xr_svc_totals(u64 *sum)
{
	memset(sum, 0, XR_SVC_STAT_COUNT * sizeof(*sum));
	xr_reg_lock();
	xr_svc_stats_retired(sum);
	xr_reg_walk_svc(xr_svc_add_stats, sum);
	xr_reg_unlock();
}
