// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - the module's counters, each defined once here and shown
 * everywhere from this definition. Today: live-object counts, which make
 * the module its own leak checker (the test kernels have no kmemleak).
 */
#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/kernel.h>
#include <linux/printk.h>

#include "xrpcrdma.h"

static const char * const xr_obj_names[XR_OBJ_COUNT] = {
	[XR_OBJ_DEVICE]		= "device",
	[XR_OBJ_SVC_XPRT]	= "svc-xprt",
	[XR_OBJ_SENDCTX]	= "sendctx",
	[XR_OBJ_RECVCTX]	= "recvctx",
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
		pr_err(XR_MODNAME ": %lld %s object(s) leaked\n",
		       live, xr_obj_names[kind]);
		clean = false;
	}
	WARN(!clean, XR_MODNAME ": objects left behind at unload\n");
	return clean;
}
