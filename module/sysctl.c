// SPDX-License-Identifier: GPL-2.0
/*
 * sysctl.c - in drop-in mode, the sysctls an administrator already sets
 * for the in-tree transport: the client's under /proc/sys/sunrpc/ and the
 * server's under /proc/sys/sunrpc/svc_rdma/. Each name that has an
 * xrpcrdma tunable of the same meaning reads and writes that tunable's
 * default for new transports (config.c), so the sysctl and the netlink
 * (`rdmactl config`) views of it can never differ; the range is the
 * tunable's. Side by side, rpcrdma owns these names and none is
 * registered here.
 *
 * xrpcrdma has one inline size per direction for both roles, so the
 * client's rdma_max_inline_read and the server's max_req_size (the
 * inline size each receives) are the same tunable, inline-recv.
 *
 * Names with no tunable behind them, kept so that scripts setting them
 * go on working:
 * - rdma_inline_write_padding and rdma_pad_optimize: the in-tree client
 *   takes and ignores them; so does xrpcrdma;
 * - rdma_memreg_strategy: fast registration (5) is the only strategy of
 *   either client; other values are refused;
 * - max_bc_requests: the backchannel credits xrpcrdma's server grants,
 *   fixed: read-only;
 * - max_outbound_read_requests: the in-tree server keeps it (1 to 255)
 *   and uses it no more; so does xrpcrdma.
 *
 * The server's counters, rdma_stat_*: those the in-tree server still
 * keeps read xrpcrdma's server counters of the same meaning, module-wide
 * (xr_svc_totals()), less what they were when last reset: a write of any
 * value resets the sysctl's view, never the netlink counters.
 * rdma_stat_{rq,sq}_{poll,prod} and rdma_stat_rq_starve read 0, as
 * in-tree.
 */
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/sysctl.h>

#include "core.h"
#include "snap.h"
#include "stats.h"

/* The in-tree client's value for fast registration (FRWR). */
#define XR_SYSCTL_MEMREG_FRWR	5
/* The in-tree client's bound on rdma_inline_write_padding. */
#define XR_SYSCTL_MAX_PADDING	65536
/* The in-tree server's default and bound for max_outbound_read_requests. */
#define XR_SYSCTL_ORD		16
#define XR_SYSCTL_MAX_ORD	255

/*
 * Read or write the default of the tunable @table->extra1 points to,
 * within its range. A write changes that one tunable only.
 */
static int xr_sysctl_tunable(XR_CTL_TABLE *table, int write, void *buffer,
			     size_t *lenp, loff_t *ppos)
{
	enum xr_cfg cfg = *(const enum xr_cfg *)table->extra1;
	const struct xr_config_def *cd = xr_config_def(cfg);
	bool given[XR_CFG_COUNT] = {};
	unsigned int min = cd->cd_min, max = cd->cd_max, val;
	struct xr_config vals;
	struct ctl_table tmp = {
		.procname	= table->procname,
		.data		= &val,
		.maxlen		= sizeof(val),
		.mode		= table->mode,
		.extra1		= &min,
		.extra2		= &max,
	};
	int err;

	xr_config_snapshot(&vals);
	val = vals.cf_val[cfg];
	err = proc_douintvec_minmax(&tmp, write, buffer, lenp, ppos);
	if (err || !write)
		return err;
	vals.cf_val[cfg] = val;
	given[cfg] = true;
	return xr_config_set_defaults(&vals, given) ? -EINVAL : 0;
}

/* What each server counter read when its sysctl was last written. */
static u64 xr_sysctl_stat_base[XR_SVC_STAT_COUNT];
static DEFINE_MUTEX(xr_sysctl_stat_lock);

/*
 * Read the server counter @table->extra1 points to, since its last
 * reset; a write, whatever its value, resets it.
 */
static int xr_sysctl_stat(XR_CTL_TABLE *table, int write, void *buffer,
			  size_t *lenp, loff_t *ppos)
{
	enum xr_svc_stat stat = *(const enum xr_svc_stat *)table->extra1;
	u64 sum[XR_SVC_STAT_COUNT];
	unsigned long val;
	struct ctl_table tmp = {
		.procname	= table->procname,
		.data		= &val,
		.maxlen		= sizeof(val),
		.mode		= table->mode,
	};

	xr_svc_totals(sum);
	mutex_lock(&xr_sysctl_stat_lock);
	if (write)
		xr_sysctl_stat_base[stat] = sum[stat];
	/* Below the base only when a reset raced this read. */
	val = sum[stat] - min(sum[stat], xr_sysctl_stat_base[stat]);
	mutex_unlock(&xr_sysctl_stat_lock);
	if (write)
		return 0;
	return proc_doulongvec_minmax(&tmp, 0, buffer, lenp, ppos);
}

/* The server counters behind the rdma_stat_* names (ctl_table.extra1). */
enum {
	XR_SS_READ,
	XR_SS_RECV,
	XR_SS_WRITE,
	XR_SS_SQ_STARVE,
	XR_SS_COUNT
};

static const enum xr_svc_stat xr_sysctl_stats[XR_SS_COUNT] = {
	[XR_SS_READ]		= XR_SVC_STAT_RDMA_READ_SEGS,
	[XR_SS_RECV]		= XR_SVC_STAT_CALLS_RECEIVED,
	[XR_SS_WRITE]		= XR_SVC_STAT_RDMA_WRITE_SEGS,
	[XR_SS_SQ_STARVE]	= XR_SVC_STAT_SQ_STARVES,
};

#define XR_SYSCTL_STAT(name, i) {				\
	.procname	= name,					\
	.maxlen		= sizeof(unsigned long),		\
	.mode		= 0644,					\
	.proc_handler	= xr_sysctl_stat,			\
	.extra1		= (void *)&xr_sysctl_stats[i],		\
}

/* A counter the in-tree server keeps no more: 0, and only 0 is taken. */
#define XR_SYSCTL_STAT_UNUSED(name) {				\
	.procname	= name,					\
	.data		= &xr_sysctl_unused,			\
	.maxlen		= sizeof(unsigned int),			\
	.mode		= 0644,					\
	.proc_handler	= proc_douintvec_minmax,		\
	.extra1		= SYSCTL_ZERO,				\
	.extra2		= SYSCTL_ZERO,				\
}

/* The tunables behind the names, for the handler (ctl_table.extra1). */
enum {
	XR_SC_CREDITS,
	XR_SC_CLIENT_CREDITS,
	XR_SC_INLINE_SEND,
	XR_SC_INLINE_RECV,
	XR_SC_COUNT
};

static const enum xr_cfg xr_sysctl_cfgs[XR_SC_COUNT] = {
	[XR_SC_CREDITS]		= XR_CFG_CREDITS,
	[XR_SC_CLIENT_CREDITS]	= XR_CFG_CLIENT_CREDITS,
	[XR_SC_INLINE_SEND]	= XR_CFG_INLINE_SEND,
	[XR_SC_INLINE_RECV]	= XR_CFG_INLINE_RECV,
};

#define XR_SYSCTL_TUNABLE(name, sc) {				\
	.procname	= name,					\
	.maxlen		= sizeof(unsigned int),			\
	.mode		= 0644,					\
	.proc_handler	= xr_sysctl_tunable,			\
	.extra1		= (void *)&xr_sysctl_cfgs[sc],		\
}

static unsigned int xr_sysctl_padding;
static int xr_sysctl_pad_optimize;
static unsigned int xr_sysctl_memreg = XR_SYSCTL_MEMREG_FRWR;
static const unsigned int xr_sysctl_memreg_frwr = XR_SYSCTL_MEMREG_FRWR;
static const unsigned int xr_sysctl_max_padding = XR_SYSCTL_MAX_PADDING;
static unsigned int xr_sysctl_bc_requests = XR_BC_MAX_REQUESTS;
static unsigned int xr_sysctl_ord = XR_SYSCTL_ORD;
static const unsigned int xr_sysctl_max_ord = XR_SYSCTL_MAX_ORD;
static unsigned int xr_sysctl_unused;

static struct ctl_table xr_sysctl_client[] = {
	XR_SYSCTL_TUNABLE("rdma_slot_table_entries", XR_SC_CLIENT_CREDITS),
	XR_SYSCTL_TUNABLE("rdma_max_inline_read", XR_SC_INLINE_RECV),
	XR_SYSCTL_TUNABLE("rdma_max_inline_write", XR_SC_INLINE_SEND),
	{
		.procname	= "rdma_inline_write_padding",
		.data		= &xr_sysctl_padding,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= (void *)&xr_sysctl_max_padding,
	},
	{
		.procname	= "rdma_memreg_strategy",
		.data		= &xr_sysctl_memreg,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= (void *)&xr_sysctl_memreg_frwr,
		.extra2		= (void *)&xr_sysctl_memreg_frwr,
	},
	{
		.procname	= "rdma_pad_optimize",
		.data		= &xr_sysctl_pad_optimize,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec,
	},
	XR_SYSCTL_TABLE_END
};

static struct ctl_table xr_sysctl_server[] = {
	XR_SYSCTL_TUNABLE("max_requests", XR_SC_CREDITS),
	XR_SYSCTL_TUNABLE("max_req_size", XR_SC_INLINE_RECV),
	{
		.procname	= "max_bc_requests",
		.data		= &xr_sysctl_bc_requests,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0444,
		.proc_handler	= proc_douintvec,
	},
	{
		.procname	= "max_outbound_read_requests",
		.data		= &xr_sysctl_ord,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= SYSCTL_ONE,
		.extra2		= (void *)&xr_sysctl_max_ord,
	},
	XR_SYSCTL_STAT("rdma_stat_read", XR_SS_READ),
	XR_SYSCTL_STAT("rdma_stat_recv", XR_SS_RECV),
	XR_SYSCTL_STAT("rdma_stat_write", XR_SS_WRITE),
	XR_SYSCTL_STAT("rdma_stat_sq_starve", XR_SS_SQ_STARVE),
	XR_SYSCTL_STAT_UNUSED("rdma_stat_rq_starve"),
	XR_SYSCTL_STAT_UNUSED("rdma_stat_rq_poll"),
	XR_SYSCTL_STAT_UNUSED("rdma_stat_rq_prod"),
	XR_SYSCTL_STAT_UNUSED("rdma_stat_sq_poll"),
	XR_SYSCTL_STAT_UNUSED("rdma_stat_sq_prod"),
	XR_SYSCTL_TABLE_END
};

static struct ctl_table_header *xr_sysctl_client_hdr;
static struct ctl_table_header *xr_sysctl_server_hdr;

/**
 * xr_sysctl_init - register the in-tree transport's sysctls
 *
 * Only in drop-in mode (the caller checks): side by side they are
 * rpcrdma's.
 *
 * Return values:
 *   %0: registered
 *   %-ENOMEM: not registered (also when another module holds the names)
 */
int xr_sysctl_init(void)
{
	xr_sysctl_client_hdr = register_sysctl("sunrpc", xr_sysctl_client);
	if (!xr_sysctl_client_hdr)
		return -ENOMEM;
	xr_sysctl_server_hdr = register_sysctl("sunrpc/svc_rdma",
					       xr_sysctl_server);
	if (!xr_sysctl_server_hdr) {
		unregister_sysctl_table(xr_sysctl_client_hdr);
		xr_sysctl_client_hdr = NULL;
		return -ENOMEM;
	}
	return 0;
}

/**
 * xr_sysctl_exit - unregister what xr_sysctl_init() registered, if any
 */
void xr_sysctl_exit(void)
{
	if (xr_sysctl_server_hdr)
		unregister_sysctl_table(xr_sysctl_server_hdr);
	if (xr_sysctl_client_hdr)
		unregister_sysctl_table(xr_sysctl_client_hdr);
	xr_sysctl_server_hdr = NULL;
	xr_sysctl_client_hdr = NULL;
}
