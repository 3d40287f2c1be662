// SPDX-License-Identifier: GPL-2.0
/*
 * config.c - the tunables: one table that defines each of them once
 * (ranges and defaults come from the netlink spec's constants), the
 * defaults new transports start from, and the rules for changing them.
 * It parses no netlink (nl.c does) and knows no transport's insides: the
 * server and the client read a snapshot when they create a transport and
 * apply the live changes themselves.
 *
 * Consistency: the defaults are one struct under a mutex. A new transport
 * copies the whole struct at once (xr_config_snapshot()), so it never sees
 * half of a config-set, and its copy never changes under it afterwards;
 * only the tunables marked live may later be changed on one transport,
 * by its owner. Every reader runs in process context, where a mutex is
 * allowed; creations are rare, so one lock is enough.
 *
 * What may change live, and why: sendctx-max only bounds how many more
 * send contexts a connection allocates, so lowering or raising it never
 * invalidates anything already posted. Credits, inline sizes and queue
 * depths are promised to the peer or sized into the queue pair and the
 * buffers at creation; they apply to new transports only. The client's
 * timeouts would be safe to change live but a client transport cannot be
 * named by id yet, so they apply to new client transports.
 */
#include <linux/kernel.h>
#include <linux/mutex.h>

#include "core.h"

/*
 * One tunable: XR_CFG_x's entry, from the spec constants
 * XRPCRDMA_CONFIG_x_MIN, _MAX and _DEFAULT and attribute
 * XRPCRDMA_A_CONFIG_x.
 */
#define XR_CFG_DEF(id, text, unit_, roles_, live_) \
	[XR_CFG_##id] = {						\
		.cd_name	= text,					\
		.cd_attr	= XRPCRDMA_A_CONFIG_##id,		\
		.cd_min		= XRPCRDMA_CONFIG_##id##_MIN,		\
		.cd_max		= XRPCRDMA_CONFIG_##id##_MAX,		\
		.cd_default	= XRPCRDMA_CONFIG_##id##_DEFAULT,	\
		.cd_unit	= unit_,				\
		.cd_roles	= roles_,				\
		.cd_live	= live_,				\
	}

#define XR_SVC	XR_CFG_ROLE_SERVER
#define XR_CLT	XR_CFG_ROLE_CLIENT

static const struct xr_config_def xr_config_defs[XR_CFG_COUNT] = {
	XR_CFG_DEF(CREDITS, "credits", "requests", XR_SVC, false),
	XR_CFG_DEF(CLIENT_CREDITS, "client-credits", "requests", XR_CLT,
		   false),
	XR_CFG_DEF(INLINE_SEND, "inline-send", "bytes", XR_SVC | XR_CLT,
		   false),
	XR_CFG_DEF(INLINE_RECV, "inline-recv", "bytes", XR_SVC | XR_CLT,
		   false),
	XR_CFG_DEF(SQ_DEPTH, "sq-depth", "work requests", XR_SVC, false),
	XR_CFG_DEF(RQ_DEPTH, "rq-depth", "work requests", XR_SVC, false),
	XR_CFG_DEF(SENDCTX_MAX, "sendctx-max", "contexts", XR_SVC, true),
	XR_CFG_DEF(MAX_FRWR_SEGMENTS, "max-frwr-segments", "pages", XR_CLT,
		   false),
	XR_CFG_DEF(CONNECT_TIMEOUT, "connect-timeout", "ms", XR_CLT, false),
	XR_CFG_DEF(RECONNECT_MIN, "reconnect-min", "ms", XR_CLT, false),
	XR_CFG_DEF(RECONNECT_MAX, "reconnect-max", "ms", XR_CLT, false),
	XR_CFG_DEF(IDLE_TIMEOUT, "idle-timeout", "ms", XR_CLT, false),
	XR_CFG_DEF(SIGNAL_INTERVAL, "signal-interval", "sends", XR_SVC | XR_CLT,
		   false),
	XR_CFG_DEF(SEND_TIMEOUT, "send-timeout", "ms", XR_SVC | XR_CLT,
		   false),
};

/*
 * The rejection messages of each tunable, made once at load: an extended
 * ack keeps a pointer to its message until the reply is built, so they
 * must outlive the request.
 */
enum { XR_CFG_MSG_SMALL, XR_CFG_MSG_LARGE, XR_CFG_MSG_NOT_LIVE, XR_CFG_MSGS };
#define XR_CFG_MSG_LEN	96
static char xr_config_msgs[XR_CFG_COUNT][XR_CFG_MSGS][XR_CFG_MSG_LEN];

static DEFINE_MUTEX(xr_config_lock);
static struct xr_config xr_config_defaults;

/**
 * xr_config_init - set the defaults and make the messages
 *
 * Called once at module load, before any transport or netlink request.
 */
void xr_config_init(void)
{
	const struct xr_config_def *cd;
	int i;

	for (i = 0; i < XR_CFG_COUNT; i++) {
		cd = &xr_config_defs[i];
		xr_config_defaults.cf_val[i] = cd->cd_default;
		snprintf(xr_config_msgs[i][XR_CFG_MSG_SMALL], XR_CFG_MSG_LEN,
			 "%s: below the minimum %u", cd->cd_name, cd->cd_min);
		snprintf(xr_config_msgs[i][XR_CFG_MSG_LARGE], XR_CFG_MSG_LEN,
			 "%s: above the maximum %u", cd->cd_name, cd->cd_max);
		snprintf(xr_config_msgs[i][XR_CFG_MSG_NOT_LIVE], XR_CFG_MSG_LEN,
			 "%s: cannot change on a live transport; set the default for new transports",
			 cd->cd_name);
	}
}

/**
 * xr_config_def - the definition of one tunable
 * @cfg: which
 *
 * Return: its entry in the table; never NULL for a valid @cfg.
 */
const struct xr_config_def *xr_config_def(enum xr_cfg cfg)
{
	return &xr_config_defs[cfg];
}

/**
 * xr_config_check - is a value in a tunable's range
 * @cfg: which tunable
 * @val: the value
 *
 * Return: NULL when @val is in range, else a message naming the limit
 * (static storage: it may be handed to an extended ack as it is).
 */
const char *xr_config_check(enum xr_cfg cfg, u32 val)
{
	const struct xr_config_def *cd = &xr_config_defs[cfg];

	if (val < cd->cd_min)
		return xr_config_msgs[cfg][XR_CFG_MSG_SMALL];
	if (val > cd->cd_max)
		return xr_config_msgs[cfg][XR_CFG_MSG_LARGE];
	return NULL;
}

/**
 * xr_config_not_live - why a tunable cannot change on a live transport
 * @cfg: a tunable whose xr_config_def.cd_live is false
 *
 * Return: the message (static storage, for an extended ack).
 */
const char *xr_config_not_live(enum xr_cfg cfg)
{
	return xr_config_msgs[cfg][XR_CFG_MSG_NOT_LIVE];
}

/**
 * xr_config_snapshot - copy the defaults for a new transport
 * @cfg: filled with every default, all from the same moment
 *
 * May sleep.
 */
void xr_config_snapshot(struct xr_config *cfg)
{
	mutex_lock(&xr_config_lock);
	*cfg = xr_config_defaults;
	mutex_unlock(&xr_config_lock);
}

/* Do the values of @cfg agree with each other? */
static bool xr_config_consistent(const struct xr_config *cfg)
{
	return cfg->cf_val[XR_CFG_RECONNECT_MIN] <=
	       cfg->cf_val[XR_CFG_RECONNECT_MAX];
}

/**
 * xr_config_set_defaults - change some of the defaults at once
 * @vals: the new values, indexed by enum xr_cfg
 * @given: which of @vals to take
 *
 * The caller has checked every value given with xr_config_check(). A
 * snapshot sees either none or all of them. May sleep.
 *
 * Return: 0, or -ERANGE when the defaults would not agree with each other
 * (reconnect-max below reconnect-min): then none is changed.
 */
int xr_config_set_defaults(const struct xr_config *vals, const bool *given)
{
	struct xr_config next;
	int i, err = 0;

	mutex_lock(&xr_config_lock);
	next = xr_config_defaults;
	for (i = 0; i < XR_CFG_COUNT; i++)
		if (given[i])
			next.cf_val[i] = vals->cf_val[i];
	if (xr_config_consistent(&next))
		xr_config_defaults = next;
	else
		err = -ERANGE;
	mutex_unlock(&xr_config_lock);
	return err;
}

/**
 * xr_config_ms_to_jiffies - a millisecond tunable of @cfg in jiffies
 * @cfg: a snapshot
 * @which: one of the tunables in milliseconds
 *
 * Return: the value in jiffies, at least one.
 */
unsigned long xr_config_ms_to_jiffies(const struct xr_config *cfg,
				      enum xr_cfg which)
{
	return max_t(unsigned long, msecs_to_jiffies(cfg->cf_val[which]), 1);
}
