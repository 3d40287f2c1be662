// SPDX-License-Identifier: GPL-2.0
/*
 * nl.c - what the handlers of the xrpcrdma generic netlink family share:
 * replies, dumps, addresses, events, and the family's registration. The
 * policy, the ops table and the family come from the spec
 * (Documentation/netlink/specs/xrpcrdma.yaml) through ynl-gen; the
 * handlers are in one file per object (nl_device.c, nl_xprt.c,
 * nl_config.c, nl_fault.c, nl_bench.c). These are the only files that
 * parse or build netlink messages. They own no state of the module and
 * see the other layers only through copies (snap.h).
 */
#include <linux/sunrpc/addr.h>

#include "nl.h"

/**
 * xr_nl_reply - the common body of a "do" handler
 * @info: the request
 * @cmd: the reply's command
 * @fill: fills the reply's attributes
 * @arg: passed to @fill
 *
 * On any error nothing is sent and the caller returns the errno (the core
 * turns it into the ACK).
 *
 * Return: 0 once the reply was sent, or a negative errno.
 */
int xr_nl_reply(struct genl_info *info, u8 cmd, xr_nl_fill_fn fill,
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

/**
 * xr_nl_dump_hdr - start one message of a dump
 * @skb: the dump's buffer
 * @cb: the dump's state
 * @cmd: the message's command
 *
 * Return: the header, or NULL when @skb is full.
 */
void *xr_nl_dump_hdr(struct sk_buff *skb, struct netlink_callback *cb, u8 cmd)
{
	return genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			   &xrpcrdma_nl_family, NLM_F_MULTI, cmd);
}

/**
 * xr_nl_dump_end - what a dump handler returns
 * @skb: the dump's buffer
 * @err: 0 when the walk ended, else the error that stopped it
 *
 * A full buffer (-EMSGSIZE after at least one message) ends this part of
 * the dump; the next part resumes where the handler's state says.
 *
 * Return: the length of @skb, or @err when not even one message fit.
 */
int xr_nl_dump_end(struct sk_buff *skb, int err)
{
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

/**
 * xr_nl_put_addr - the address of one end, as the attribute its family takes
 * @msg: the message
 * @ss: the address; nothing is put for a family other than IPv4 and IPv6
 * @addr4: the attribute type of an IPv4 address
 * @addr6: the attribute type of an IPv6 address
 *
 * Return: 0, or -EMSGSIZE.
 */
int xr_nl_put_addr(struct sk_buff *msg, const struct sockaddr_storage *ss,
		   int addr4, int addr6)
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

/**
 * xr_nl_put_sockaddr - address and port (big-endian) of one end
 * @msg: the message
 * @ss: the address; nothing is put for a family other than IPv4 and IPv6
 * @addr4: the attribute type of an IPv4 address
 * @addr6: the attribute type of an IPv6 address
 * @port: the attribute type of the port
 *
 * Return: 0, or -EMSGSIZE.
 */
int xr_nl_put_sockaddr(struct sk_buff *msg, const struct sockaddr_storage *ss,
		       int addr4, int addr6, int port)
{
	if (xr_nl_put_addr(msg, ss, addr4, addr6))
		return -EMSGSIZE;
	if (ss->ss_family != AF_INET && ss->ss_family != AF_INET6)
		return 0;
	return nla_put_be16(msg, port, htons(rpc_get_port((const struct sockaddr *)ss)));
}

/*
 * Events: notifications to the "events" multicast group. They are built
 * only when someone listens, may be sent from any context (the caller
 * passes the allocation flags its context allows), and never after
 * xr_nl_exit() began: xr_nl_up is cleared and an RCU grace period waited
 * for before the family (and its group numbers) goes away.
 */
static bool xr_nl_up;

/**
 * xr_nl_listening - does anyone in @net listen to xrpcrdma's events?
 * @net: the namespace
 *
 * Layers ask before they copy what an event shows: nobody listening
 * costs them nothing. Any context.
 *
 * Return: true when an event sent now would reach someone.
 */
bool xr_nl_listening(struct net *net)
{
	return READ_ONCE(xr_nl_up) &&
	       genl_has_listeners(&xrpcrdma_nl_family, net,
				  XRPCRDMA_NLGRP_EVENTS);
}

/**
 * xr_nl_event - build an event and send it to the listeners
 * @net: the namespace whose listeners get it
 * @cmd: the event's command
 * @fill: fills its attributes
 * @arg: passed to @fill
 * @gfp: what the caller's context allows
 */
void xr_nl_event(struct net *net, u8 cmd, xr_nl_event_fill_fn fill,
		 const void *arg, gfp_t gfp)
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
