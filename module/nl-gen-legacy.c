// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/xrpcrdma.yaml (per-op form, scripts/nl-legacy-spec.py) */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "nl-gen-legacy.h"

#include <uapi/linux/xrpcrdma.h>

/* Common nested types */
const struct nla_policy xrpcrdma_stat_nl_policy[XRPCRDMA_A_STAT_PAD + 1] = {
	[XRPCRDMA_A_STAT_NAME] = { .type = NLA_NUL_STRING, },
	[XRPCRDMA_A_STAT_VALUE] = { .type = NLA_U64, },
};

/* XRPCRDMA_CMD_DEVICE_GET - do */
const struct nla_policy xrpcrdma_device_get_nl_policy[XRPCRDMA_A_DEVICE_NAME + 1] = {
	[XRPCRDMA_A_DEVICE_NAME] = { .type = NLA_NUL_STRING, .len = XRPCRDMA_DEV_NAME_MAX_LEN, },
};

/* XRPCRDMA_CMD_DEVICE_SET - do */
const struct nla_policy xrpcrdma_device_set_nl_policy[XRPCRDMA_A_DEVICE_ENABLED + 1] = {
	[XRPCRDMA_A_DEVICE_NAME] = { .type = NLA_NUL_STRING, .len = XRPCRDMA_DEV_NAME_MAX_LEN, },
	[XRPCRDMA_A_DEVICE_ENABLED] = NLA_POLICY_MAX(NLA_U8, 1),
};

/* XRPCRDMA_CMD_MODULE_GET - do */
const struct nla_policy xrpcrdma_module_get_nl_policy[XRPCRDMA_A_MODULE_VERSION + 1] = {
	[XRPCRDMA_A_MODULE_VERSION] = { .type = NLA_NUL_STRING, },
};

/* XRPCRDMA_CMD_TRANSPORT_GET - do */
const struct nla_policy xrpcrdma_transport_get_nl_policy[XRPCRDMA_A_TRANSPORT_ID + 1] = {
	[XRPCRDMA_A_TRANSPORT_ID] = { .type = NLA_U32, },
};

/* XRPCRDMA_CMD_LISTENER_GET - do */
const struct nla_policy xrpcrdma_listener_get_nl_policy[XRPCRDMA_A_TRANSPORT_ID + 1] = {
	[XRPCRDMA_A_TRANSPORT_ID] = { .type = NLA_U32, },
};

/* XRPCRDMA_CMD_LISTENER_DEL - do */
const struct nla_policy xrpcrdma_listener_del_nl_policy[XRPCRDMA_A_TRANSPORT_ID + 1] = {
	[XRPCRDMA_A_TRANSPORT_ID] = { .type = NLA_U32, },
};

/* XRPCRDMA_CMD_STATS_GET - do */
const struct nla_policy xrpcrdma_stats_get_nl_policy[XRPCRDMA_A_STATS_STAT + 1] = {
	[XRPCRDMA_A_STATS_STAT] = NLA_POLICY_NESTED(xrpcrdma_stat_nl_policy),
};

/* XRPCRDMA_CMD_BENCH_RUN - do */
const struct nla_policy xrpcrdma_bench_run_nl_policy[XRPCRDMA_A_BENCH_REPLY_SIZE + 1] = {
	[XRPCRDMA_A_BENCH_TRANSPORT] = NLA_POLICY_MAX(NLA_U32, 1),
	[XRPCRDMA_A_BENCH_ADDR4] = { .type = NLA_U32, },
	[XRPCRDMA_A_BENCH_ADDR6] = NLA_POLICY_EXACT_LEN(16),
	[XRPCRDMA_A_BENCH_PORT] = { .type = NLA_U16, },
	[XRPCRDMA_A_BENCH_PROGRAM] = { .type = NLA_U32, },
	[XRPCRDMA_A_BENCH_VERSION] = NLA_POLICY_RANGE(NLA_U32, 1, 31),
	[XRPCRDMA_A_BENCH_COUNT] = { .type = NLA_U32, },
	[XRPCRDMA_A_BENCH_CONCURRENCY] = NLA_POLICY_RANGE(NLA_U32, 1, XRPCRDMA_BENCH_MAX_INFLIGHT),
	[XRPCRDMA_A_BENCH_OP] = NLA_POLICY_MAX(NLA_U32, 2),
	[XRPCRDMA_A_BENCH_SIZE] = NLA_POLICY_MIN(NLA_U32, 1),
	[XRPCRDMA_A_BENCH_QPS] = NLA_POLICY_RANGE(NLA_U32, 1, XRPCRDMA_BENCH_MAX_QPS),
	[XRPCRDMA_A_BENCH_REPLY_SIZE] = { .type = NLA_U32, },
};

/* XRPCRDMA_CMD_BENCH_GET - do */
const struct nla_policy xrpcrdma_bench_get_nl_policy[XRPCRDMA_A_BENCH_ID + 1] = {
	[XRPCRDMA_A_BENCH_ID] = { .type = NLA_U32, },
};

/* XRPCRDMA_CMD_FAULT_SET - do */
const struct nla_policy xrpcrdma_fault_set_nl_policy[XRPCRDMA_A_FAULT_TRANSPORT_ID + 1] = {
	[XRPCRDMA_A_FAULT_POINT] = NLA_POLICY_MAX(NLA_U32, 13),
	[XRPCRDMA_A_FAULT_TRIGGER] = NLA_POLICY_MAX(NLA_U32, 3),
	[XRPCRDMA_A_FAULT_N] = NLA_POLICY_MIN(NLA_U32, 1),
	[XRPCRDMA_A_FAULT_PROBABILITY] = { .type = NLA_U32, },
	[XRPCRDMA_A_FAULT_TIMES] = { .type = NLA_U32, },
	[XRPCRDMA_A_FAULT_ERRNO] = NLA_POLICY_RANGE(NLA_U32, 1, 133),
	[XRPCRDMA_A_FAULT_DELAY_MS] = NLA_POLICY_MAX(NLA_U32, 10000),
	[XRPCRDMA_A_FAULT_TRANSPORT_ID] = { .type = NLA_U32, },
};

/* XRPCRDMA_CMD_FAULT_GET - do */
const struct nla_policy xrpcrdma_fault_get_nl_policy[XRPCRDMA_A_FAULT_POINT + 1] = {
	[XRPCRDMA_A_FAULT_POINT] = NLA_POLICY_MAX(NLA_U32, 13),
};

/* XRPCRDMA_CMD_CONFIG_GET - do */
const struct nla_policy xrpcrdma_config_get_nl_policy[XRPCRDMA_A_CONFIG_TRANSPORT_ID + 1] = {
	[XRPCRDMA_A_CONFIG_TRANSPORT_ID] = { .type = NLA_U32, },
};

/* XRPCRDMA_CMD_CONFIG_SET - do */
const struct nla_policy xrpcrdma_config_set_nl_policy[XRPCRDMA_A_CONFIG_SEND_TIMEOUT + 1] = {
	[XRPCRDMA_A_CONFIG_TRANSPORT_ID] = { .type = NLA_U32, },
	[XRPCRDMA_A_CONFIG_CREDITS] = { .type = NLA_U32, },
	[XRPCRDMA_A_CONFIG_CLIENT_CREDITS] = { .type = NLA_U32, },
	[XRPCRDMA_A_CONFIG_INLINE_SEND] = { .type = NLA_U32, },
	[XRPCRDMA_A_CONFIG_INLINE_RECV] = { .type = NLA_U32, },
	[XRPCRDMA_A_CONFIG_SQ_DEPTH] = { .type = NLA_U32, },
	[XRPCRDMA_A_CONFIG_RQ_DEPTH] = { .type = NLA_U32, },
	[XRPCRDMA_A_CONFIG_SENDCTX_MAX] = { .type = NLA_U32, },
	[XRPCRDMA_A_CONFIG_MAX_FRWR_SEGMENTS] = { .type = NLA_U32, },
	[XRPCRDMA_A_CONFIG_CONNECT_TIMEOUT] = { .type = NLA_U32, },
	[XRPCRDMA_A_CONFIG_RECONNECT_MIN] = { .type = NLA_U32, },
	[XRPCRDMA_A_CONFIG_RECONNECT_MAX] = { .type = NLA_U32, },
	[XRPCRDMA_A_CONFIG_IDLE_TIMEOUT] = { .type = NLA_U32, },
	[XRPCRDMA_A_CONFIG_SIGNAL_INTERVAL] = { .type = NLA_U32, },
	[XRPCRDMA_A_CONFIG_SEND_TIMEOUT] = { .type = NLA_U32, },
};

/* Ops table for xrpcrdma */
const struct genl_ops xrpcrdma_nl_ops[13] = {
	{
		.cmd		= XRPCRDMA_CMD_DEVICE_GET,
		.doit		= xrpcrdma_nl_device_get_doit,
		.dumpit		= xrpcrdma_nl_device_get_dumpit,
		.policy		= xrpcrdma_device_get_nl_policy,
		.maxattr	= XRPCRDMA_A_DEVICE_NAME,
	},
	{
		.cmd		= XRPCRDMA_CMD_DEVICE_SET,
		.doit		= xrpcrdma_nl_device_set_doit,
		.policy		= xrpcrdma_device_set_nl_policy,
		.maxattr	= XRPCRDMA_A_DEVICE_ENABLED,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= XRPCRDMA_CMD_MODULE_GET,
		.doit		= xrpcrdma_nl_module_get_doit,
		.policy		= xrpcrdma_module_get_nl_policy,
		.maxattr	= XRPCRDMA_A_MODULE_VERSION,
	},
	{
		.cmd		= XRPCRDMA_CMD_TRANSPORT_GET,
		.doit		= xrpcrdma_nl_transport_get_doit,
		.dumpit		= xrpcrdma_nl_transport_get_dumpit,
		.policy		= xrpcrdma_transport_get_nl_policy,
		.maxattr	= XRPCRDMA_A_TRANSPORT_ID,
	},
	{
		.cmd		= XRPCRDMA_CMD_LISTENER_GET,
		.doit		= xrpcrdma_nl_listener_get_doit,
		.dumpit		= xrpcrdma_nl_listener_get_dumpit,
		.policy		= xrpcrdma_listener_get_nl_policy,
		.maxattr	= XRPCRDMA_A_TRANSPORT_ID,
	},
	{
		.cmd		= XRPCRDMA_CMD_LISTENER_DEL,
		.doit		= xrpcrdma_nl_listener_del_doit,
		.policy		= xrpcrdma_listener_del_nl_policy,
		.maxattr	= XRPCRDMA_A_TRANSPORT_ID,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= XRPCRDMA_CMD_STATS_GET,
		.doit		= xrpcrdma_nl_stats_get_doit,
		.policy		= xrpcrdma_stats_get_nl_policy,
		.maxattr	= XRPCRDMA_A_STATS_STAT,
	},
	{
		.cmd		= XRPCRDMA_CMD_BENCH_RUN,
		.doit		= xrpcrdma_nl_bench_run_doit,
		.policy		= xrpcrdma_bench_run_nl_policy,
		.maxattr	= XRPCRDMA_A_BENCH_REPLY_SIZE,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= XRPCRDMA_CMD_BENCH_GET,
		.doit		= xrpcrdma_nl_bench_get_doit,
		.dumpit		= xrpcrdma_nl_bench_get_dumpit,
		.policy		= xrpcrdma_bench_get_nl_policy,
		.maxattr	= XRPCRDMA_A_BENCH_ID,
	},
	{
		.cmd		= XRPCRDMA_CMD_FAULT_SET,
		.doit		= xrpcrdma_nl_fault_set_doit,
		.policy		= xrpcrdma_fault_set_nl_policy,
		.maxattr	= XRPCRDMA_A_FAULT_TRANSPORT_ID,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= XRPCRDMA_CMD_FAULT_GET,
		.doit		= xrpcrdma_nl_fault_get_doit,
		.dumpit		= xrpcrdma_nl_fault_get_dumpit,
		.policy		= xrpcrdma_fault_get_nl_policy,
		.maxattr	= XRPCRDMA_A_FAULT_POINT,
	},
	{
		.cmd		= XRPCRDMA_CMD_CONFIG_GET,
		.doit		= xrpcrdma_nl_config_get_doit,
		.policy		= xrpcrdma_config_get_nl_policy,
		.maxattr	= XRPCRDMA_A_CONFIG_TRANSPORT_ID,
	},
	{
		.cmd		= XRPCRDMA_CMD_CONFIG_SET,
		.doit		= xrpcrdma_nl_config_set_doit,
		.policy		= xrpcrdma_config_set_nl_policy,
		.maxattr	= XRPCRDMA_A_CONFIG_SEND_TIMEOUT,
		.flags		= GENL_ADMIN_PERM,
	},
};

static const struct genl_multicast_group xrpcrdma_nl_mcgrps[] = {
	[XRPCRDMA_NLGRP_EVENTS] = { "events", },
};
