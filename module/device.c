// SPDX-License-Identifier: GPL-2.0
/*
 * device.c - the RDMA devices xrpcrdma sees. An ib_client tracks devices
 * as they register and go away; everything else looks them up here, under
 * xr_device_lock(). This file does not touch rdma_cm or create verbs
 * objects: that is ep.c's business.
 */
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/ib_cache.h>

#include "xrpcrdma.h"

/*
 * The list is sorted by device index so that a netlink dump can resume
 * from an index after the list changed between two of its parts.
 */
static LIST_HEAD(xr_devices);
static DEFINE_MUTEX(xr_devices_mutex);
static struct ib_client xr_ib_client;

/**
 * xr_device_lock - hold the device list stable
 *
 * While held, no device is added or removed, and each xd_ibdev on the
 * list stays valid. Sleeps.
 */
void xr_device_lock(void)
{
	mutex_lock(&xr_devices_mutex);
}

/**
 * xr_device_unlock - release xr_device_lock()
 */
void xr_device_unlock(void)
{
	mutex_unlock(&xr_devices_mutex);
}

/**
 * xr_device_find - look up a device by its name
 * @name: RDMA device name, e.g. "rxe0"
 *
 * Caller holds xr_device_lock().
 *
 * Return: the device, or NULL when xrpcrdma sees none of that name.
 */
struct xr_device *xr_device_find(const char *name)
{
	struct xr_device *xd;

	lockdep_assert_held(&xr_devices_mutex);
	list_for_each_entry(xd, &xr_devices, xd_list)
		if (!strcmp(dev_name(&xd->xd_ibdev->dev), name))
			return xd;
	return NULL;
}

/**
 * xr_device_next - first device whose index is @index or greater
 * @index: lowest device index wanted
 *
 * Caller holds xr_device_lock().
 *
 * Return: the device, or NULL when there is none.
 */
struct xr_device *xr_device_next(u32 index)
{
	struct xr_device *xd;

	lockdep_assert_held(&xr_devices_mutex);
	list_for_each_entry(xd, &xr_devices, xd_list)
		if (xd->xd_ibdev->index >= index)
			return xd;
	return NULL;
}

/**
 * xr_device_usable - can new transports use this device now?
 * @xd: the device
 *
 * Caller holds xr_device_lock().
 *
 * Return: true when the device is enabled and one of its ports is active.
 */
bool xr_device_usable(struct xr_device *xd)
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

/**
 * xr_device_accepts - may a new connection use this verbs device?
 * @ibdev: the device a connection request arrived on
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
	xr_nl_notify_device(xd, true);
	mutex_unlock(&xr_devices_mutex);

	ib_set_client_data(ibdev, &xr_ib_client, xd);
	pr_info(XR_MODNAME ": device %s added\n", dev_name(&ibdev->dev));
	return 0;
}

static void xr_ib_remove_one(struct ib_device *ibdev, void *client_data)
{
	struct xr_device *xd = client_data;

	mutex_lock(&xr_devices_mutex);
	xr_nl_notify_device(xd, false);
	list_del(&xd->xd_list);
	mutex_unlock(&xr_devices_mutex);

	pr_info(XR_MODNAME ": device %s removed\n", dev_name(&ibdev->dev));
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
