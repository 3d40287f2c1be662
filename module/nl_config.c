// SPDX-License-Identifier: GPL-2.0
/*
 * nl_config.c - the tunables of the xrpcrdma family: config-get and
 * config-set, for the defaults (config.c) and for one server connection
 * (svc_snap.c gets and sets its live values). Range and live checks keep
 * config.c's own messages, which name the limit: the policy only checks
 * types, or its generic "out of range" would come first.
 */
#include "nl.h"

/*
 * An extended ack message that is not a literal (NL_SET_ERR_MSG() wants
 * one): @msg must outlive the request, as config.c's static ones do.
 */
static void xr_nl_err_attr(struct netlink_ext_ack *extack,
			   const struct nlattr *attr, const char *msg)
{
	if (!extack)
		return;
	extack->_msg = msg;
	extack->bad_attr = attr;
}

static int xr_nl_put_config(struct sk_buff *msg, const struct xr_config *cfg,
			    u8 roles)
{
	const struct xr_config_def *cd;
	int i;

	for (i = 0; i < XR_CFG_COUNT; i++) {
		cd = xr_config_def(i);
		if (!(cd->cd_roles & roles))
			continue;
		if (nla_put_u32(msg, cd->cd_attr, READ_ONCE(cfg->cf_val[i])))
			return -EMSGSIZE;
	}
	return 0;
}

/*
 * Say in the extended ack why the config commands' transport-id was
 * refused: @err from xr_svc_config_get() or xr_svc_config_set().
 */
static int xr_nl_config_transport_err(struct genl_info *info, int err)
{
	struct nlattr *attr = info->attrs[XRPCRDMA_A_CONFIG_TRANSPORT_ID];

	if (err == -ENOENT)
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "no transport with that id");
	else if (err == -EINVAL)
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "a listener has no values of its own: its connections take the defaults when they are accepted");
	else if (err == -EOPNOTSUPP)
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "a client transport keeps the values it was created with: set the defaults for new mounts");
	return err;
}

static int xr_nl_fill_config(struct sk_buff *msg, struct genl_info *info,
			     void *arg)
{
	struct nlattr *attr = info->attrs[XRPCRDMA_A_CONFIG_TRANSPORT_ID];
	struct xr_config cfg;
	u8 roles;
	int err;

	if (!attr) {
		xr_config_snapshot(&cfg);
		return xr_nl_put_config(msg, &cfg,
					XR_CFG_ROLE_SERVER | XR_CFG_ROLE_CLIENT);
	}
	roles = XR_CFG_ROLE_SERVER;
	err = xr_svc_config_get(genl_info_net(info), nla_get_u32(attr), &cfg);
	if (err == -ENOENT) {
		roles = XR_CFG_ROLE_CLIENT;
		err = xr_xprt_config_get(genl_info_net(info),
					 nla_get_u32(attr), &cfg);
	}
	if (err)
		return xr_nl_config_transport_err(info, err);
	if (nla_put_u32(msg, XRPCRDMA_A_CONFIG_TRANSPORT_ID, nla_get_u32(attr)))
		return -EMSGSIZE;
	return xr_nl_put_config(msg, &cfg, roles);
}

/**
 * xrpcrdma_nl_config_get_doit - report the tunables
 * @skb: the request
 * @info: the request's attributes and extended ack
 *
 * Without transport-id, the defaults new transports start from; with it,
 * the values of that server connection (the live ones as they are now)
 * or client transport, the tunables of its role only.
 *
 * Return values:
 *   %0: the reply was sent
 *   %-EINVAL: transport-id names a listener
 *   %-ENOENT: no transport of the caller's network namespace has that id
 *   %-ENOMEM: no memory for the reply
 *   %-EMSGSIZE: the reply did not fit in a message
 */
int xrpcrdma_nl_config_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return xr_nl_reply(info, XRPCRDMA_CMD_CONFIG_GET, xr_nl_fill_config,
			   NULL);
}

/*
 * Collect the values of a config-set into @vals and @given, each checked
 * against its range and, with @live, against what may change on a live
 * transport. Return: the number given, or a negative errno.
 */
static int xr_nl_config_parse(struct genl_info *info, bool live,
			      struct xr_config *vals, bool *given)
{
	const struct xr_config_def *cd;
	const struct nlattr *attr;
	const char *why;
	int i, n = 0;

	for (i = 0; i < XR_CFG_COUNT; i++) {
		cd = xr_config_def(i);
		attr = info->attrs[cd->cd_attr];
		if (!attr)
			continue;
		vals->cf_val[i] = nla_get_u32(attr);
		why = xr_config_check(i, vals->cf_val[i]);
		if (!why && live && !cd->cd_live)
			why = xr_config_not_live(i);
		if (why) {
			xr_nl_err_attr(info->extack, attr, why);
			return -EINVAL;
		}
		given[i] = true;
		n++;
	}
	if (!n) {
		NL_SET_ERR_MSG(info->extack, "no tunable given");
		return -EINVAL;
	}
	return n;
}

/**
 * xrpcrdma_nl_config_set_doit - change tunables
 * @skb: the request
 * @info: the request's attributes and extended ack
 *
 * Requires CAP_NET_ADMIN (the core checks GENL_ADMIN_PERM). Without
 * transport-id, the defaults for new transports; with it, the live
 * values of that connection. Nothing changes unless every value given is
 * accepted.
 *
 * Return values:
 *   %0: every value given is set
 *   %-EINVAL: no value given, a value out of range, reconnect-max below
 *	reconnect-min, a value that cannot change live, or transport-id
 *	names a listener
 *   %-ENOENT: no transport of the caller's network namespace has that id
 *   %-EOPNOTSUPP: transport-id names a client transport (no live values)
 *   %-EPERM: the defaults, from another network namespace than the
 *	initial one
 */
int xrpcrdma_nl_config_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	bool live = info->attrs[XRPCRDMA_A_CONFIG_TRANSPORT_ID];
	bool given[XR_CFG_COUNT] = {};
	struct xr_config vals;
	int err;

	err = xr_nl_config_parse(info, live, &vals, given);
	if (err < 0)
		return err;
	if (live) {
		struct net *net = genl_info_net(info);
		u32 id = nla_get_u32(info->attrs[XRPCRDMA_A_CONFIG_TRANSPORT_ID]);

		err = xr_svc_config_set(net, id, &vals, given);
		if (err == -ENOENT && !xr_xprt_config_get(net, id, &vals))
			err = -EOPNOTSUPP;
		return xr_nl_config_transport_err(info, err);
	}
	if (!xr_nl_module_wide_ok(info))
		return -EPERM;
	err = xr_config_set_defaults(&vals, given);
	if (err) {
		NL_SET_ERR_MSG(info->extack,
			       "reconnect-max must be at least reconnect-min");
		return -EINVAL;
	}
	return 0;
}
