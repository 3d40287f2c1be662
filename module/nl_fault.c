// SPDX-License-Identifier: GPL-2.0
/*
 * nl_fault.c - the fault point objects of the xrpcrdma family: fault-set
 * and fault-get, on fault.c's arming interface.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "nl.h"

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
	arm->fa_times = xr_nl_u32_or(info, XRPCRDMA_A_FAULT_TIMES, 0);
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
	if (!xr_fault_takes_delay(point) &&
	    xr_nl_fault_extra(info, XRPCRDMA_A_FAULT_DELAY_MS,
			      "delay-ms is only for points that hold their caller back"))
		return -EINVAL;
	arm->fa_errno = xr_nl_u32_or(info, XRPCRDMA_A_FAULT_ERRNO,
				     XR_NL_FAULT_ERRNO);
	arm->fa_delay_ms = xr_nl_u32_or(info, XRPCRDMA_A_FAULT_DELAY_MS,
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
 *   %-EPERM: from another network namespace than the initial one (the
 *	fault points are the whole module's)
 */
int xrpcrdma_nl_fault_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct xr_fault_arm arm = {};
	u32 point;
	int err;

	if (!xr_nl_module_wide_ok(info))
		return -EPERM;
	err = -EINVAL;
	if (XR_NL_REQUIRE(info, XRPCRDMA_A_FAULT_POINT, "fault point"))
		goto out;
	point = nla_get_u32(info->attrs[XRPCRDMA_A_FAULT_POINT]);
	arm.fa_trigger = xr_nl_u32_or(info, XRPCRDMA_A_FAULT_TRIGGER,
				      XRPCRDMA_FAULT_TRIGGER_OFF);
	if (arm.fa_trigger == XRPCRDMA_FAULT_TRIGGER_OFF) {
		err = xr_nl_fault_off(info);
	} else {
		err = xr_nl_fault_trigger(info, &arm);
		if (!err)
			err = xr_nl_fault_effect(info, point, &arm);
		arm.fa_transport_id =
			xr_nl_u32_or(info, XRPCRDMA_A_FAULT_TRANSPORT_ID, 0);
	}
	if (err)
		goto out;
	err = xr_fault_set(point, &arm);
	if (err)
		goto out;
	pr_info("fault point %s %s\n", xr_fault_name(point),
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
	if (xr_fault_takes_delay(point) &&
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
		hdr = xr_nl_dump_hdr(skb, cb, XRPCRDMA_CMD_FAULT_GET);
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

	return xr_nl_dump_end(skb, err);
}
