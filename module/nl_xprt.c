// SPDX-License-Identifier: GPL-2.0
/*
 * nl_xprt.c - the transport objects of the xrpcrdma family: transport-get,
 * listener-get, listener-del, stats-get, and the events of transports
 * (listeners, connections of both roles, refused connection requests,
 * completion errors). Transports are shown from the copies their owners
 * make (struct xr_xprt_snap): this file reads no transport itself. A
 * caller sees, closes and tunes only the transports of its own network
 * namespace, as it hears only their events; the module-wide counters of
 * stats-get are the one exception.
 */
#include <linux/slab.h>
#include <rdma/rdma_cm.h>

#include "nl.h"

/* What of a transport a message shows, besides the base attributes. */
enum {
	XR_NL_XPRT_PEER		= BIT(0),	/* the peer's address */
	XR_NL_XPRT_NEGOTIATED	= BIT(1),	/* credits and inline sizes */
	XR_NL_XPRT_QUEUES	= BIT(2),	/* queue depths and contexts */
	XR_NL_XPRT_REASON	= BIT(3),	/* why it closes */
	XR_NL_XPRT_STATS	= BIT(4),	/* its counters */
};

/* transport-get shows everything but the reason. */
#define XR_NL_XPRT_ALL	(XR_NL_XPRT_PEER | XR_NL_XPRT_NEGOTIATED | \
			 XR_NL_XPRT_QUEUES | XR_NL_XPRT_STATS)

/* Counters named by @name(pos), as @type nests. */
static int xr_nl_put_stats(struct sk_buff *msg, int type, const u64 *vals,
			   unsigned int n, const char *(*name)(unsigned int))
{
	struct nlattr *nest;
	unsigned int pos;

	for (pos = 0; pos < n; pos++) {
		nest = nla_nest_start(msg, type);
		if (!nest)
			return -EMSGSIZE;
		if (nla_put_string(msg, XRPCRDMA_A_STAT_NAME, name(pos)) ||
		    nla_put_u64_64bit(msg, XRPCRDMA_A_STAT_VALUE, vals[pos],
				      XRPCRDMA_A_STAT_PAD)) {
			nla_nest_cancel(msg, nest);
			return -EMSGSIZE;
		}
		nla_nest_end(msg, nest);
	}
	return 0;
}

/* Number, role, state, class, service and local address. */
static int xr_nl_put_xprt_base(struct sk_buff *msg,
			       const struct xr_xprt_snap *xs)
{
	if (nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_ID, xs->xs_id) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_ROLE, xs->xs_role) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_STATE, xs->xs_state) ||
	    nla_put_string(msg, XRPCRDMA_A_TRANSPORT_CLASS, xs->xs_class) ||
	    (xs->xs_serv[0] &&
	     nla_put_string(msg, XRPCRDMA_A_TRANSPORT_SERV, xs->xs_serv)) ||
	    xr_nl_put_sockaddr(msg, &xs->xs_local,
			       XRPCRDMA_A_TRANSPORT_LOCAL_ADDR4,
			       XRPCRDMA_A_TRANSPORT_LOCAL_ADDR6,
			       XRPCRDMA_A_TRANSPORT_LOCAL_PORT))
		return -EMSGSIZE;
	return 0;
}

/* What a connection settled on with its peer: credits and inline sizes. */
static int xr_nl_put_negotiated(struct sk_buff *msg,
				const struct xr_conn_snap *cs)
{
	if (nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_CREDITS, cs->cs_credits) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_INLINE_SEND,
			cs->cs_inline_send) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_INLINE_RECV,
			cs->cs_inline_recv) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_PEER_INLINE_SEND,
			cs->cs_peer_inline_send) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_PEER_INLINE_RECV,
			cs->cs_peer_inline_recv))
		return -EMSGSIZE;
	return 0;
}

/* A connection's queues and contexts. */
static int xr_nl_put_queues(struct sk_buff *msg, const struct xr_conn_snap *cs)
{
	if (nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_SQ_DEPTH, cs->cs_sq_depth) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_SQ_FREE, cs->cs_sq_free) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_RQ_DEPTH, cs->cs_rq_depth) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_SENDCTX_ALLOCATED,
			cs->cs_sendctx_allocated) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_SENDCTX_FREE,
			cs->cs_sendctx_free) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_RECVCTX_ALLOCATED,
			cs->cs_recvctx_allocated) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_RECVCTX_BYTES,
			cs->cs_recvctx_bytes))
		return -EMSGSIZE;
	return 0;
}

/*
 * A transport, with the parts @what names that it has: a listener has no
 * peer, connection or counters; a client transport between connections
 * has no connection.
 */
static int xr_nl_fill_xprt(struct sk_buff *msg, const struct xr_xprt_snap *xs,
			   unsigned int what)
{
	const struct xr_conn_snap *cs = &xs->xs_conn;

	if (xr_nl_put_xprt_base(msg, xs))
		return -EMSGSIZE;
	if ((what & XR_NL_XPRT_PEER) &&
	    xr_nl_put_sockaddr(msg, &xs->xs_peer,
			       XRPCRDMA_A_TRANSPORT_PEER_ADDR4,
			       XRPCRDMA_A_TRANSPORT_PEER_ADDR6,
			       XRPCRDMA_A_TRANSPORT_PEER_PORT))
		return -EMSGSIZE;
	if (xs->xs_has_conn &&
	    (((what & XR_NL_XPRT_NEGOTIATED) && xr_nl_put_negotiated(msg, cs)) ||
	     ((what & XR_NL_XPRT_QUEUES) && xr_nl_put_queues(msg, cs))))
		return -EMSGSIZE;
	if ((what & XR_NL_XPRT_REASON) &&
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_REASON, xs->xs_reason))
		return -EMSGSIZE;
	if (what & XR_NL_XPRT_STATS)
		return xr_nl_put_stats(msg, XRPCRDMA_A_TRANSPORT_STAT,
				       xs->xs_stats, xs->xs_nstats,
				       xs->xs_stat_name);
	return 0;
}

static bool xr_nl_is_listener(const struct xr_xprt_snap *xs)
{
	return xs->xs_role == XRPCRDMA_TRANSPORT_ROLE_SERVER_LISTENER;
}

/* The transport of a transport-get do, or (*@arg true) listener-get do. */
static int xr_nl_fill_transport_reply(struct sk_buff *msg,
				      struct genl_info *info, void *arg)
{
	struct nlattr *attr = info->attrs[XRPCRDMA_A_TRANSPORT_ID];
	bool listener = *(bool *)arg;
	struct xr_xprt_snap *xs;
	int err;

	xs = kmalloc(sizeof(*xs), GFP_KERNEL);
	if (!xs)
		return -ENOMEM;
	err = xr_xprt_snapshot(genl_info_net(info), nla_get_u32(attr), false,
			       xs);
	if (err) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "no transport with that id");
	} else if (listener && !xr_nl_is_listener(xs)) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "that transport is not a listener");
		err = -EINVAL;
	} else {
		err = xr_nl_fill_xprt(msg, xs, listener ? 0 : XR_NL_XPRT_ALL);
	}
	kfree(xs);
	return err;
}

/* The "do" of transport-get (@listener false) and listener-get. */
static int xr_nl_transport_doit(struct genl_info *info, u8 cmd, bool listener)
{
	if (XR_NL_REQUIRE(info, XRPCRDMA_A_TRANSPORT_ID, "transport id"))
		return -EINVAL;
	return xr_nl_reply(info, cmd, xr_nl_fill_transport_reply, &listener);
}

/* One transport as one message of a dump. */
static int xr_nl_dump_xprt(struct sk_buff *skb, struct netlink_callback *cb,
			   u8 cmd, const struct xr_xprt_snap *xs,
			   unsigned int what)
{
	void *hdr = xr_nl_dump_hdr(skb, cb, cmd);

	if (!hdr)
		return -EMSGSIZE;
	if (xr_nl_fill_xprt(skb, xs, what)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * The dump of transport-get (@listener false) and listener-get.
 * cb->args[0] holds the lowest transport id not yet looked at: ids only
 * grow (until they wrap after 2^32 transports), so the dump resumes
 * correctly when transports came or went between two parts.
 */
static int xr_nl_transport_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb, u8 cmd,
				  bool listener)
{
	struct net *net = sock_net(cb->skb->sk);
	struct xr_xprt_snap *xs;
	int err = 0;

	xs = kmalloc(sizeof(*xs), GFP_KERNEL);
	if (!xs)
		return -ENOMEM;
	while (cb->args[0] <= U32_MAX &&
	       !xr_xprt_snapshot(net, cb->args[0], true, xs)) {
		if (!listener || xr_nl_is_listener(xs)) {
			err = xr_nl_dump_xprt(skb, cb, cmd, xs,
					      listener ? 0 : XR_NL_XPRT_ALL);
			if (err)
				break;
		}
		cb->args[0] = (unsigned long)xs->xs_id + 1;
	}
	kfree(xs);
	return xr_nl_dump_end(skb, err);
}

/**
 * xrpcrdma_nl_transport_get_doit - report one transport
 * @skb: the request
 * @info: the request's attributes and extended ack
 *
 * Return values:
 *   %0: the reply was sent
 *   %-EINVAL: the id attribute is missing
 *   %-ENOENT: no transport of the caller's network namespace has that id
 *   %-ENOMEM: no memory for the reply
 *   %-EMSGSIZE: the reply did not fit in a message
 */
int xrpcrdma_nl_transport_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return xr_nl_transport_doit(info, XRPCRDMA_CMD_TRANSPORT_GET, false);
}

/**
 * xrpcrdma_nl_transport_get_dumpit - report every transport
 * @skb: the message to fill
 * @cb: dump state
 *
 * Return: the length of @skb (more to come, or 0 when done), or a negative
 * errno when not even one transport fits.
 */
int xrpcrdma_nl_transport_get_dumpit(struct sk_buff *skb,
				     struct netlink_callback *cb)
{
	return xr_nl_transport_dumpit(skb, cb, XRPCRDMA_CMD_TRANSPORT_GET,
				      false);
}

/**
 * xrpcrdma_nl_listener_get_doit - report one listener
 * @skb: the request
 * @info: the request's attributes and extended ack
 *
 * Return values:
 *   %0: the reply was sent
 *   %-EINVAL: the id attribute is missing, or names a connection
 *   %-ENOENT: no transport of the caller's network namespace has that id
 *   %-ENOMEM: no memory for the reply
 *   %-EMSGSIZE: the reply did not fit in a message
 */
int xrpcrdma_nl_listener_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return xr_nl_transport_doit(info, XRPCRDMA_CMD_LISTENER_GET, true);
}

/**
 * xrpcrdma_nl_listener_get_dumpit - report every listener
 * @skb: the message to fill
 * @cb: dump state
 *
 * Return: the length of @skb (more to come, or 0 when done), or a negative
 * errno when not even one listener fits.
 */
int xrpcrdma_nl_listener_get_dumpit(struct sk_buff *skb,
				    struct netlink_callback *cb)
{
	return xr_nl_transport_dumpit(skb, cb, XRPCRDMA_CMD_LISTENER_GET, true);
}

/**
 * xrpcrdma_nl_listener_del_doit - stop a listener
 * @skb: the request
 * @info: the request's attributes and extended ack
 *
 * Requires CAP_NET_ADMIN (the core checks GENL_ADMIN_PERM before calling).
 * The listener's service closes it soon after this returns; see
 * xr_svc_listener_close_id().
 *
 * Return values:
 *   %0: the listener is closing
 *   %-EINVAL: the id attribute is missing, or names a connection
 *   %-ENOENT: no transport of the caller's network namespace has that id
 */
int xrpcrdma_nl_listener_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *attr = info->attrs[XRPCRDMA_A_TRANSPORT_ID];
	int err;

	if (XR_NL_REQUIRE(info, XRPCRDMA_A_TRANSPORT_ID, "transport id"))
		return -EINVAL;
	err = xr_svc_listener_close_id(genl_info_net(info), nla_get_u32(attr));
	if (err == -ENOENT)
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "no transport with that id");
	else if (err == -EINVAL)
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "that transport is not a listener");
	return err;
}

static const char *xr_nl_svc_stat_name(unsigned int pos)
{
	return xr_svc_stat_name(pos);
}

static int xr_nl_fill_stats(struct sk_buff *msg, struct genl_info *info,
			    void *arg)
{
	u64 vals[XR_SVC_STAT_COUNT];

	xr_svc_totals(vals);
	return xr_nl_put_stats(msg, XRPCRDMA_A_STATS_STAT, vals,
			       XR_SVC_STAT_COUNT, xr_nl_svc_stat_name);
}

/**
 * xrpcrdma_nl_stats_get_doit - report the server's module-wide counters
 * @skb: the request
 * @info: the request's extended ack
 *
 * Return values:
 *   %0: the reply was sent
 *   %-ENOMEM: no memory for the reply
 *   %-EMSGSIZE: the reply did not fit in a message
 */
int xrpcrdma_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return xr_nl_reply(info, XRPCRDMA_CMD_STATS_GET, xr_nl_fill_stats,
			   NULL);
}

/* One transport event: which, and about whom. */
struct xr_nl_xprt_event {
	const struct xr_xprt_snap	*xe_snap;
	unsigned int			xe_what;
};

static int xr_nl_fill_xprt_event(struct sk_buff *msg, const void *arg)
{
	const struct xr_nl_xprt_event *ev = arg;

	return xr_nl_fill_xprt(msg, ev->xe_snap, ev->xe_what);
}

/**
 * xr_nl_notify_xprt - announce what happened to a transport
 * @snap: a copy of the transport, made when it happened
 * @ev: what happened: a listener created or gone (with the reason), a
 *	connection of either role established (with what it negotiated) or
 *	gone (with the reason and its final counters)
 *
 * Process context: sleeps.
 */
void xr_nl_notify_xprt(const struct xr_xprt_snap *snap, enum xr_xprt_event ev)
{
	static const struct {
		u8		cmd;
		unsigned int	what;
	} events[] = {
		[XR_EV_LISTENER_ADD] = { XRPCRDMA_CMD_LISTENER_ADD_NTF, 0 },
		[XR_EV_LISTENER_DEL] = { XRPCRDMA_CMD_LISTENER_DEL_NTF,
					 XR_NL_XPRT_REASON },
		[XR_EV_CONNECT] = { XRPCRDMA_CMD_TRANSPORT_CONNECT_NTF,
				    XR_NL_XPRT_PEER | XR_NL_XPRT_NEGOTIATED },
		[XR_EV_DISCONNECT] = { XRPCRDMA_CMD_TRANSPORT_DISCONNECT_NTF,
				       XR_NL_XPRT_PEER | XR_NL_XPRT_REASON |
				       XR_NL_XPRT_STATS },
	};
	struct xr_nl_xprt_event e = {
		.xe_snap = snap,
		.xe_what = events[ev].what,
	};

	might_sleep();
	xr_nl_event(snap->xs_net, events[ev].cmd, xr_nl_fill_xprt_event, &e,
		    GFP_KERNEL);
}

/* One refused connection request. */
struct xr_nl_reject_event {
	const struct xr_xprt_snap	*re_listener;
	struct sockaddr_storage		re_peer;
	enum xrpcrdma_reject_reason	re_reason;
};

static int xr_nl_fill_reject_event(struct sk_buff *msg, const void *arg)
{
	const struct xr_nl_reject_event *ev = arg;

	if (xr_nl_fill_xprt(msg, ev->re_listener, 0) ||
	    xr_nl_put_sockaddr(msg, &ev->re_peer,
			       XRPCRDMA_A_TRANSPORT_PEER_ADDR4,
			       XRPCRDMA_A_TRANSPORT_PEER_ADDR6,
			       XRPCRDMA_A_TRANSPORT_PEER_PORT) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_REJECT_REASON, ev->re_reason))
		return -EMSGSIZE;
	return 0;
}

/**
 * xr_nl_notify_reject - announce a connection request a listener refused
 * @listener: a copy of the listener
 * @peer: the client's address
 * @reason: why it was refused
 *
 * Process context (the connection manager's handler): sleeps.
 */
void xr_nl_notify_reject(const struct xr_xprt_snap *listener,
			 const struct sockaddr *peer,
			 enum xrpcrdma_reject_reason reason)
{
	struct xr_nl_reject_event ev = {
		.re_listener	= listener,
		.re_reason	= reason,
	};

	might_sleep();
	memcpy(&ev.re_peer, peer, rdma_addr_size(peer));
	xr_nl_event(listener->xs_net, XRPCRDMA_CMD_CONNECT_REJECT_NTF,
		    xr_nl_fill_reject_event, &ev, GFP_KERNEL);
}

/*
 * Completion errors come in bursts (a queue pair in error fails every
 * work request posted): at most XR_NL_WC_ERRORS_PER_SEC events a second
 * for the whole module; the next event says how many were left out.
 */
#define XR_NL_WC_ERRORS_PER_SEC	10

static DEFINE_SPINLOCK(xr_nl_wc_lock);
static unsigned long xr_nl_wc_window;	/* jiffies: start of this second */
static u32 xr_nl_wc_sent;		/* events sent in this second */
static u32 xr_nl_wc_suppressed;		/* left out since the last one */

/* May an event go out now? If so, *@suppressed says how many did not. */
static bool xr_nl_wc_ratelimit(u32 *suppressed)
{
	unsigned long flags, now = jiffies;
	bool ok;

	spin_lock_irqsave(&xr_nl_wc_lock, flags);
	if (!time_in_range(now, xr_nl_wc_window, xr_nl_wc_window + HZ - 1)) {
		xr_nl_wc_window = now;
		xr_nl_wc_sent = 0;
	}
	ok = xr_nl_wc_sent < XR_NL_WC_ERRORS_PER_SEC;
	if (ok) {
		xr_nl_wc_sent++;
		*suppressed = xr_nl_wc_suppressed;
		xr_nl_wc_suppressed = 0;
	} else {
		xr_nl_wc_suppressed++;
	}
	spin_unlock_irqrestore(&xr_nl_wc_lock, flags);
	return ok;
}

/* One completion error event. */
struct xr_nl_wc_event {
	const struct xr_wc_snap	*we_wc;
	u32			we_suppressed;
};

static int xr_nl_fill_wc_event(struct sk_buff *msg, const void *arg)
{
	const struct xr_nl_wc_event *ev = arg;
	const struct xr_wc_snap *ws = ev->we_wc;

	if ((ws->ws_transport_id &&
	     nla_put_u32(msg, XRPCRDMA_A_WC_ERROR_TRANSPORT_ID,
			 ws->ws_transport_id)) ||
	    nla_put_string(msg, XRPCRDMA_A_WC_ERROR_DEVICE, ws->ws_device) ||
	    nla_put_u32(msg, XRPCRDMA_A_WC_ERROR_QP_NUM, ws->ws_qp_num) ||
	    nla_put_u32(msg, XRPCRDMA_A_WC_ERROR_KIND, ws->ws_kind) ||
	    nla_put_u32(msg, XRPCRDMA_A_WC_ERROR_STATUS, ws->ws_status) ||
	    nla_put_string(msg, XRPCRDMA_A_WC_ERROR_STATUS_MSG,
			   ib_wc_status_msg(ws->ws_status)) ||
	    nla_put_u32(msg, XRPCRDMA_A_WC_ERROR_VENDOR_ERR,
			ws->ws_vendor_err) ||
	    nla_put_u32(msg, XRPCRDMA_A_WC_ERROR_SUPPRESSED,
			ev->we_suppressed))
		return -EMSGSIZE;
	return 0;
}

/**
 * xr_nl_notify_wc_error - announce a work completion with an error
 * @net: the namespace of the queue pair's device
 * @wc: what failed (xr_ep_report_wc_error())
 *
 * Any context (completion handlers run in softirq or a workqueue):
 * allocates atomically and never sleeps. Rate-limited module-wide.
 */
void xr_nl_notify_wc_error(struct net *net, const struct xr_wc_snap *wc)
{
	struct xr_nl_wc_event ev = { .we_wc = wc };

	if (!xr_nl_wc_ratelimit(&ev.we_suppressed))
		return;
	xr_nl_event(net, XRPCRDMA_CMD_COMPLETION_ERROR_NTF,
		    xr_nl_fill_wc_event, &ev, GFP_ATOMIC);
}
