// SPDX-License-Identifier: GPL-2.0
/*
 * nl_device.c - the device and module objects of the xrpcrdma family:
 * device-get, device-set, module-get, and the device events. Devices are
 * shown from copies device.c makes (struct xr_device_snap).
 */
#include <generated/utsrelease.h>
#include <linux/slab.h>

#include "nl.h"

static int xr_nl_put_port(struct sk_buff *msg, const struct xr_port_snap *ps)
{
	struct nlattr *nest;

	nest = nla_nest_start(msg, XRPCRDMA_A_DEVICE_PORT);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, XRPCRDMA_A_PORT_NUMBER, ps->ps_number) ||
	    nla_put_u32(msg, XRPCRDMA_A_PORT_STATE, ps->ps_state) ||
	    (ps->ps_netdev[0] &&
	     nla_put_string(msg, XRPCRDMA_A_PORT_NETDEV, ps->ps_netdev))) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

static int xr_nl_fill_device(struct sk_buff *msg,
			     const struct xr_device_snap *ds)
{
	u32 i;

	if (nla_put_u32(msg, XRPCRDMA_A_DEVICE_INDEX, ds->ds_index) ||
	    nla_put_string(msg, XRPCRDMA_A_DEVICE_NAME, ds->ds_name) ||
	    nla_put_u64_64bit(msg, XRPCRDMA_A_DEVICE_NODE_GUID,
			      ds->ds_node_guid, XRPCRDMA_A_DEVICE_PAD) ||
	    nla_put_u8(msg, XRPCRDMA_A_DEVICE_USABLE, ds->ds_usable) ||
	    nla_put_u8(msg, XRPCRDMA_A_DEVICE_ENABLED, ds->ds_enabled))
		return -EMSGSIZE;
	for (i = 0; i < ds->ds_nports; i++)
		if (xr_nl_put_port(msg, &ds->ds_ports[i]))
			return -EMSGSIZE;
	return 0;
}

/* device-get do: the device the request names. */
static int xr_nl_fill_device_reply(struct sk_buff *msg, struct genl_info *info,
				   void *arg)
{
	struct nlattr *attr = info->attrs[XRPCRDMA_A_DEVICE_NAME];
	struct xr_device_snap *ds;
	int err;

	ds = xr_device_snapshot(genl_info_net(info), nla_data(attr), 0);
	if (IS_ERR(ds)) {
		if (PTR_ERR(ds) == -ENODEV)
			NL_SET_ERR_MSG_ATTR(info->extack, attr,
					    "no RDMA device of that name");
		return PTR_ERR(ds);
	}
	err = xr_nl_fill_device(msg, ds);
	kfree(ds);
	return err;
}

/**
 * xrpcrdma_nl_device_get_doit - report one RDMA device
 * @skb: the request
 * @info: the request's attributes and extended ack
 *
 * Return values:
 *   %0: the reply was sent
 *   %-EINVAL: the name attribute is missing
 *   %-ENODEV: xrpcrdma sees no device of that name
 *   %-ENOMEM: no memory for the reply
 *   %-EMSGSIZE: the reply did not fit in a message
 */
int xrpcrdma_nl_device_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	if (XR_NL_REQUIRE(info, XRPCRDMA_A_DEVICE_NAME, "device name"))
		return -EINVAL;
	return xr_nl_reply(info, XRPCRDMA_CMD_DEVICE_GET,
			   xr_nl_fill_device_reply, NULL);
}

/* One device as one message of a dump. */
static int xr_nl_dump_device(struct sk_buff *skb, struct netlink_callback *cb,
			     const struct xr_device_snap *ds)
{
	void *hdr = xr_nl_dump_hdr(skb, cb, XRPCRDMA_CMD_DEVICE_GET);

	if (!hdr)
		return -EMSGSIZE;
	if (xr_nl_fill_device(skb, ds)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/**
 * xrpcrdma_nl_device_get_dumpit - report every RDMA device xrpcrdma sees
 * @skb: the message to fill
 * @cb: dump state
 *
 * cb->args[0] holds the lowest device index not yet reported. Devices are
 * kept sorted by index, so the dump resumes correctly even when devices
 * came or went between two parts.
 *
 * Return: the length of @skb (more to come, or 0 when done), or a negative
 * errno when not even one device fits.
 */
int xrpcrdma_nl_device_get_dumpit(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	struct xr_device_snap *ds;
	int err = 0;

	while (cb->args[0] <= U32_MAX) {
		ds = xr_device_snapshot(sock_net(cb->skb->sk), NULL,
					cb->args[0]);
		if (IS_ERR(ds)) {
			if (PTR_ERR(ds) != -ENODEV)
				err = PTR_ERR(ds);
			break;
		}
		err = xr_nl_dump_device(skb, cb, ds);
		if (!err)
			cb->args[0] = (unsigned long)ds->ds_index + 1;
		kfree(ds);
		if (err)
			break;
	}
	return xr_nl_dump_end(skb, err);
}

/**
 * xrpcrdma_nl_device_set_doit - change the settings of one RDMA device
 * @skb: the request
 * @info: the request's attributes and extended ack
 *
 * Requires CAP_NET_ADMIN (the core checks GENL_ADMIN_PERM before calling).
 *
 * Return values:
 *   %0: the device was changed
 *   %-EINVAL: the name or the enabled attribute is missing
 *   %-ENODEV: xrpcrdma sees no device of that name
 *   %-EPERM: the device belongs to another network namespace (shared
 *	devices to the initial one)
 */
int xrpcrdma_nl_device_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *attr = info->attrs[XRPCRDMA_A_DEVICE_NAME];
	int err;

	if (XR_NL_REQUIRE(info, XRPCRDMA_A_DEVICE_NAME, "device name") ||
	    XR_NL_REQUIRE(info, XRPCRDMA_A_DEVICE_ENABLED, "enabled"))
		return -EINVAL;
	err = xr_device_set_enabled(genl_info_net(info), nla_data(attr),
				    nla_get_u8(info->attrs[XRPCRDMA_A_DEVICE_ENABLED]));
	if (err == -ENODEV)
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "no RDMA device of that name");
	else if (err == -EPERM)
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "the device belongs to another network namespace: change it from there");
	return err;
}

static int xr_nl_put_live_objects(struct sk_buff *msg)
{
	struct nlattr *nest;
	int kind;

	for (kind = 0; kind < XR_OBJ_COUNT; kind++) {
		nest = nla_nest_start(msg, XRPCRDMA_A_MODULE_LIVE_OBJECT);
		if (!nest)
			return -EMSGSIZE;
		if (nla_put_string(msg, XRPCRDMA_A_LIVE_OBJECT_NAME,
				   xr_obj_name(kind)) ||
		    nla_put_u64_64bit(msg, XRPCRDMA_A_LIVE_OBJECT_COUNT,
				      xr_obj_live(kind),
				      XRPCRDMA_A_LIVE_OBJECT_PAD)) {
			nla_nest_cancel(msg, nest);
			return -EMSGSIZE;
		}
		nla_nest_end(msg, nest);
	}
	return 0;
}

static int xr_nl_fill_module(struct sk_buff *msg, struct genl_info *info,
			     void *arg)
{
	if (nla_put_string(msg, XRPCRDMA_A_MODULE_VERSION, XR_MODULE_VERSION) ||
	    nla_put_string(msg, XRPCRDMA_A_MODULE_BUILD_KERNEL, UTS_RELEASE) ||
	    nla_put_u32(msg, XRPCRDMA_A_MODULE_MODE, xr_svc_mode()))
		return -EMSGSIZE;
	return xr_nl_put_live_objects(msg);
}

/**
 * xrpcrdma_nl_module_get_doit - report the module's version and counters
 * @skb: the request
 * @info: the request's extended ack
 *
 * Return values:
 *   %0: the reply was sent
 *   %-ENOMEM: no memory for the reply
 *   %-EMSGSIZE: the reply did not fit in a message
 */
int xrpcrdma_nl_module_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return xr_nl_reply(info, XRPCRDMA_CMD_MODULE_GET,
			   xr_nl_fill_module, NULL);
}

static int xr_nl_fill_device_event(struct sk_buff *msg, const void *arg)
{
	return xr_nl_fill_device(msg, arg);
}

/**
 * xr_nl_notify_device - announce an RDMA device coming or going
 * @net: the device's namespace
 * @snap: a copy of the device (xr_device_snapshot())
 * @add: true when it came, false when it is going away
 *
 * Process context: sleeps.
 */
void xr_nl_notify_device(struct net *net, const struct xr_device_snap *snap,
			 bool add)
{
	might_sleep();
	xr_nl_event(net, add ? XRPCRDMA_CMD_DEVICE_ADD_NTF :
		    XRPCRDMA_CMD_DEVICE_DEL_NTF, xr_nl_fill_device_event, snap,
		    GFP_KERNEL);
}
