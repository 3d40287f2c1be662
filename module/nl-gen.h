/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/xrpcrdma.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_XRPCRDMA_GEN_H
#define _LINUX_XRPCRDMA_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/xrpcrdma.h>

int xrpcrdma_nl_device_get_doit(struct sk_buff *skb, struct genl_info *info);
int xrpcrdma_nl_device_get_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb);
int xrpcrdma_nl_device_set_doit(struct sk_buff *skb, struct genl_info *info);
int xrpcrdma_nl_module_get_doit(struct sk_buff *skb, struct genl_info *info);
int xrpcrdma_nl_transport_get_doit(struct sk_buff *skb, struct genl_info *info);
int xrpcrdma_nl_transport_get_dumpit(struct sk_buff *skb,
				     struct netlink_callback *cb);
int xrpcrdma_nl_listener_get_doit(struct sk_buff *skb, struct genl_info *info);
int xrpcrdma_nl_listener_get_dumpit(struct sk_buff *skb,
				    struct netlink_callback *cb);
int xrpcrdma_nl_listener_del_doit(struct sk_buff *skb, struct genl_info *info);
int xrpcrdma_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info);
int xrpcrdma_nl_bench_run_doit(struct sk_buff *skb, struct genl_info *info);
int xrpcrdma_nl_bench_get_doit(struct sk_buff *skb, struct genl_info *info);
int xrpcrdma_nl_bench_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb);
int xrpcrdma_nl_fault_set_doit(struct sk_buff *skb, struct genl_info *info);
int xrpcrdma_nl_fault_get_doit(struct sk_buff *skb, struct genl_info *info);
int xrpcrdma_nl_fault_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb);
int xrpcrdma_nl_config_get_doit(struct sk_buff *skb, struct genl_info *info);
int xrpcrdma_nl_config_set_doit(struct sk_buff *skb, struct genl_info *info);

enum {
	XRPCRDMA_NLGRP_EVENTS,
};

extern struct genl_family xrpcrdma_nl_family;

#endif /* _LINUX_XRPCRDMA_GEN_H */
