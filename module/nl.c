// SPDX-License-Identifier: GPL-2.0
/*
 * nl.c - the handlers of the xrpcrdma generic netlink family. The policy,
 * the ops table and the family come from the spec
 * (Documentation/netlink/specs/xrpcrdma.yaml) through ynl-gen; this is the
 * only hand-written netlink code and the only file that parses netlink.
 * It calls small functions of the other files and owns no state.
 */
#include <generated/utsrelease.h>
#include <net/genetlink.h>
#include <linux/sunrpc/addr.h>
#include <rdma/ib_cache.h>

#include "xrpcrdma.h"

/*
 * GENL_REQ_ATTR_CHECK() reports the missing attribute's type in the
 * extended ack; add words a person can read. The local must not be called
 * __info: GENL_REQ_ATTR_CHECK() declares one, which would shadow it.
 */
#define XR_NL_REQUIRE(info, type, what) ({				\
	struct genl_info *xr_info__ = (info);				\
	bool xr_missing__ = GENL_REQ_ATTR_CHECK(xr_info__, type);	\
									\
	if (xr_missing__)						\
		NL_SET_ERR_MSG(xr_info__->extack,			\
			       "missing " what " attribute");		\
	xr_missing__;							\
})

/*
 * Fills the attributes of one reply message. Returns 0, or a
 * negative errno that ends the request (-EMSGSIZE when @msg is full).
 */
typedef int (*xr_nl_fill_fn)(struct sk_buff *msg, struct genl_info *info,
			     void *arg);

/*
 * The common body of a "do" handler: a reply message with the header of
 * @cmd, filled by @fill, sent to the requester. On any error nothing is
 * sent and the caller returns the errno (the core turns it into the ACK).
 */
static int xr_nl_reply(struct genl_info *info, u8 cmd, xr_nl_fill_fn fill,
		       void *arg)
{
	struct sk_buff *msg;
	void *hdr;
	int err;

	err = -ENOMEM;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		goto out;
	hdr = genlmsg_put_reply(msg, info, &xrpcrdma_nl_family, 0, cmd);
	if (!hdr)
		goto out_free_msg;

	err = fill(msg, info, arg);
	if (err)
		goto out_free_msg;

	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

out_free_msg:
	nlmsg_free(msg);
out:
	return err;
}

/* Name of the network device under @port of @ibdev, or "" when none. */
static void xr_nl_port_netdev(struct ib_device *ibdev, u32 port,
			      char name[IFNAMSIZ])
{
	const struct ib_gid_attr *attr;
	struct net_device *ndev;

	name[0] = '\0';
	if (!rdma_protocol_roce(ibdev, port))
		return;
	attr = rdma_get_gid_attr(ibdev, port, 0);
	if (IS_ERR(attr))
		return;
	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(attr);
	if (!IS_ERR(ndev))
		strscpy(name, ndev->name, IFNAMSIZ);
	rcu_read_unlock();
	rdma_put_gid_attr(attr);
}

static int xr_nl_put_port(struct sk_buff *msg, struct ib_device *ibdev,
			  u32 port)
{
	enum ib_port_state state = IB_PORT_NOP;
	char netdev[IFNAMSIZ];
	struct nlattr *nest;

	nest = nla_nest_start(msg, XRPCRDMA_A_DEVICE_PORT);
	if (!nest)
		return -EMSGSIZE;
	if (ib_get_cached_port_state(ibdev, port, &state))
		state = IB_PORT_NOP;
	xr_nl_port_netdev(ibdev, port, netdev);

	if (nla_put_u32(msg, XRPCRDMA_A_PORT_NUMBER, port) ||
	    nla_put_u32(msg, XRPCRDMA_A_PORT_STATE, state) ||
	    (netdev[0] && nla_put_string(msg, XRPCRDMA_A_PORT_NETDEV, netdev)))
		goto out_cancel;
	nla_nest_end(msg, nest);
	return 0;

out_cancel:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

/* Caller holds xr_device_lock(). */
static int xr_nl_fill_device(struct sk_buff *msg, struct xr_device *xd)
{
	struct ib_device *ibdev = xd->xd_ibdev;
	u32 port;

	if (nla_put_u32(msg, XRPCRDMA_A_DEVICE_INDEX, ibdev->index) ||
	    nla_put_string(msg, XRPCRDMA_A_DEVICE_NAME, dev_name(&ibdev->dev)) ||
	    nla_put_u64_64bit(msg, XRPCRDMA_A_DEVICE_NODE_GUID,
			      be64_to_cpu(ibdev->node_guid),
			      XRPCRDMA_A_DEVICE_PAD) ||
	    nla_put_u8(msg, XRPCRDMA_A_DEVICE_USABLE, xr_device_usable(xd)) ||
	    nla_put_u8(msg, XRPCRDMA_A_DEVICE_ENABLED, xd->xd_enabled))
		return -EMSGSIZE;
	rdma_for_each_port(ibdev, port)
		if (xr_nl_put_port(msg, ibdev, port))
			return -EMSGSIZE;
	return 0;
}

/*
 * Look up the device named by the request's name attribute, which the
 * operation's policy has already checked. Caller holds xr_device_lock().
 */
static struct xr_device *xr_nl_find_device(struct genl_info *info)
{
	struct nlattr *attr = info->attrs[XRPCRDMA_A_DEVICE_NAME];
	struct xr_device *xd;

	xd = xr_device_find(nla_data(attr));
	if (!xd)
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "no RDMA device of that name");
	return xd;
}

/* device-get do: the device the request names. */
static int xr_nl_fill_device_reply(struct sk_buff *msg, struct genl_info *info,
				   void *arg)
{
	struct xr_device *xd;
	int err;

	xr_device_lock();
	err = -ENODEV;
	xd = xr_nl_find_device(info);
	if (xd)
		err = xr_nl_fill_device(msg, xd);
	xr_device_unlock();
	return err;
}

/**
 * xrpcrdma_nl_device_get_doit - report one RDMA device
 * @skb: the request
 * @info: the request's attributes and extended ack
 *
 * Return values:
 *   %0: the reply was sent
 *   %-EINVAL: the name attribute is missing
 *   %-ENODEV: xrpcrdma sees no device of that name
 *   %-ENOMEM: no memory for the reply
 *   %-EMSGSIZE: the reply did not fit in a message
 */
int xrpcrdma_nl_device_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	if (XR_NL_REQUIRE(info, XRPCRDMA_A_DEVICE_NAME, "device name"))
		return -EINVAL;
	return xr_nl_reply(info, XRPCRDMA_CMD_DEVICE_GET,
			   xr_nl_fill_device_reply, NULL);
}

/**
 * xrpcrdma_nl_device_get_dumpit - report every RDMA device xrpcrdma sees
 * @skb: the message to fill
 * @cb: dump state
 *
 * cb->args[0] holds the lowest device index not yet reported. Devices are
 * kept sorted by index, so the dump resumes correctly even when devices
 * came or went between two parts.
 *
 * Return: the length of @skb (more to come, or 0 when done), or a negative
 * errno when not even one device fits.
 */
int xrpcrdma_nl_device_get_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	struct xr_device *xd;
	int err = 0;
	void *hdr;

	xr_device_lock();
	for (xd = xr_device_next(cb->args[0]); xd;
	     xd = xr_device_next(cb->args[0])) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &xrpcrdma_nl_family,
				  NLM_F_MULTI, XRPCRDMA_CMD_DEVICE_GET);
		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		err = xr_nl_fill_device(skb, xd);
		if (err) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		cb->args[0] = xd->xd_ibdev->index + 1;
	}
	xr_device_unlock();

	/* A full message ends this part; the next one resumes. */
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

/**
 * xrpcrdma_nl_device_set_doit - change the settings of one RDMA device
 * @skb: the request
 * @info: the request's attributes and extended ack
 *
 * Requires CAP_NET_ADMIN (the core checks GENL_ADMIN_PERM before calling).
 *
 * Return values:
 *   %0: the device was changed
 *   %-EINVAL: the name or the enabled attribute is missing
 *   %-ENODEV: xrpcrdma sees no device of that name
 */
int xrpcrdma_nl_device_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct xr_device *xd;
	bool enabled;
	int err;

	err = -EINVAL;
	if (XR_NL_REQUIRE(info, XRPCRDMA_A_DEVICE_NAME, "device name") ||
	    XR_NL_REQUIRE(info, XRPCRDMA_A_DEVICE_ENABLED, "enabled"))
		goto out;
	enabled = nla_get_u8(info->attrs[XRPCRDMA_A_DEVICE_ENABLED]);

	xr_device_lock();
	err = -ENODEV;
	xd = xr_nl_find_device(info);
	if (xd) {
		if (xd->xd_enabled != enabled)
			pr_info(XR_MODNAME ": device %s %s\n",
				dev_name(&xd->xd_ibdev->dev),
				enabled ? "enabled" : "disabled");
		xd->xd_enabled = enabled;
		err = 0;
	}
	xr_device_unlock();
out:
	return err;
}

static int xr_nl_put_live_objects(struct sk_buff *msg)
{
	struct nlattr *nest;
	int kind;

	for (kind = 0; kind < XR_OBJ_COUNT; kind++) {
		nest = nla_nest_start(msg, XRPCRDMA_A_MODULE_LIVE_OBJECT);
		if (!nest)
			return -EMSGSIZE;
		if (nla_put_string(msg, XRPCRDMA_A_LIVE_OBJECT_NAME,
				   xr_obj_name(kind)) ||
		    nla_put_u64_64bit(msg, XRPCRDMA_A_LIVE_OBJECT_COUNT,
				      xr_obj_live(kind),
				      XRPCRDMA_A_LIVE_OBJECT_PAD)) {
			nla_nest_cancel(msg, nest);
			return -EMSGSIZE;
		}
		nla_nest_end(msg, nest);
	}
	return 0;
}

static int xr_nl_fill_module(struct sk_buff *msg, struct genl_info *info,
			     void *arg)
{
	if (nla_put_string(msg, XRPCRDMA_A_MODULE_VERSION, XR_MODULE_VERSION) ||
	    nla_put_string(msg, XRPCRDMA_A_MODULE_BUILD_KERNEL, UTS_RELEASE) ||
	    nla_put_u32(msg, XRPCRDMA_A_MODULE_MODE, xr_svc_mode()))
		return -EMSGSIZE;
	return xr_nl_put_live_objects(msg);
}

/**
 * xrpcrdma_nl_module_get_doit - report the module's version and counters
 * @skb: the request
 * @info: the request's extended ack
 *
 * Return values:
 *   %0: the reply was sent
 *   %-ENOMEM: no memory for the reply
 *   %-EMSGSIZE: the reply did not fit in a message
 */
int xrpcrdma_nl_module_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return xr_nl_reply(info, XRPCRDMA_CMD_MODULE_GET,
			   xr_nl_fill_module, NULL);
}

/* The address of one end, as the attribute type its family takes. */
static int xr_nl_put_addr(struct sk_buff *msg,
			  const struct sockaddr_storage *ss, int addr4, int addr6)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)ss;
	const struct sockaddr_in *sin = (const struct sockaddr_in *)ss;

	switch (ss->ss_family) {
	case AF_INET:
		return nla_put_in_addr(msg, addr4, sin->sin_addr.s_addr);
	case AF_INET6:
		return nla_put_in6_addr(msg, addr6, &sin6->sin6_addr);
	}
	return 0;
}

/* Address and port (big-endian) of one end, as the attribute types given. */
static int xr_nl_put_sockaddr(struct sk_buff *msg,
			      const struct sockaddr_storage *ss,
			      int addr4, int addr6, int port)
{
	if (xr_nl_put_addr(msg, ss, addr4, addr6))
		return -EMSGSIZE;
	if (ss->ss_family != AF_INET && ss->ss_family != AF_INET6)
		return 0;
	return nla_put_be16(msg, port, htons(rpc_get_port((const struct sockaddr *)ss)));
}

/* Every server counter, named by stats.c, as @type nests. */
static int xr_nl_put_svc_stats(struct sk_buff *msg, int type, const u64 *vals)
{
	struct nlattr *nest;
	int stat;

	for (stat = 0; stat < XR_SVC_STAT_COUNT; stat++) {
		nest = nla_nest_start(msg, type);
		if (!nest)
			return -EMSGSIZE;
		if (nla_put_string(msg, XRPCRDMA_A_STAT_NAME,
				   xr_svc_stat_name(stat)) ||
		    nla_put_u64_64bit(msg, XRPCRDMA_A_STAT_VALUE, vals[stat],
				      XRPCRDMA_A_STAT_PAD)) {
			nla_nest_cancel(msg, nest);
			return -EMSGSIZE;
		}
		nla_nest_end(msg, nest);
	}
	return 0;
}

/* The peer's address and port of a connection. */
static int xr_nl_put_peer(struct sk_buff *msg, struct xr_svc_xprt *sx)
{
	return xr_nl_put_sockaddr(msg, &sx->sx_peer,
				  XRPCRDMA_A_TRANSPORT_PEER_ADDR4,
				  XRPCRDMA_A_TRANSPORT_PEER_ADDR6,
				  XRPCRDMA_A_TRANSPORT_PEER_PORT);
}

/* What a connection settled on with its peer: credits and inline sizes. */
static int xr_nl_put_negotiated(struct sk_buff *msg, struct xr_svc_xprt *sx)
{
	if (nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_CREDITS, sx->sx_credits) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_INLINE_SEND,
			sx->sx_inline_send) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_INLINE_RECV,
			sx->sx_inline_recv) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_PEER_INLINE_SEND,
			sx->sx_ep.ep_peer.cp_send_size) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_PEER_INLINE_RECV,
			sx->sx_ep.ep_peer.cp_recv_size))
		return -EMSGSIZE;
	return 0;
}

/* The connection's counters. */
static int xr_nl_put_conn_stats(struct sk_buff *msg, struct xr_svc_xprt *sx)
{
	u64 vals[XR_SVC_STAT_COUNT] = {};

	xr_svc_stats_sum(&sx->sx_stats, vals);
	return xr_nl_put_svc_stats(msg, XRPCRDMA_A_TRANSPORT_STAT, vals);
}

/* What a connection has beyond a listener. Caller holds xr_svc_lock(). */
static int xr_nl_fill_connection(struct sk_buff *msg, struct xr_svc_xprt *sx)
{
	if (xr_nl_put_peer(msg, sx) ||
	    xr_nl_put_negotiated(msg, sx) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_SQ_DEPTH,
			sx->sx_ep.ep_sq_depth) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_SQ_FREE,
			xr_sendq_slots_free(&sx->sx_sq)) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_RQ_DEPTH,
			sx->sx_ep.ep_rq_depth) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_SENDCTX_ALLOCATED,
			atomic_read(&sx->sx_sq.sq_allocated)) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_SENDCTX_FREE,
			xr_sendq_free_count(&sx->sx_sq)) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_RECVCTX_ALLOCATED,
			atomic_read(&sx->sx_rq.rq_allocated)) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_RECVCTX_BYTES,
			xr_recvq_bytes(&sx->sx_rq)))
		return -EMSGSIZE;
	return xr_nl_put_conn_stats(msg, sx);
}

/*
 * A transport as transport-get shows it, or (@brief) as listener-get
 * does: no connection attributes. Caller holds xr_svc_lock().
 */
static int xr_nl_fill_transport(struct sk_buff *msg, struct xr_svc_xprt *sx,
				bool brief)
{
	struct svc_xprt *xprt = &sx->sx_xprt;
	bool listener = xr_svc_is_listener(sx);

	if (nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_ID, sx->sx_id) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_ROLE, listener ?
			XRPCRDMA_TRANSPORT_ROLE_SERVER_LISTENER :
			XRPCRDMA_TRANSPORT_ROLE_SERVER_CONNECTION) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_STATE, xr_svc_state(sx)) ||
	    nla_put_string(msg, XRPCRDMA_A_TRANSPORT_CLASS,
			   xprt->xpt_class->xcl_name) ||
	    nla_put_string(msg, XRPCRDMA_A_TRANSPORT_SERV, sx->sx_serv_name) ||
	    xr_nl_put_sockaddr(msg, &xprt->xpt_local,
			       XRPCRDMA_A_TRANSPORT_LOCAL_ADDR4,
			       XRPCRDMA_A_TRANSPORT_LOCAL_ADDR6,
			       XRPCRDMA_A_TRANSPORT_LOCAL_PORT))
		return -EMSGSIZE;
	if (listener || brief)
		return 0;
	return xr_nl_fill_connection(msg, sx);
}

/* Every client counter, named by stats.c, as transport stat nests. */
static int xr_nl_put_client_stats(struct sk_buff *msg, struct xr_xprt *rx)
{
	enum xr_xprt_stat stat;
	struct nlattr *nest;
	const char *name;
	unsigned int pos;

	for (pos = 0; pos < XR_XPRT_STAT_COUNT; pos++) {
		name = xr_xprt_stat_at(pos, &stat);
		nest = nla_nest_start(msg, XRPCRDMA_A_TRANSPORT_STAT);
		if (!nest)
			return -EMSGSIZE;
		if (nla_put_string(msg, XRPCRDMA_A_STAT_NAME, name) ||
		    nla_put_u64_64bit(msg, XRPCRDMA_A_STAT_VALUE,
				      atomic64_read(&rx->rx_stats[stat]),
				      XRPCRDMA_A_STAT_PAD)) {
			nla_nest_cancel(msg, nest);
			return -EMSGSIZE;
		}
		nla_nest_end(msg, nest);
	}
	return 0;
}

/*
 * What every client transport has: number, role, state, class and the
 * server it connects to; with @c, its connection's local end.
 */
static int xr_nl_fill_client_base(struct sk_buff *msg, struct xr_xprt *rx,
				  struct xr_xconn *c, u32 state)
{
	struct rpc_xprt *xprt = &rx->rx_xprt;

	if (nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_ID, rx->rx_id) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_ROLE,
			XRPCRDMA_TRANSPORT_ROLE_CLIENT) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_STATE, state) ||
	    nla_put_string(msg, XRPCRDMA_A_TRANSPORT_CLASS,
			   xprt->xprt_class->name) ||
	    (c && xr_nl_put_sockaddr(msg, &c->xc_local,
				     XRPCRDMA_A_TRANSPORT_LOCAL_ADDR4,
				     XRPCRDMA_A_TRANSPORT_LOCAL_ADDR6,
				     XRPCRDMA_A_TRANSPORT_LOCAL_PORT)) ||
	    xr_nl_put_sockaddr(msg, &xprt->addr,
			       XRPCRDMA_A_TRANSPORT_PEER_ADDR4,
			       XRPCRDMA_A_TRANSPORT_PEER_ADDR6,
			       XRPCRDMA_A_TRANSPORT_PEER_PORT))
		return -EMSGSIZE;
	return 0;
}

/* What a client connection settled on with its server. */
static int xr_nl_put_client_negotiated(struct sk_buff *msg, struct xr_xprt *rx,
				       struct xr_xconn *c)
{
	u32 credits = READ_ONCE(rx->rx_xprt.cwnd) >> RPC_CWNDSHIFT;

	if (nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_CREDITS, credits) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_INLINE_SEND,
			c->xc_inline_send) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_INLINE_RECV,
			c->xc_inline_recv) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_PEER_INLINE_SEND,
			c->xc_ep.ep_peer.cp_send_size) ||
	    nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_PEER_INLINE_RECV,
			c->xc_ep.ep_peer.cp_recv_size))
		return -EMSGSIZE;
	return 0;
}

/*
 * A client transport as transport-get shows it. Its connection stays
 * published (and its queues in place) while rx_mutex is held. Caller
 * holds xr_svc_lock(), which keeps @rx in memory.
 */
static int xr_nl_fill_client(struct sk_buff *msg, struct xr_xprt *rx)
{
	struct xr_xconn *c;
	int err;

	mutex_lock(&rx->rx_mutex);
	c = rx->rx_conn;
	err = xr_nl_fill_client_base(msg, rx, c, xr_xprt_state(rx));
	if (!err && c)
		err = xr_nl_put_client_negotiated(msg, rx, c);
	if (!err && c &&
	    (nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_SQ_DEPTH,
			 c->xc_ep.ep_sq_depth) ||
	     nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_SQ_FREE,
			 xr_sendq_slots_free(&c->xc_sq)) ||
	     nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_RQ_DEPTH,
			 c->xc_ep.ep_rq_depth) ||
	     nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_SENDCTX_ALLOCATED,
			 atomic_read(&c->xc_sq.sq_allocated)) ||
	     nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_SENDCTX_FREE,
			 xr_sendq_free_count(&c->xc_sq)) ||
	     nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_RECVCTX_ALLOCATED,
			 atomic_read(&c->xc_rq.rq_allocated)) ||
	     nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_RECVCTX_BYTES,
			 xr_recvq_bytes(&c->xc_rq))))
		err = -EMSGSIZE;
	mutex_unlock(&rx->rx_mutex);
	return err ?: xr_nl_put_client_stats(msg, rx);
}

/* One transport of either role, as the registry lists it. */
struct xr_nl_any_xprt {
	struct xr_svc_xprt	*ax_sx;
	struct xr_xprt		*ax_rx;
};

/* transport-get of either role. Caller holds xr_svc_lock(). */
static int xr_nl_fill_any(struct sk_buff *msg, struct xr_nl_any_xprt *ax)
{
	if (ax->ax_rx)
		return xr_nl_fill_client(msg, ax->ax_rx);
	return xr_nl_fill_transport(msg, ax->ax_sx, false);
}

/*
 * Look up the transport named by the request's id attribute (present, and
 * checked by the policy), or with @listener, the listener. Caller holds
 * xr_svc_lock().
 */
static struct xr_svc_xprt *xr_nl_find_transport(struct genl_info *info,
						bool listener)
{
	struct nlattr *attr = info->attrs[XRPCRDMA_A_TRANSPORT_ID];
	struct xr_svc_xprt *sx;

	sx = xr_svc_find(nla_get_u32(attr));
	if (!sx && !xr_svc_find_client(nla_get_u32(attr))) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "no transport with that id");
		return ERR_PTR(-ENOENT);
	}
	if (listener && (!sx || !xr_svc_is_listener(sx))) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "that transport is not a listener");
		return ERR_PTR(-EINVAL);
	}
	return sx;
}

/* The transport of a transport-get do, or (*@arg true) listener-get do. */
static int xr_nl_fill_transport_reply(struct sk_buff *msg,
				      struct genl_info *info, void *arg)
{
	u32 id = nla_get_u32(info->attrs[XRPCRDMA_A_TRANSPORT_ID]);
	bool listener = *(bool *)arg;
	struct xr_svc_xprt *sx;
	struct xr_xprt *rx;
	int err;

	xr_svc_lock();
	sx = xr_nl_find_transport(info, listener);
	rx = sx ? NULL : xr_svc_find_client(id);
	if (rx)
		err = xr_nl_fill_client(msg, rx);
	else if (IS_ERR(sx))
		err = PTR_ERR(sx);
	else
		err = xr_nl_fill_transport(msg, sx, listener);
	xr_svc_unlock();
	return err;
}

/* The "do" of transport-get (@listener false) and listener-get. */
static int xr_nl_transport_doit(struct genl_info *info, u8 cmd, bool listener)
{
	if (XR_NL_REQUIRE(info, XRPCRDMA_A_TRANSPORT_ID, "transport id"))
		return -EINVAL;
	return xr_nl_reply(info, cmd, xr_nl_fill_transport_reply, &listener);
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
	struct xr_nl_any_xprt ax;
	int err = 0;
	void *hdr;
	u32 id;

	xr_svc_lock();
	while ((id = xr_svc_next_any(cb->args[0], &ax.ax_sx, &ax.ax_rx))) {
		if (listener && (!ax.ax_sx || !xr_svc_is_listener(ax.ax_sx)))
			goto next;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &xrpcrdma_nl_family,
				  NLM_F_MULTI, cmd);
		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		err = listener ? xr_nl_fill_transport(skb, ax.ax_sx, true) :
				 xr_nl_fill_any(skb, &ax);
		if (err) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
next:
		cb->args[0] = (unsigned long)id + 1;
	}
	xr_svc_unlock();

	/* A full message ends this part; the next one resumes. */
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

/**
 * xrpcrdma_nl_transport_get_doit - report one transport
 * @skb: the request
 * @info: the request's attributes and extended ack
 *
 * Return values:
 *   %0: the reply was sent
 *   %-EINVAL: the id attribute is missing
 *   %-ENOENT: no transport has that id
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
 *   %-ENOENT: no transport has that id
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
 * xr_svc_listener_close().
 *
 * Return values:
 *   %0: the listener is closing
 *   %-EINVAL: the id attribute is missing, or names a connection
 *   %-ENOENT: no transport has that id
 */
int xrpcrdma_nl_listener_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct xr_svc_xprt *sx;
	int err;

	err = -EINVAL;
	if (XR_NL_REQUIRE(info, XRPCRDMA_A_TRANSPORT_ID, "transport id"))
		goto out;

	xr_svc_lock();
	sx = xr_nl_find_transport(info, true);
	if (IS_ERR(sx)) {
		err = PTR_ERR(sx);
	} else {
		pr_info(XR_MODNAME ": closing listener %u (%s %pISpc)\n",
			sx->sx_id, sx->sx_serv_name, &sx->sx_xprt.xpt_local);
		xr_svc_listener_close(sx);
		err = 0;
	}
	xr_svc_unlock();
out:
	return err;
}

static int xr_nl_fill_stats(struct sk_buff *msg, struct genl_info *info,
			    void *arg)
{
	u64 vals[XR_SVC_STAT_COUNT];

	xr_svc_totals(vals);
	return xr_nl_put_svc_stats(msg, XRPCRDMA_A_STATS_STAT, vals);
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

/* ---- bench-run, bench-get ---- */

#define XR_BENCH_DEFAULT_PROGRAM	100003	/* NFS */
#define XR_BENCH_DEFAULT_VERSION	3
#define XR_BENCH_DEFAULT_COUNT		10000

static u32 xr_nl_u32_or(struct genl_info *info, int type, u32 def)
{
	return info->attrs[type] ? nla_get_u32(info->attrs[type]) : def;
}

/* The server's address: exactly one of addr4 and addr6, and a port. */
static int xr_nl_bench_addr(struct genl_info *info, struct xr_bench_params *p)
{
	struct nlattr *a4 = info->attrs[XRPCRDMA_A_BENCH_ADDR4];
	struct nlattr *a6 = info->attrs[XRPCRDMA_A_BENCH_ADDR6];
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&p->addr;
	struct sockaddr_in *sin = (struct sockaddr_in *)&p->addr;
	u16 port;

	if (!!a4 == !!a6) {
		NL_SET_ERR_MSG(info->extack,
			       "give the server's address as addr4 or addr6, one of them");
		return -EINVAL;
	}
	port = p->transport == XRPCRDMA_BENCH_TRANSPORT_RDMA ? 20049 : 2049;
	if (info->attrs[XRPCRDMA_A_BENCH_PORT])
		port = nla_get_u16(info->attrs[XRPCRDMA_A_BENCH_PORT]);
	if (!port) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[XRPCRDMA_A_BENCH_PORT],
				    "port 0 is not a server's port");
		return -EINVAL;
	}
	memset(&p->addr, 0, sizeof(p->addr));
	if (a4) {
		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = nla_get_in_addr(a4);
		sin->sin_port = htons(port);
		p->addrlen = sizeof(*sin);
	} else {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = nla_get_in6_addr(a6);
		sin6->sin6_port = htons(port);
		p->addrlen = sizeof(*sin6);
	}
	return 0;
}

static int xr_nl_fill_bench_id(struct sk_buff *msg, struct genl_info *info,
			       void *arg)
{
	return nla_put_u32(msg, XRPCRDMA_A_BENCH_ID, *(u32 *)arg);
}

/**
 * xrpcrdma_nl_bench_run_doit - start a kernel-side RPC benchmark
 * @skb: the request
 * @info: the request's attributes and extended ack
 *
 * Requires CAP_NET_ADMIN. The policy bounds version, count and
 * concurrency; the transport, the address and the port are checked here.
 *
 * Return values:
 *   %0: started; the reply carries its id
 *   %-EINVAL: no address, both addresses, port 0, unknown transport
 *   %-ERANGE: count out of range
 *   %-EBUSY: another benchmark runs
 *   %-ENOMEM: no memory for it
 */
int xrpcrdma_nl_bench_run_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct xr_bench_params p = {};
	u32 id;
	int err;

	p.transport = xr_nl_u32_or(info, XRPCRDMA_A_BENCH_TRANSPORT,
				   XRPCRDMA_BENCH_TRANSPORT_TCP);
	if (p.transport > XRPCRDMA_BENCH_TRANSPORT_RDMA) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[XRPCRDMA_A_BENCH_TRANSPORT],
				    "unknown transport: tcp (0) or rdma (1)");
		return -EINVAL;
	}
	err = xr_nl_bench_addr(info, &p);
	if (err)
		return err;
	p.program = xr_nl_u32_or(info, XRPCRDMA_A_BENCH_PROGRAM,
				 XR_BENCH_DEFAULT_PROGRAM);
	p.version = xr_nl_u32_or(info, XRPCRDMA_A_BENCH_VERSION,
				 XR_BENCH_DEFAULT_VERSION);
	p.count = xr_nl_u32_or(info, XRPCRDMA_A_BENCH_COUNT,
			       XR_BENCH_DEFAULT_COUNT);
	p.concurrency = xr_nl_u32_or(info, XRPCRDMA_A_BENCH_CONCURRENCY, 1);
	if (!p.count || p.count > XRPCRDMA_BENCH_MAX_COUNT) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[XRPCRDMA_A_BENCH_COUNT],
				    "count: 1 to 1000000 calls");
		return -ERANGE;
	}
	/* The policy checks these; the module relies on them, so again. */
	if (!p.version || p.version > XR_BENCH_MAX_VERSION ||
	    !p.concurrency || p.concurrency > XRPCRDMA_BENCH_MAX_INFLIGHT)
		return -EINVAL;

	err = xr_bench_start(genl_info_net(info), &p, &id);
	if (err == -EBUSY)
		NL_SET_ERR_MSG(info->extack, "a benchmark is running already");
	if (err)
		return err;
	return xr_nl_reply(info, XRPCRDMA_CMD_BENCH_RUN, xr_nl_fill_bench_id,
			   &id);
}

static int xr_nl_fill_bench(struct sk_buff *msg,
			    const struct xr_bench_result *r)
{
	const struct xr_bench_params *p = &r->params;

	if (nla_put_u32(msg, XRPCRDMA_A_BENCH_ID, r->id) ||
	    nla_put_u32(msg, XRPCRDMA_A_BENCH_TRANSPORT, p->transport) ||
	    xr_nl_put_addr(msg, &p->addr, XRPCRDMA_A_BENCH_ADDR4,
			   XRPCRDMA_A_BENCH_ADDR6) ||
	    nla_put_u16(msg, XRPCRDMA_A_BENCH_PORT,
			rpc_get_port((const struct sockaddr *)&p->addr)) ||
	    nla_put_u32(msg, XRPCRDMA_A_BENCH_PROGRAM, p->program) ||
	    nla_put_u32(msg, XRPCRDMA_A_BENCH_VERSION, p->version) ||
	    nla_put_u32(msg, XRPCRDMA_A_BENCH_COUNT, p->count) ||
	    nla_put_u32(msg, XRPCRDMA_A_BENCH_CONCURRENCY, p->concurrency) ||
	    nla_put_u8(msg, XRPCRDMA_A_BENCH_RUNNING, r->running) ||
	    nla_put_u32(msg, XRPCRDMA_A_BENCH_DONE, r->done) ||
	    nla_put_u32(msg, XRPCRDMA_A_BENCH_ERRORS, r->errors))
		return -EMSGSIZE;
	if (r->running)
		return 0;
	if (nla_put_s32(msg, XRPCRDMA_A_BENCH_STATUS, r->status) ||
	    nla_put_u64_64bit(msg, XRPCRDMA_A_BENCH_ELAPSED_NS, r->elapsed_ns,
			      XRPCRDMA_A_BENCH_PAD) ||
	    nla_put_u64_64bit(msg, XRPCRDMA_A_BENCH_OPS_PER_SEC, r->ops_per_sec,
			      XRPCRDMA_A_BENCH_PAD) ||
	    nla_put_u64_64bit(msg, XRPCRDMA_A_BENCH_LAT_P50_NS, r->p50_ns,
			      XRPCRDMA_A_BENCH_PAD) ||
	    nla_put_u64_64bit(msg, XRPCRDMA_A_BENCH_LAT_P99_NS, r->p99_ns,
			      XRPCRDMA_A_BENCH_PAD) ||
	    nla_put_u64_64bit(msg, XRPCRDMA_A_BENCH_LAT_P999_NS, r->p999_ns,
			      XRPCRDMA_A_BENCH_PAD) ||
	    nla_put_u64_64bit(msg, XRPCRDMA_A_BENCH_LAT_MAX_NS, r->max_ns,
			      XRPCRDMA_A_BENCH_PAD))
		return -EMSGSIZE;
	return 0;
}

static int xr_nl_fill_bench_reply(struct sk_buff *msg, struct genl_info *info,
				  void *arg)
{
	return xr_nl_fill_bench(msg, arg);
}

/**
 * xrpcrdma_nl_bench_get_doit - report one benchmark
 * @skb: the request
 * @info: the request's attributes and extended ack
 *
 * Return values:
 *   %0: the reply was sent
 *   %-EINVAL: the id attribute is missing
 *   %-ENOENT: no benchmark kept has that id
 */
int xrpcrdma_nl_bench_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct xr_bench_result r;

	if (XR_NL_REQUIRE(info, XRPCRDMA_A_BENCH_ID, "benchmark id"))
		return -EINVAL;
	if (xr_bench_get(nla_get_u32(info->attrs[XRPCRDMA_A_BENCH_ID]), false,
			 &r)) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[XRPCRDMA_A_BENCH_ID],
				    "no benchmark with that id");
		return -ENOENT;
	}
	return xr_nl_reply(info, XRPCRDMA_CMD_BENCH_GET, xr_nl_fill_bench_reply,
			   &r);
}

/**
 * xrpcrdma_nl_bench_get_dumpit - report every benchmark kept
 * @skb: the message to fill
 * @cb: the dump's state; args[0] is the next id to look at
 *
 * Return: the length filled, 0 at the end, or a negative errno.
 */
int xrpcrdma_nl_bench_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct xr_bench_result r;
	void *hdr;

	while (!xr_bench_get(cb->args[0], true, &r)) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &xrpcrdma_nl_family,
				  NLM_F_MULTI, XRPCRDMA_CMD_BENCH_GET);
		if (!hdr)
			break;
		if (xr_nl_fill_bench(skb, &r)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		cb->args[0] = (unsigned long)r.id + 1;
	}
	return skb->len;
}

/*
 * Fault points (fault-set, fault-get). The policy checks each attribute's
 * range; what is left to check here is which attributes go together.
 */

/* Default errno (EIO) and completion delay of a new arming. */
#define XR_NL_FAULT_ERRNO	EIO
#define XR_NL_FAULT_DELAY_MS	1000
/* The largest probability: one million per million. */
#define XR_NL_FAULT_PPM_MAX	1000000

/* True when @type is present, with @msg (a literal) in the extended ack. */
#define xr_nl_fault_extra(info, type, msg) ({				\
	struct genl_info *xr_finfo__ = (info);				\
	struct nlattr *xr_fattr__ = xr_finfo__->attrs[type];		\
									\
	if (xr_fattr__)							\
		NL_SET_ERR_MSG_ATTR(xr_finfo__->extack, xr_fattr__, msg);	\
	!!xr_fattr__;							\
})

static u32 xr_nl_get_u32_or(struct genl_info *info, int type, u32 dflt)
{
	return info->attrs[type] ? nla_get_u32(info->attrs[type]) : dflt;
}

/* The trigger's own attributes: n, or probability, and times. */
static int xr_nl_fault_trigger(struct genl_info *info,
			       struct xr_fault_arm *arm)
{
	struct nlattr **tb = info->attrs;

	switch (arm->fa_trigger) {
	case XRPCRDMA_FAULT_TRIGGER_NTH:
	case XRPCRDMA_FAULT_TRIGGER_EVERY:
		if (!tb[XRPCRDMA_A_FAULT_N]) {
			NL_SET_ERR_MSG(info->extack,
				       "triggers nth and every need n (1 or more)");
			return -EINVAL;
		}
		if (xr_nl_fault_extra(info, XRPCRDMA_A_FAULT_PROBABILITY,
				      "probability is for trigger probability only"))
			return -EINVAL;
		arm->fa_n = nla_get_u32(tb[XRPCRDMA_A_FAULT_N]);
		break;
	case XRPCRDMA_FAULT_TRIGGER_PROBABILITY:
		if (!tb[XRPCRDMA_A_FAULT_PROBABILITY]) {
			NL_SET_ERR_MSG(info->extack,
				       "trigger probability needs probability (1 to 1000000 per million)");
			return -EINVAL;
		}
		if (xr_nl_fault_extra(info, XRPCRDMA_A_FAULT_N,
				      "n is for triggers nth and every only"))
			return -EINVAL;
		arm->fa_probability =
			nla_get_u32(tb[XRPCRDMA_A_FAULT_PROBABILITY]);
		if (!arm->fa_probability ||
		    arm->fa_probability > XR_NL_FAULT_PPM_MAX) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    tb[XRPCRDMA_A_FAULT_PROBABILITY],
					    "probability must be 1 to 1000000 per million");
			return -EINVAL;
		}
		break;
	}
	if (arm->fa_trigger == XRPCRDMA_FAULT_TRIGGER_NTH &&
	    xr_nl_fault_extra(info, XRPCRDMA_A_FAULT_TIMES,
			      "times is for triggers every and probability only: nth fires once"))
		return -EINVAL;
	arm->fa_times = xr_nl_get_u32_or(info, XRPCRDMA_A_FAULT_TIMES, 0);
	return 0;
}

/* What the point does when it fires: an errno, or a delay. */
static int xr_nl_fault_effect(struct genl_info *info, u32 point,
			      struct xr_fault_arm *arm)
{
	if (!xr_fault_takes_errno(point) &&
	    xr_nl_fault_extra(info, XRPCRDMA_A_FAULT_ERRNO,
			      "errno is only for points that fail an operation"))
		return -EINVAL;
	if (point != XRPCRDMA_FAULT_POINT_COMPLETION_DELAY &&
	    xr_nl_fault_extra(info, XRPCRDMA_A_FAULT_DELAY_MS,
			      "delay-ms is for completion-delay only"))
		return -EINVAL;
	arm->fa_errno = xr_nl_get_u32_or(info, XRPCRDMA_A_FAULT_ERRNO,
					 XR_NL_FAULT_ERRNO);
	arm->fa_delay_ms = xr_nl_get_u32_or(info, XRPCRDMA_A_FAULT_DELAY_MS,
					    XR_NL_FAULT_DELAY_MS);
	if (!arm->fa_delay_ms) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[XRPCRDMA_A_FAULT_DELAY_MS],
				    "delay-ms must be 1 to 10000");
		return -EINVAL;
	}
	return 0;
}

/* Disarming takes the point and nothing else. */
static int xr_nl_fault_off(struct genl_info *info)
{
	static const int armed_only[] = {
		XRPCRDMA_A_FAULT_N, XRPCRDMA_A_FAULT_PROBABILITY,
		XRPCRDMA_A_FAULT_TIMES, XRPCRDMA_A_FAULT_ERRNO,
		XRPCRDMA_A_FAULT_DELAY_MS, XRPCRDMA_A_FAULT_TRANSPORT_ID,
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(armed_only); i++)
		if (xr_nl_fault_extra(info, armed_only[i],
				      "trigger off (disarm) takes no other attribute"))
			return -EINVAL;
	return 0;
}

/**
 * xrpcrdma_nl_fault_set_doit - arm or disarm a fault point
 * @skb: the request
 * @info: the request's attributes and extended ack
 *
 * Requires CAP_NET_ADMIN (the core checks GENL_ADMIN_PERM before calling).
 * Without a trigger, or with trigger off, the point is disarmed.
 *
 * Return values:
 *   %0: done
 *   %-EINVAL: the point is missing, or attributes that do not go with
 *	the trigger or the point (the extended ack says which)
 *   %-ENOMEM: no memory for the arming
 */
int xrpcrdma_nl_fault_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct xr_fault_arm arm = {};
	u32 point;
	int err;

	err = -EINVAL;
	if (XR_NL_REQUIRE(info, XRPCRDMA_A_FAULT_POINT, "fault point"))
		goto out;
	point = nla_get_u32(info->attrs[XRPCRDMA_A_FAULT_POINT]);
	arm.fa_trigger = xr_nl_get_u32_or(info, XRPCRDMA_A_FAULT_TRIGGER,
					  XRPCRDMA_FAULT_TRIGGER_OFF);
	if (arm.fa_trigger == XRPCRDMA_FAULT_TRIGGER_OFF) {
		err = xr_nl_fault_off(info);
	} else {
		err = xr_nl_fault_trigger(info, &arm);
		if (!err)
			err = xr_nl_fault_effect(info, point, &arm);
		arm.fa_transport_id =
			xr_nl_get_u32_or(info, XRPCRDMA_A_FAULT_TRANSPORT_ID, 0);
	}
	if (err)
		goto out;
	err = xr_fault_set(point, &arm);
	if (err)
		goto out;
	pr_info(XR_MODNAME ": fault point %s %s\n", xr_fault_name(point),
		arm.fa_trigger == XRPCRDMA_FAULT_TRIGGER_OFF ?
		"disarmed" : "armed");
out:
	return err;
}

/* The attributes of one fault point; @point is below the count. */
static int xr_nl_fill_fault(struct sk_buff *msg, u32 point)
{
	struct xr_fault_arm arm;
	u64 hits, fired;

	xr_fault_get(point, &arm, &hits, &fired);
	if (nla_put_u32(msg, XRPCRDMA_A_FAULT_POINT, point) ||
	    nla_put_u32(msg, XRPCRDMA_A_FAULT_TRIGGER, arm.fa_trigger) ||
	    nla_put_u64_64bit(msg, XRPCRDMA_A_FAULT_HITS, hits,
			      XRPCRDMA_A_FAULT_PAD) ||
	    nla_put_u64_64bit(msg, XRPCRDMA_A_FAULT_FIRED, fired,
			      XRPCRDMA_A_FAULT_PAD))
		return -EMSGSIZE;
	if (arm.fa_trigger == XRPCRDMA_FAULT_TRIGGER_OFF)
		return 0;
	if (arm.fa_n && nla_put_u32(msg, XRPCRDMA_A_FAULT_N, arm.fa_n))
		return -EMSGSIZE;
	if (arm.fa_probability &&
	    nla_put_u32(msg, XRPCRDMA_A_FAULT_PROBABILITY, arm.fa_probability))
		return -EMSGSIZE;
	if (arm.fa_trigger != XRPCRDMA_FAULT_TRIGGER_NTH &&
	    nla_put_u32(msg, XRPCRDMA_A_FAULT_TIMES, arm.fa_times))
		return -EMSGSIZE;
	if (xr_fault_takes_errno(point) &&
	    nla_put_u32(msg, XRPCRDMA_A_FAULT_ERRNO, arm.fa_errno))
		return -EMSGSIZE;
	if (point == XRPCRDMA_FAULT_POINT_COMPLETION_DELAY &&
	    nla_put_u32(msg, XRPCRDMA_A_FAULT_DELAY_MS, arm.fa_delay_ms))
		return -EMSGSIZE;
	if (arm.fa_transport_id &&
	    nla_put_u32(msg, XRPCRDMA_A_FAULT_TRANSPORT_ID,
			arm.fa_transport_id))
		return -EMSGSIZE;
	return 0;
}

static int xr_nl_fill_fault_reply(struct sk_buff *msg, struct genl_info *info,
				  void *arg)
{
	return xr_nl_fill_fault(msg, *(u32 *)arg);
}

/**
 * xrpcrdma_nl_fault_get_doit - report one fault point
 * @skb: the request
 * @info: the request's attributes and extended ack
 *
 * Return values:
 *   %0: the reply was sent
 *   %-EINVAL: the point attribute is missing
 *   %-ENOMEM: no memory for the reply
 *   %-EMSGSIZE: the reply did not fit in a message
 */
int xrpcrdma_nl_fault_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	u32 point;

	if (XR_NL_REQUIRE(info, XRPCRDMA_A_FAULT_POINT, "fault point"))
		return -EINVAL;
	point = nla_get_u32(info->attrs[XRPCRDMA_A_FAULT_POINT]);
	return xr_nl_reply(info, XRPCRDMA_CMD_FAULT_GET, xr_nl_fill_fault_reply,
			   &point);
}

/**
 * xrpcrdma_nl_fault_get_dumpit - report every fault point
 * @skb: the message to fill
 * @cb: the dump's state; cb->args[0] is the next point to report (the
 *	table is fixed, so the dump resumes exactly where it stopped)
 *
 * Return: the length of @skb (more to come, or 0 when done), or a negative
 * errno when not even one point fits.
 */
int xrpcrdma_nl_fault_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	int err = 0;
	void *hdr;

	for (; cb->args[0] < XR_FAULT_POINT_COUNT; cb->args[0]++) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &xrpcrdma_nl_family,
				  NLM_F_MULTI, XRPCRDMA_CMD_FAULT_GET);
		if (!hdr) {
			err = -EMSGSIZE;
			break;
		}
		err = xr_nl_fill_fault(skb, cb->args[0]);
		if (err) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}

	/* A full message ends this part; the next one resumes. */
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

/*
 * Tunables (config.c). Range and live checks keep their own messages,
 * which name the limit: the policy only checks types, or its generic
 * "out of range" would come first.
 */

/*
 * An extended ack message that is not a literal (NL_SET_ERR_MSG() wants
 * one): @msg must outlive the request, as config.c's static ones do.
 */
static void xr_nl_err_attr(struct netlink_ext_ack *extack,
			   const struct nlattr *attr, const char *msg)
{
	if (!extack)
		return;
	extack->_msg = msg;
	extack->bad_attr = attr;
}

static int xr_nl_put_config(struct sk_buff *msg, const struct xr_config *cfg,
			    u8 roles)
{
	const struct xr_config_def *cd;
	int i;

	for (i = 0; i < XR_CFG_COUNT; i++) {
		cd = xr_config_def(i);
		if (!(cd->cd_roles & roles))
			continue;
		if (nla_put_u32(msg, cd->cd_attr, READ_ONCE(cfg->cf_val[i])))
			return -EMSGSIZE;
	}
	return 0;
}

/*
 * The connection named by a config request's transport-id; caller holds
 * xr_svc_lock(). Listeners have no values of their own.
 */
static struct xr_svc_xprt *xr_nl_config_transport(struct genl_info *info)
{
	struct nlattr *attr = info->attrs[XRPCRDMA_A_CONFIG_TRANSPORT_ID];
	struct xr_svc_xprt *sx;

	sx = xr_svc_find(nla_get_u32(attr));
	if (!sx) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "no transport with that id");
		return ERR_PTR(-ENOENT);
	}
	if (xr_svc_is_listener(sx)) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "a listener has no values of its own: its connections take the defaults when they are accepted");
		return ERR_PTR(-EINVAL);
	}
	return sx;
}

static int xr_nl_fill_config(struct sk_buff *msg, struct genl_info *info,
			     void *arg)
{
	struct xr_svc_xprt *sx;
	struct xr_config cfg;
	int err;

	if (!info->attrs[XRPCRDMA_A_CONFIG_TRANSPORT_ID]) {
		xr_config_snapshot(&cfg);
		return xr_nl_put_config(msg, &cfg,
					XR_CFG_ROLE_SERVER | XR_CFG_ROLE_CLIENT);
	}
	xr_svc_lock();
	sx = xr_nl_config_transport(info);
	if (IS_ERR(sx)) {
		err = PTR_ERR(sx);
		goto out;
	}
	err = -EMSGSIZE;
	if (nla_put_u32(msg, XRPCRDMA_A_CONFIG_TRANSPORT_ID, sx->sx_id))
		goto out;
	err = xr_nl_put_config(msg, &sx->sx_config, XR_CFG_ROLE_SERVER);
out:
	xr_svc_unlock();
	return err;
}

/**
 * xrpcrdma_nl_config_get_doit - report the tunables
 * @skb: the request
 * @info: the request's attributes and extended ack
 *
 * Without transport-id, the defaults new transports start from; with it,
 * the values of that server connection (the live ones as they are now).
 *
 * Return values:
 *   %0: the reply was sent
 *   %-EINVAL: transport-id names a listener
 *   %-ENOENT: no transport has that id
 *   %-ENOMEM: no memory for the reply
 *   %-EMSGSIZE: the reply did not fit in a message
 */
int xrpcrdma_nl_config_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return xr_nl_reply(info, XRPCRDMA_CMD_CONFIG_GET, xr_nl_fill_config,
			   NULL);
}

/*
 * Collect the values of a config-set into @vals and @given, each checked
 * against its range and, with @live, against what may change on a live
 * transport. Return: the number given, or a negative errno.
 */
static int xr_nl_config_parse(struct genl_info *info, bool live,
			      struct xr_config *vals, bool *given)
{
	const struct xr_config_def *cd;
	const struct nlattr *attr;
	const char *why;
	int i, n = 0;

	for (i = 0; i < XR_CFG_COUNT; i++) {
		cd = xr_config_def(i);
		attr = info->attrs[cd->cd_attr];
		if (!attr)
			continue;
		vals->cf_val[i] = nla_get_u32(attr);
		why = xr_config_check(i, vals->cf_val[i]);
		if (!why && live && !cd->cd_live)
			why = xr_config_not_live(i);
		if (why) {
			xr_nl_err_attr(info->extack, attr, why);
			return -EINVAL;
		}
		given[i] = true;
		n++;
	}
	if (!n) {
		NL_SET_ERR_MSG(info->extack, "no tunable given");
		return -EINVAL;
	}
	return n;
}

/* Apply checked live values to one connection. */
static int xr_nl_config_set_live(struct genl_info *info,
				 const struct xr_config *vals,
				 const bool *given)
{
	struct xr_svc_xprt *sx;
	int err = 0, i;

	xr_svc_lock();
	sx = xr_nl_config_transport(info);
	if (IS_ERR(sx)) {
		err = PTR_ERR(sx);
		goto out;
	}
	for (i = 0; i < XR_CFG_COUNT; i++)
		if (given[i])
			xr_svc_config_set_live(sx, i, vals->cf_val[i]);
out:
	xr_svc_unlock();
	return err;
}

/**
 * xrpcrdma_nl_config_set_doit - change tunables
 * @skb: the request
 * @info: the request's attributes and extended ack
 *
 * Requires CAP_NET_ADMIN (the core checks GENL_ADMIN_PERM). Without
 * transport-id, the defaults for new transports; with it, the live
 * values of that connection. Nothing changes unless every value given is
 * accepted.
 *
 * Return values:
 *   %0: every value given is set
 *   %-EINVAL: no value given, a value out of range, a value that cannot
 *	change live, or transport-id names a listener
 *   %-ENOENT: no transport has that id
 */
int xrpcrdma_nl_config_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	bool live = info->attrs[XRPCRDMA_A_CONFIG_TRANSPORT_ID];
	bool given[XR_CFG_COUNT] = {};
	struct xr_config vals;
	int err;

	err = xr_nl_config_parse(info, live, &vals, given);
	if (err < 0)
		return err;
	if (live)
		return xr_nl_config_set_live(info, &vals, given);
	xr_config_set_defaults(&vals, given);
	return 0;
}

/*
 * Events: notifications to the "events" multicast group. They are built
 * only when someone listens, may be sent from any context (the caller
 * passes the allocation flags its context allows), and never after
 * xr_nl_exit() began: xr_nl_up is cleared and an RCU grace period waited
 * for before the family (and its group numbers) goes away.
 */
static bool xr_nl_up;

/* Fills an event's attributes; 0, or -EMSGSIZE. */
typedef int (*xr_nl_event_fill_fn)(struct sk_buff *msg, void *arg);

static bool xr_nl_listening(struct net *net)
{
	return READ_ONCE(xr_nl_up) &&
	       genl_has_listeners(&xrpcrdma_nl_family, net,
				  XRPCRDMA_NLGRP_EVENTS);
}

/* Build event @cmd with @fill and send it to the listeners in @net. */
static void xr_nl_event(struct net *net, u8 cmd, xr_nl_event_fill_fn fill,
			void *arg, gfp_t gfp)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, gfp);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &xrpcrdma_nl_family, 0, cmd);
	if (!hdr || fill(msg, arg)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);

	rcu_read_lock();
	if (READ_ONCE(xr_nl_up))
		genlmsg_multicast_netns(&xrpcrdma_nl_family, net, msg, 0,
					XRPCRDMA_NLGRP_EVENTS, GFP_ATOMIC);
	else
		nlmsg_free(msg);
	rcu_read_unlock();
}

static int xr_nl_fill_device_event(struct sk_buff *msg, void *arg)
{
	return xr_nl_fill_device(msg, arg);
}

/**
 * xr_nl_notify_device - announce an RDMA device coming or going
 * @xd: the device; the caller holds xr_device_lock() and the ib_device
 *	is registered
 * @add: true when it came, false when it is going away
 *
 * Process context: sleeps.
 */
void xr_nl_notify_device(struct xr_device *xd, bool add)
{
	struct net *net = read_pnet(&xd->xd_ibdev->coredev.rdma_net);

	might_sleep();
	if (!xr_nl_listening(net))
		return;
	xr_nl_event(net, add ? XRPCRDMA_CMD_DEVICE_ADD_NTF :
		    XRPCRDMA_CMD_DEVICE_DEL_NTF, xr_nl_fill_device_event, xd,
		    GFP_KERNEL);
}

/* One transport event: which, and about whom. */
struct xr_nl_xprt_event {
	struct xr_svc_xprt	*xe_sx;
	u8			xe_cmd;
};

static int xr_nl_put_reason(struct sk_buff *msg, struct xr_svc_xprt *sx)
{
	return nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_REASON,
			   xr_ep_close_reason(&sx->sx_ep));
}

static int xr_nl_fill_xprt_event(struct sk_buff *msg, void *arg)
{
	struct xr_nl_xprt_event *ev = arg;
	struct xr_svc_xprt *sx = ev->xe_sx;

	if (xr_nl_fill_transport(msg, sx, true))
		return -EMSGSIZE;
	switch (ev->xe_cmd) {
	case XRPCRDMA_CMD_LISTENER_DEL_NTF:
		return xr_nl_put_reason(msg, sx);
	case XRPCRDMA_CMD_TRANSPORT_CONNECT_NTF:
		if (xr_nl_put_peer(msg, sx) || xr_nl_put_negotiated(msg, sx))
			return -EMSGSIZE;
		return 0;
	case XRPCRDMA_CMD_TRANSPORT_DISCONNECT_NTF:
		if (xr_nl_put_peer(msg, sx) || xr_nl_put_reason(msg, sx))
			return -EMSGSIZE;
		return xr_nl_put_conn_stats(msg, sx);
	}
	return 0;
}

static void xr_nl_xprt_event(struct xr_svc_xprt *sx, u8 cmd)
{
	struct xr_nl_xprt_event ev = { .xe_sx = sx, .xe_cmd = cmd };
	struct net *net = sx->sx_xprt.xpt_net;

	might_sleep();
	if (!xr_nl_listening(net))
		return;
	xr_nl_event(net, cmd, xr_nl_fill_xprt_event, &ev, GFP_KERNEL);
}

/**
 * xr_nl_notify_listener - announce a server listener coming or going
 * @sx: the listener, numbered; the caller holds xr_svc_lock()
 * @add: true when it was created, false when it leaves the registry
 *	(the event then says why, from xr_ep_close_reason())
 *
 * Process context: sleeps.
 */
void xr_nl_notify_listener(struct xr_svc_xprt *sx, bool add)
{
	xr_nl_xprt_event(sx, add ? XRPCRDMA_CMD_LISTENER_ADD_NTF :
			 XRPCRDMA_CMD_LISTENER_DEL_NTF);
}

/**
 * xr_nl_notify_connection - announce a server connection up or gone
 * @sx: the connection, numbered; the caller holds xr_svc_lock()
 * @up: true once it is established, false when it leaves the registry
 *	(the event then says why and carries its final counters)
 *
 * Process context: sleeps.
 */
void xr_nl_notify_connection(struct xr_svc_xprt *sx, bool up)
{
	xr_nl_xprt_event(sx, up ? XRPCRDMA_CMD_TRANSPORT_CONNECT_NTF :
			 XRPCRDMA_CMD_TRANSPORT_DISCONNECT_NTF);
}

/* One refused connection request. */
struct xr_nl_reject_event {
	struct xr_svc_xprt		*re_listener;
	struct sockaddr_storage		re_peer;
	enum xrpcrdma_reject_reason	re_reason;
};

static int xr_nl_fill_reject_event(struct sk_buff *msg, void *arg)
{
	struct xr_nl_reject_event *ev = arg;

	if (xr_nl_fill_transport(msg, ev->re_listener, true) ||
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
 * @listener: the listener, numbered; the caller holds xr_svc_lock()
 * @peer: the client's address
 * @reason: why it was refused
 *
 * Process context (the connection manager's handler): sleeps.
 */
void xr_nl_notify_reject(struct xr_svc_xprt *listener,
			 const struct sockaddr *peer,
			 enum xrpcrdma_reject_reason reason)
{
	struct net *net = listener->sx_xprt.xpt_net;
	struct xr_nl_reject_event ev = {
		.re_listener	= listener,
		.re_reason	= reason,
	};

	might_sleep();
	if (!xr_nl_listening(net))
		return;
	memcpy(&ev.re_peer, peer, rdma_addr_size(peer));
	xr_nl_event(net, XRPCRDMA_CMD_CONNECT_REJECT_NTF,
		    xr_nl_fill_reject_event, &ev, GFP_KERNEL);
}

/* One client connection event. */
struct xr_nl_client_event {
	struct xr_xprt		*ce_rx;
	struct xr_xconn		*ce_conn;
	bool			ce_up;
};

static int xr_nl_fill_client_event(struct sk_buff *msg, void *arg)
{
	struct xr_nl_client_event *ev = arg;
	struct xr_xconn *c = ev->ce_conn;
	u32 state = ev->ce_up ? XRPCRDMA_TRANSPORT_STATE_CONNECTED :
				XRPCRDMA_TRANSPORT_STATE_CLOSING;

	if (xr_nl_fill_client_base(msg, ev->ce_rx, c, state))
		return -EMSGSIZE;
	if (ev->ce_up)
		return xr_nl_put_client_negotiated(msg, ev->ce_rx, c);
	if (nla_put_u32(msg, XRPCRDMA_A_TRANSPORT_REASON,
			xr_ep_close_reason(&c->xc_ep)))
		return -EMSGSIZE;
	return xr_nl_put_client_stats(msg, ev->ce_rx);
}

/**
 * xr_nl_notify_client - announce a client connection up or gone
 * @rx: the client transport, numbered
 * @c: its connection, which was published; the caller holds a reference
 * @up: true once it is established and published, false once it was
 *	closed and drained (the event then says why, from
 *	xr_ep_close_reason(), and carries the transport's counters)
 *
 * Process context: sleeps.
 */
void xr_nl_notify_client(struct xr_xprt *rx, struct xr_xconn *c, bool up)
{
	struct xr_nl_client_event ev = {
		.ce_rx = rx,
		.ce_conn = c,
		.ce_up = up,
	};
	struct net *net = rx->rx_xprt.xprt_net;

	might_sleep();
	if (!rx->rx_id || !xr_nl_listening(net))
		return;
	xr_nl_event(net, up ? XRPCRDMA_CMD_TRANSPORT_CONNECT_NTF :
		    XRPCRDMA_CMD_TRANSPORT_DISCONNECT_NTF,
		    xr_nl_fill_client_event, &ev, GFP_KERNEL);
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
	struct xr_ep		*we_ep;
	const struct ib_wc	*we_wc;
	enum xrpcrdma_wc_kind	we_kind;
	u32			we_suppressed;
};

static int xr_nl_fill_wc_event(struct sk_buff *msg, void *arg)
{
	struct xr_nl_wc_event *ev = arg;
	struct xr_ep *ep = ev->we_ep;
	const struct ib_wc *wc = ev->we_wc;
	u32 id = READ_ONCE(ep->ep_owner_id);

	if ((id && nla_put_u32(msg, XRPCRDMA_A_WC_ERROR_TRANSPORT_ID, id)) ||
	    nla_put_string(msg, XRPCRDMA_A_WC_ERROR_DEVICE,
			   dev_name(&ep->ep_id->device->dev)) ||
	    nla_put_u32(msg, XRPCRDMA_A_WC_ERROR_QP_NUM, ep->ep_qp->qp_num) ||
	    nla_put_u32(msg, XRPCRDMA_A_WC_ERROR_KIND, ev->we_kind) ||
	    nla_put_u32(msg, XRPCRDMA_A_WC_ERROR_STATUS, wc->status) ||
	    nla_put_string(msg, XRPCRDMA_A_WC_ERROR_STATUS_MSG,
			   ib_wc_status_msg(wc->status)) ||
	    nla_put_u32(msg, XRPCRDMA_A_WC_ERROR_VENDOR_ERR, wc->vendor_err) ||
	    nla_put_u32(msg, XRPCRDMA_A_WC_ERROR_SUPPRESSED,
			ev->we_suppressed))
		return -EMSGSIZE;
	return 0;
}

/**
 * xr_nl_notify_wc_error - announce a work completion with an error
 * @ep: the endpoint whose queue pair the work request was posted on
 * @kind: what the work request was
 * @wc: the completion; its status is neither success nor a flush
 *
 * Any context (completion handlers run in softirq or a workqueue):
 * allocates atomically and never sleeps. Rate-limited module-wide.
 */
void xr_nl_notify_wc_error(struct xr_ep *ep, enum xrpcrdma_wc_kind kind,
			   const struct ib_wc *wc)
{
	struct xr_nl_wc_event ev = {
		.we_ep = ep,
		.we_wc = wc,
		.we_kind = kind,
	};
	struct net *net = ep->ep_id->route.addr.dev_addr.net;

	if (!xr_nl_listening(net) || !xr_nl_wc_ratelimit(&ev.we_suppressed))
		return;
	xr_nl_event(net, XRPCRDMA_CMD_COMPLETION_ERROR_NTF,
		    xr_nl_fill_wc_event, &ev, GFP_ATOMIC);
}

static int xr_nl_fill_bench_event(struct sk_buff *msg, void *arg)
{
	return xr_nl_fill_bench(msg, arg);
}

/**
 * xr_nl_notify_bench - a benchmark's progress, or its result
 * @net: the namespace it runs in
 * @r: its state
 * @done: it finished (bench-done-ntf), else bench-progress-ntf
 */
void xr_nl_notify_bench(struct net *net, const struct xr_bench_result *r,
			bool done)
{
	if (!xr_nl_listening(net))
		return;
	xr_nl_event(net, done ? XRPCRDMA_CMD_BENCH_DONE_NTF :
		    XRPCRDMA_CMD_BENCH_PROGRESS_NTF, xr_nl_fill_bench_event,
		    (void *)r, GFP_KERNEL);
}

/**
 * xr_nl_init - register the xrpcrdma generic netlink family
 *
 * Return: 0, or a negative errno from genl_register_family().
 */
int xr_nl_init(void)
{
	int err;

	err = genl_register_family(&xrpcrdma_nl_family);
	if (!err)
		WRITE_ONCE(xr_nl_up, true);
	return err;
}

/**
 * xr_nl_exit - unregister the family; no handler runs after this returns
 *
 * No event is sent after this returns either: events in flight finish
 * before the family goes.
 */
void xr_nl_exit(void)
{
	WRITE_ONCE(xr_nl_up, false);
	synchronize_rcu();
	genl_unregister_family(&xrpcrdma_nl_family);
}
