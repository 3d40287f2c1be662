// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - the module's counters, each defined once here and shown
 * everywhere from this definition: live-object counts, which make the
 * module its own leak checker (the test kernels have no kmemleak), and the
 * names of the server's per-connection counters with the module-wide
 * totals of the connections already gone, and the names of the client
 * transport's counters.
 *
 * Per-connection counters are atomic64_t in the connection (struct
 * xr_svc_stats): one atomic add per event, on a cache line the connection
 * already touches. Nothing global is written on the data path: when a
 * connection goes away its counts are added to the retired totals here,
 * and the module-wide view is those totals plus the live connections
 * (xr_svc_totals() in svc_snap.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/printk.h>

#include "core.h"
#include "stats.h"

static const char * const xr_obj_names[XR_OBJ_COUNT] = {
	[XR_OBJ_DEVICE]		= "device",
	[XR_OBJ_SVC_XPRT]	= "svc-xprt",
	[XR_OBJ_SENDCTX]	= "sendctx",
	[XR_OBJ_RECVCTX]	= "recvctx",
	[XR_OBJ_XPRT]		= "xprt",
	[XR_OBJ_XCONN]		= "xprt-conn",
	[XR_OBJ_MR]		= "mr",
	[XR_OBJ_REQ]		= "xprt-req",
	[XR_OBJ_BC_RQST]	= "xprt-bc-rqst",
};

static atomic64_t xr_obj_counts[XR_OBJ_COUNT];

/**
 * xr_obj_get - count one more live object of @kind
 * @kind: kind of the object just created
 */
void xr_obj_get(enum xr_obj kind)
{
	atomic64_inc(&xr_obj_counts[kind]);
}

/**
 * xr_obj_put - count one live object of @kind less
 * @kind: kind of the object just released
 *
 * Releasing more objects than were created is a bug: it warns once.
 */
void xr_obj_put(enum xr_obj kind)
{
	WARN_ONCE(atomic64_dec_return(&xr_obj_counts[kind]) < 0,
		  XR_MODNAME ": more %s objects released than created\n",
		  xr_obj_names[kind]);
}

/**
 * xr_obj_live - number of live objects of @kind
 * @kind: kind of object
 *
 * Return: the count; it can change as soon as it is read.
 */
s64 xr_obj_live(enum xr_obj kind)
{
	return atomic64_read(&xr_obj_counts[kind]);
}

/**
 * xr_obj_name - stable name of an object kind, as shown through netlink
 * @kind: kind of object
 *
 * Return: a static string.
 */
const char *xr_obj_name(enum xr_obj kind)
{
	return xr_obj_names[kind];
}

/**
 * xr_obj_check_all_released - verify nothing is left before unload
 *
 * Logs each kind that still has live objects and warns, so a test host
 * that watches for kernel warnings fails the run.
 *
 * Return: true when every count is zero.
 */
bool xr_obj_check_all_released(void)
{
	bool clean = true;
	int kind;

	for (kind = 0; kind < XR_OBJ_COUNT; kind++) {
		s64 live = xr_obj_live(kind);

		if (!live)
			continue;
		pr_err("%lld %s object(s) leaked\n",
		       live, xr_obj_names[kind]);
		clean = false;
	}
	WARN(!clean, XR_MODNAME ": objects left behind at unload\n");
	return clean;
}

static const char * const xr_svc_stat_names[XR_SVC_STAT_COUNT] = {
	[XR_SVC_STAT_CALLS_RECEIVED]		= "calls-received",
	[XR_SVC_STAT_REPLIES_INLINE]		= "replies-inline",
	[XR_SVC_STAT_REPLIES_WRITE_CHUNK]	= "replies-write-chunk",
	[XR_SVC_STAT_REPLIES_REPLY_CHUNK]	= "replies-reply-chunk",
	[XR_SVC_STAT_RDMA_READ_BYTES]		= "rdma-read-bytes",
	[XR_SVC_STAT_RDMA_WRITE_BYTES]		= "rdma-write-bytes",
	[XR_SVC_STAT_SQ_STARVES]		= "sq-starves",
	[XR_SVC_STAT_SEND_ERRORS]		= "send-errors",
	[XR_SVC_STAT_RECV_ERRORS]		= "recv-errors",
	[XR_SVC_STAT_BAD_HEADERS]		= "bad-headers",
	[XR_SVC_STAT_RDMA_ERRORS_SENT]		= "rdma-errors-sent",
	[XR_SVC_STAT_BC_CALLS_SENT]		= "bc-calls-sent",
	[XR_SVC_STAT_BC_REPLIES_RECEIVED]	= "bc-replies-received",
	[XR_SVC_STAT_SENDS_SIGNALED]		= "sends-signaled",
	[XR_SVC_STAT_REMOTE_INVS]		= "remote-invs",
	[XR_SVC_STAT_SENDCTX_WAITS]		= "sendctx-waits",
	[XR_SVC_STAT_CONNECTS_REJECTED]		= "connects-rejected",
	[XR_SVC_STAT_RDMA_READ_SEGS]		= "rdma-read-segs",
	[XR_SVC_STAT_RDMA_WRITE_SEGS]		= "rdma-write-segs",
};

/* What the connections that are gone counted, added up. */
static atomic64_t xr_svc_stats_gone[XR_SVC_STAT_COUNT];

/**
 * xr_svc_stat_name - stable name of a server counter, as shown through netlink
 * @stat: which counter
 *
 * Return: a static string.
 */
const char *xr_svc_stat_name(enum xr_svc_stat stat)
{
	return xr_svc_stat_names[stat];
}

/**
 * xr_svc_stats_sum - add the counters of a connection to @sum
 * @ss: the connection's counters
 * @sum: %XR_SVC_STAT_COUNT values
 */
void xr_svc_stats_sum(const struct xr_svc_stats *ss, u64 *sum)
{
	int stat;

	for (stat = 0; stat < XR_SVC_STAT_COUNT; stat++)
		sum[stat] += atomic64_read(&ss->ss_count[stat]);
}

/**
 * xr_svc_stats_retire - keep the counts of a connection that goes away
 * @ss: the connection's counters, final
 */
void xr_svc_stats_retire(const struct xr_svc_stats *ss)
{
	int stat;

	for (stat = 0; stat < XR_SVC_STAT_COUNT; stat++)
		atomic64_add(atomic64_read(&ss->ss_count[stat]),
			     &xr_svc_stats_gone[stat]);
}

/**
 * xr_svc_stats_retired - add the counts of the connections gone to @sum
 * @sum: %XR_SVC_STAT_COUNT values
 */
void xr_svc_stats_retired(u64 *sum)
{
	int stat;

	for (stat = 0; stat < XR_SVC_STAT_COUNT; stat++)
		sum[stat] += atomic64_read(&xr_svc_stats_gone[stat]);
}

/* The client transport's counters, in the order they are listed. */
static const struct {
	enum xr_xprt_stat	stat;
	const char		*name;
} xr_xprt_stat_defs[] = {
	{ XR_XPRT_STAT_RPCS_SENT,		"rpcs-sent" },
	{ XR_XPRT_STAT_INLINE_CALLS,		"inline-calls" },
	{ XR_XPRT_STAT_READ_CHUNK_CALLS,	"read-chunk-calls" },
	{ XR_XPRT_STAT_WRITE_CHUNK_CALLS,	"write-chunk-calls" },
	{ XR_XPRT_STAT_REPLY_CHUNK_CALLS,	"reply-chunk-calls" },
	{ XR_XPRT_STAT_NOMSG_CALLS,		"nomsg-calls" },
	{ XR_XPRT_STAT_REGISTRATIONS,		"registrations" },
	{ XR_XPRT_STAT_LOCAL_INVS,		"local-invs" },
	{ XR_XPRT_STAT_RECONNECTS,		"reconnects" },
	{ XR_XPRT_STAT_TIMEOUTS,		"timeouts" },
	{ XR_XPRT_STAT_ENOBUFS,			"enobufs" },
	{ XR_XPRT_STAT_BAD_REPLIES,		"bad-replies" },
	{ XR_XPRT_STAT_READ_SEGS,		"read-segs" },
	{ XR_XPRT_STAT_WRITE_SEGS,		"write-segs" },
	{ XR_XPRT_STAT_REPLY_SEGS,		"reply-segs" },
	{ XR_XPRT_STAT_RDMA_REQ_BYTES,		"rdma-req-bytes" },
	{ XR_XPRT_STAT_RDMA_REPLY_BYTES,	"rdma-reply-bytes" },
	{ XR_XPRT_STAT_PULLUP_BYTES,		"pullup-bytes" },
	{ XR_XPRT_STAT_FIXUP_BYTES,		"fixup-bytes" },
	{ XR_XPRT_STAT_FAILED_MARSHAL,		"failed-marshal" },
	{ XR_XPRT_STAT_MRS_ALLOCATED,		"mrs-allocated" },
	{ XR_XPRT_STAT_EMPTY_SENDCTX,		"empty-sendctx" },
	{ XR_XPRT_STAT_BC_CALLS_RECEIVED,	"bc-calls-received" },
	{ XR_XPRT_STAT_BC_CALLS_DROPPED,	"bc-calls-dropped" },
	{ XR_XPRT_STAT_BC_REPLIES_SENT,		"bc-replies-sent" },
	{ XR_XPRT_STAT_SENDS_SIGNALED,		"sends-signaled" },
	{ XR_XPRT_STAT_REMOTE_INVS,		"remote-invs" },
	{ XR_XPRT_STAT_DIRECT_REPLIES,		"direct-replies" },
	{ XR_XPRT_STAT_RECV_SHORT_COMPLETIONS,	"recv-short-completions" },
};

static_assert(ARRAY_SIZE(xr_xprt_stat_defs) == XR_XPRT_STAT_COUNT);

/**
 * xr_xprt_stat_at - the client counter listed at position @pos
 * @pos: 0 to %XR_XPRT_STAT_COUNT - 1
 * @stat: set to the counter
 *
 * Return: its stable name, as shown through netlink (a static string).
 */
const char *xr_xprt_stat_at(unsigned int pos, enum xr_xprt_stat *stat)
{
	*stat = xr_xprt_stat_defs[pos].stat;
	return xr_xprt_stat_defs[pos].name;
}
