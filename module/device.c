// SPDX-License-Identifier: GPL-2.0
/*
 * device.c - the RDMA devices xrpcrdma sees. An ib_client tracks devices
 * as they register and go away, on a list kept under xr_devices_mutex.
 * This file does not touch rdma_cm or create verbs objects: that is ep.c's
 * business. Netlink sees devices only as copies (xr_device_snapshot()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/netdevice.h>
#include <rdma/ib_cache.h>

#include "core.h"
#include "snap.h"

/*
 * The list is sorted by device index so that a netlink dump can resume
 * from an index after the list changed between two of its parts.
 */
static LIST_HEAD(xr_devices);
static DEFINE_MUTEX(xr_devices_mutex);
static struct ib_client xr_ib_client;

/* Is @xd there for a caller in @net (rdma's netns mode decides)? */
static bool xr_device_in(struct xr_device *xd, struct net *net)
{
	return rdma_dev_access_netns(xd->xd_ibdev, net);
}

/* A device of @net by name; caller holds xr_devices_mutex. */
static struct xr_device *xr_device_find(struct net *net, const char *name)
{
	struct xr_device *xd;

	lockdep_assert_held(&xr_devices_mutex);
	list_for_each_entry(xd, &xr_devices, xd_list)
		if (xr_device_in(xd, net) &&
		    !strcmp(dev_name(&xd->xd_ibdev->dev), name))
			return xd;
	return NULL;
}

/*
 * The first device of @net of index @index or greater; caller holds the
 * mutex.
 */
static struct xr_device *xr_device_next(struct net *net, u32 index)
{
	struct xr_device *xd;

	lockdep_assert_held(&xr_devices_mutex);
	list_for_each_entry(xd, &xr_devices, xd_list)
		if (xd->xd_ibdev->index >= index && xr_device_in(xd, net))
			return xd;
	return NULL;
}

/* The namespace a device belongs to: the initial one unless exclusive. */
static struct net *xr_device_net(struct xr_device *xd)
{
	return read_pnet(&xd->xd_ibdev->coredev.rdma_net);
}

/* Can new transports use @xd now: enabled, with a port active? */
static bool xr_device_usable(struct xr_device *xd)
{
	struct ib_device *ibdev = xd->xd_ibdev;
	enum ib_port_state state;
	u32 port;

	if (!xd->xd_enabled)
		return false;
	rdma_for_each_port(ibdev, port)
		if (!ib_get_cached_port_state(ibdev, port, &state) &&
		    state == IB_PORT_ACTIVE)
			return true;
	return false;
}

/*
 * Name of the network device under @port of @ibdev, or "" when none or
 * when it is not in @net (a caller sees no other namespace's names).
 */
static void xr_device_port_netdev(struct ib_device *ibdev, u32 port,
				  struct net *net, char name[IFNAMSIZ])
{
	const struct ib_gid_attr *attr;
	struct net_device *ndev;

	name[0] = '\0';
	if (!rdma_protocol_roce(ibdev, port))
		return;
	attr = rdma_get_gid_attr(ibdev, port, 0);
	if (IS_ERR(attr))
		return;
	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(attr);
	if (!IS_ERR(ndev) && net_eq(dev_net(ndev), net))
		strscpy(name, ndev->name, IFNAMSIZ);
	rcu_read_unlock();
	rdma_put_gid_attr(attr);
}

/*
 * A copy of @xd and its ports, as a caller in @net sees them. Caller holds
 * xr_devices_mutex, which keeps xd_ibdev registered. Return: the copy
 * (kfree() it), or NULL.
 */
static struct xr_device_snap *xr_device_copy(struct xr_device *xd,
					     struct net *net, gfp_t gfp)
{
	struct ib_device *ibdev = xd->xd_ibdev;
	struct xr_device_snap *snap;
	enum ib_port_state state;
	struct xr_port_snap *ps;
	u32 port, n = 0;

	n = rdma_end_port(ibdev) - rdma_start_port(ibdev) + 1;
	snap = kzalloc(struct_size(snap, ds_ports, n), gfp);
	if (!snap)
		return NULL;
	snap->ds_index = ibdev->index;
	strscpy(snap->ds_name, dev_name(&ibdev->dev), sizeof(snap->ds_name));
	snap->ds_node_guid = be64_to_cpu(ibdev->node_guid);
	snap->ds_usable = xr_device_usable(xd);
	snap->ds_enabled = xd->xd_enabled;
	n = 0;
	rdma_for_each_port(ibdev, port) {
		ps = &snap->ds_ports[n++];
		ps->ps_number = port;
		if (ib_get_cached_port_state(ibdev, port, &state))
			state = IB_PORT_NOP;
		ps->ps_state = state;
		xr_device_port_netdev(ibdev, port, net, ps->ps_netdev);
	}
	snap->ds_nports = n;
	return snap;
}

/**
 * xr_device_snapshot - a copy of one device, for netlink
 * @net: the caller's network namespace: only devices it may use are there
 * @name: the device's name, or NULL to look up by @index instead
 * @index: with no @name, the first device of this index or greater
 *
 * Context: process, sleeps.
 *
 * Return: the copy (the caller kfree()s it), ERR_PTR(-ENODEV) when there
 * is no such device, or ERR_PTR(-ENOMEM).
 */
struct xr_device_snap *xr_device_snapshot(struct net *net, const char *name,
					  u32 index)
{
	struct xr_device_snap *snap;
	struct xr_device *xd;

	mutex_lock(&xr_devices_mutex);
	xd = name ? xr_device_find(net, name) : xr_device_next(net, index);
	snap = xd ? xr_device_copy(xd, net, GFP_KERNEL) : ERR_PTR(-ENODEV);
	mutex_unlock(&xr_devices_mutex);
	return snap ?: ERR_PTR(-ENOMEM);
}

/**
 * xr_device_set_enabled - allow or refuse new transports on a device
 * @net: the caller's network namespace
 * @name: the device's name
 * @enabled: allow them
 *
 * Existing connections are not affected. Only the namespace the device
 * belongs to changes it: the initial one, unless rdma's netns mode is
 * exclusive and the device was given to another.
 *
 * Return: 0, -ENODEV when xrpcrdma sees no device of that name in @net,
 * or -EPERM when it belongs to another namespace.
 */
int xr_device_set_enabled(struct net *net, const char *name, bool enabled)
{
	struct xr_device *xd;
	int err = -ENODEV;

	mutex_lock(&xr_devices_mutex);
	xd = xr_device_find(net, name);
	if (xd && !net_eq(xr_device_net(xd), net)) {
		err = -EPERM;
	} else if (xd) {
		if (xd->xd_enabled != enabled)
			pr_info("device %s %s\n", name,
				enabled ? "enabled" : "disabled");
		xd->xd_enabled = enabled;
		err = 0;
	}
	mutex_unlock(&xr_devices_mutex);
	return err;
}

/* Announce @xd coming (@add) or going; caller holds xr_devices_mutex. */
static void xr_device_announce(struct xr_device *xd, bool add)
{
	struct net *net = xr_device_net(xd);
	struct xr_device_snap *snap;

	if (!xr_nl_listening(net))
		return;
	snap = xr_device_copy(xd, net, GFP_KERNEL);
	if (!snap)
		return;
	xr_nl_notify_device(net, snap, add);
	kfree(snap);
}

/**
 * xr_device_accepts - may a new connection use this verbs device?
 * @ibdev: the device a connection request arrived on, or the one a new
 *	client connection's route goes through
 *
 * Context: may sleep (takes the device lock).
 *
 * Return: true when xrpcrdma knows the device and it is enabled.
 */
bool xr_device_accepts(struct ib_device *ibdev)
{
	struct xr_device *xd;
	bool ok = false;

	mutex_lock(&xr_devices_mutex);
	list_for_each_entry(xd, &xr_devices, xd_list)
		if (xd->xd_ibdev == ibdev) {
			ok = xd->xd_enabled;
			break;
		}
	mutex_unlock(&xr_devices_mutex);
	return ok;
}

static void xr_device_insert_sorted(struct xr_device *new)
{
	struct xr_device *xd;

	list_for_each_entry(xd, &xr_devices, xd_list) {
		if (xd->xd_ibdev->index > new->xd_ibdev->index) {
			list_add_tail(&new->xd_list, &xd->xd_list);
			return;
		}
	}
	list_add_tail(&new->xd_list, &xr_devices);
}

static int xr_ib_add_one(struct ib_device *ibdev)
{
	struct xr_device *xd;

	xd = kzalloc(sizeof(*xd), GFP_KERNEL);
	if (!xd)
		return -ENOMEM;
	xr_obj_get(XR_OBJ_DEVICE);
	xd->xd_ibdev = ibdev;
	xd->xd_enabled = true;

	mutex_lock(&xr_devices_mutex);
	xr_device_insert_sorted(xd);
	xr_device_announce(xd, true);
	mutex_unlock(&xr_devices_mutex);

	ib_set_client_data(ibdev, &xr_ib_client, xd);
	pr_info("device %s added\n", dev_name(&ibdev->dev));
	return 0;
}

static void xr_ib_remove_one(struct ib_device *ibdev, void *client_data)
{
	struct xr_device *xd = client_data;

	mutex_lock(&xr_devices_mutex);
	xr_device_announce(xd, false);
	list_del(&xd->xd_list);
	mutex_unlock(&xr_devices_mutex);

	pr_info("device %s removed\n", dev_name(&ibdev->dev));
	kfree(xd);
	xr_obj_put(XR_OBJ_DEVICE);
}

static struct ib_client xr_ib_client = {
	.name	= XR_MODNAME,
	.add	= xr_ib_add_one,
	.remove	= xr_ib_remove_one,
};

/**
 * xr_device_init - start tracking RDMA devices
 *
 * The ib_client's add callback runs for each device already registered
 * before this returns.
 *
 * Return: 0, or a negative errno from ib_register_client().
 */
int xr_device_init(void)
{
	return ib_register_client(&xr_ib_client);
}

/**
 * xr_device_exit - stop tracking RDMA devices
 *
 * The remove callback runs for every tracked device before this returns.
 */
void xr_device_exit(void)
{
	ib_unregister_client(&xr_ib_client);
}
