/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nl.h - what the netlink files (nl*.c) share: one file per object of the
 * xrpcrdma family (devices and the module, transports, tunables, fault
 * points, benchmarks), on the helpers of nl.c. Nothing outside nl*.c
 * includes this; the rest of the module reaches netlink only through the
 * notify interface in snap.h.
 */
#ifndef _XRPCRDMA_NL_H
#define _XRPCRDMA_NL_H

#include <net/genetlink.h>

#include "bench.h"
#include "core.h"
#include "fault.h"
#include "snap.h"
#include "stats.h"

#if XR_HAVE_GENL_SPLIT_OPS
#include "nl-gen.h"
#else
#include "nl-gen-legacy.h"
#endif

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
 * Settings of the whole module (the tunables' defaults, fault points) are
 * changed from the initial network namespace only: a caller elsewhere
 * would change them for every namespace. False, with the reason in the
 * extended ack, for a request from another.
 */
static inline bool xr_nl_module_wide_ok(struct genl_info *info)
{
	if (net_eq(genl_info_net(info), &init_net))
		return true;
	NL_SET_ERR_MSG(info->extack,
		       "module-wide settings are changed from the initial network namespace");
	return false;
}

/* The u32 attribute @type of a request, or @dflt when it is absent. */
static inline u32 xr_nl_u32_or(struct genl_info *info, int type, u32 dflt)
{
	return info->attrs[type] ? nla_get_u32(info->attrs[type]) : dflt;
}

/*
 * Fills the attributes of one reply message. Returns 0, or a
 * negative errno that ends the request (-EMSGSIZE when @msg is full).
 */
typedef int (*xr_nl_fill_fn)(struct sk_buff *msg, struct genl_info *info,
			     void *arg);

/* Fills an event's attributes; 0, or -EMSGSIZE. */
typedef int (*xr_nl_event_fill_fn)(struct sk_buff *msg, const void *arg);

int xr_nl_reply(struct genl_info *info, u8 cmd, xr_nl_fill_fn fill,
		void *arg);
void *xr_nl_dump_hdr(struct sk_buff *skb, struct netlink_callback *cb,
		     u8 cmd);
int xr_nl_dump_end(struct sk_buff *skb, int err);
int xr_nl_put_addr(struct sk_buff *msg, const struct sockaddr_storage *ss,
		   int addr4, int addr6);
int xr_nl_put_sockaddr(struct sk_buff *msg, const struct sockaddr_storage *ss,
		       int addr4, int addr6, int port);
void xr_nl_event(struct net *net, u8 cmd, xr_nl_event_fill_fn fill,
		 const void *arg, gfp_t gfp);

#endif /* _XRPCRDMA_NL_H */
