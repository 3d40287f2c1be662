/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fault.h - fault points (fault.c): named places in the transport that
 * fail on purpose when the administrator arms them, for the selftests.
 */
#ifndef _XRPCRDMA_FAULT_H
#define _XRPCRDMA_FAULT_H

#include <linux/jump_label.h>
#include <linux/types.h>
#include <uapi/linux/xrpcrdma.h>

struct ib_wc;
struct xr_ep;

/* Number of fault points (enum xrpcrdma_fault_point). */
#define XR_FAULT_POINT_COUNT	(XRPCRDMA_FAULT_POINT_BC_RELEASE_DELAY + 1)

/**
 * struct xr_fault_arm - how a fault point is armed
 * @fa_trigger: an &enum xrpcrdma_fault_trigger; off: disarmed
 * @fa_n: nth and every: which hit fires
 * @fa_probability: probability: the chance of each hit, per million
 * @fa_times: every and probability: most firings, 0 for no limit
 * @fa_errno: the points that fail an operation: the positive errno it
 *	returns negated
 * @fa_delay_ms: the points that hold their caller back: how long
 * @fa_transport_id: only this transport hits the point; 0: every one
 */
struct xr_fault_arm {
	u32	fa_trigger;
	u32	fa_n;
	u32	fa_probability;
	u32	fa_times;
	u32	fa_errno;
	u32	fa_delay_ms;
	u32	fa_transport_id;
};

DECLARE_STATIC_KEY_FALSE(xr_fault_key);

const char *xr_fault_name(enum xrpcrdma_fault_point point);
bool xr_fault_takes_errno(enum xrpcrdma_fault_point point);
bool xr_fault_takes_delay(enum xrpcrdma_fault_point point);
int __xr_fault_hit(enum xrpcrdma_fault_point point, const struct xr_ep *ep);
void __xr_fault_wc(const struct xr_ep *ep, struct ib_wc *wc);
void __xr_fault_delay(enum xrpcrdma_fault_point point, const struct xr_ep *ep);
void __xr_fault_delay_id(enum xrpcrdma_fault_point point, u32 transport_id);
int xr_fault_set(enum xrpcrdma_fault_point point,
		 const struct xr_fault_arm *arm);
void xr_fault_get(enum xrpcrdma_fault_point point, struct xr_fault_arm *arm,
		  u64 *hits, u64 *fired);
void xr_fault_exit(void);

/**
 * xr_fault_hit - reach a fault point
 * @point: which one
 * @ep: the endpoint of the transport reaching it, or NULL
 *
 * A patched-out branch while no point is armed. The caller treats a
 * non-zero return as the failure of the operation the point stands for,
 * and takes the path a real failure takes.
 *
 * Return: 0, or the fired point's value (see __xr_fault_hit()).
 */
static __always_inline int xr_fault_hit(enum xrpcrdma_fault_point point,
					const struct xr_ep *ep)
{
	if (static_branch_unlikely(&xr_fault_key))
		return __xr_fault_hit(point, ep);
	return 0;
}

/**
 * xr_fault_wc - let the completion fault points act on a completion
 * @ep: the endpoint the work request was posted on
 * @wc: the completion; its status may be changed to an error
 *
 * For completion handlers, first thing; they may sleep here.
 */
static __always_inline void xr_fault_wc(const struct xr_ep *ep,
					struct ib_wc *wc)
{
	if (static_branch_unlikely(&xr_fault_key))
		__xr_fault_wc(ep, wc);
}

/**
 * xr_fault_delay - reach a fault point that holds its caller back
 * @point: a point for which xr_fault_takes_delay() is true
 * @ep: the endpoint of the transport reaching it, or NULL
 *
 * Sleeps the armed delay when the point fires; for callers that may.
 */
static __always_inline void xr_fault_delay(enum xrpcrdma_fault_point point,
					   const struct xr_ep *ep)
{
	if (static_branch_unlikely(&xr_fault_key))
		__xr_fault_delay(point, ep);
}

/**
 * xr_fault_delay_id - reach a fault point that holds its caller back,
 *	where no endpoint is at hand
 * @point: a point for which xr_fault_takes_delay() is true
 * @transport_id: the number of the transport reaching it
 *
 * As xr_fault_delay().
 */
static __always_inline void xr_fault_delay_id(enum xrpcrdma_fault_point point,
					      u32 transport_id)
{
	if (static_branch_unlikely(&xr_fault_key))
		__xr_fault_delay_id(point, transport_id);
}

#endif /* _XRPCRDMA_FAULT_H */
