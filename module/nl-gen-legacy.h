/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/xrpcrdma.yaml (per-op form, scripts/nl-legacy-spec.py) */
/* YNL-GEN kernel header */

#ifndef _LINUX_XRPCRDMA_GEN_H
#define _LINUX_XRPCRDMA_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/xrpcrdma.h>

/* Common nested types */
extern const struct nla_policy xrpcrdma_stat_nl_policy[XRPCRDMA_A_STAT_PAD + 1];

extern const struct nla_policy xrpcrdma_device_get_nl_policy[XRPCRDMA_A_DEVICE_NAME + 1];

extern const struct nla_policy xrpcrdma_device_set_nl_policy[XRPCRDMA_A_DEVICE_ENABLED + 1];

extern const struct nla_policy xrpcrdma_module_get_nl_policy[XRPCRDMA_A_MODULE_VERSION + 1];

extern const struct nla_policy xrpcrdma_transport_get_nl_policy[XRPCRDMA_A_TRANSPORT_ID + 1];

extern const struct nla_policy xrpcrdma_listener_get_nl_policy[XRPCRDMA_A_TRANSPORT_ID + 1];

extern const struct nla_policy xrpcrdma_listener_del_nl_policy[XRPCRDMA_A_TRANSPORT_ID + 1];

extern const struct nla_policy xrpcrdma_stats_get_nl_policy[XRPCRDMA_A_STATS_STAT + 1];

extern const struct nla_policy xrpcrdma_bench_run_nl_policy[XRPCRDMA_A_BENCH_REPLY_SIZE + 1];

extern const struct nla_policy xrpcrdma_bench_get_nl_policy[XRPCRDMA_A_BENCH_ID + 1];

extern const struct nla_policy xrpcrdma_fault_set_nl_policy[XRPCRDMA_A_FAULT_TRANSPORT_ID + 1];

extern const struct nla_policy xrpcrdma_fault_get_nl_policy[XRPCRDMA_A_FAULT_POINT + 1];

extern const struct nla_policy xrpcrdma_config_get_nl_policy[XRPCRDMA_A_CONFIG_TRANSPORT_ID + 1];

extern const struct nla_policy xrpcrdma_config_set_nl_policy[XRPCRDMA_A_CONFIG_SEND_TIMEOUT + 1];

/* Ops table for xrpcrdma */
extern const struct genl_ops xrpcrdma_nl_ops[13];

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

#endif /* _LINUX_XRPCRDMA_GEN_H */
