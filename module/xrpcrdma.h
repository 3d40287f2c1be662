/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xrpcrdma.h - declarations shared between the files of xrpcrdma.ko,
 * grouped by the file that defines them. Struct fields carry a short
 * prefix naming their struct (xd_ for struct xr_device).
 */
#ifndef _XRPCRDMA_H
#define _XRPCRDMA_H

#include <linux/types.h>
#include <linux/list.h>
#include <linux/netlink.h>
#include <rdma/ib_verbs.h>

#include "compat.h"

#if XR_HAVE_GENL_SPLIT_OPS
#include "nl-gen.h"
#else
#include "nl-gen-legacy.h"
extern struct genl_family xrpcrdma_nl_family;
#endif

#define XR_MODNAME	"xrpcrdma"

/* stats.c */

/**
 * enum xr_obj - kinds of objects whose live instances the module counts
 * @XR_OBJ_DEVICE: struct xr_device, one per RDMA device seen
 * @XR_OBJ_COUNT: number of kinds
 *
 * Every allocation of a tracked kind is paired with xr_obj_get() and its
 * release with xr_obj_put(). On unload all counts must be zero.
 */
enum xr_obj {
	XR_OBJ_DEVICE,
	XR_OBJ_COUNT
};

void xr_obj_get(enum xr_obj kind);
void xr_obj_put(enum xr_obj kind);
s64 xr_obj_live(enum xr_obj kind);
const char *xr_obj_name(enum xr_obj kind);
bool xr_obj_check_all_released(void);

/* device.c */

/**
 * struct xr_device - an RDMA device as xrpcrdma sees it
 * @xd_list: entry in the device list, sorted by @xd_ibdev index
 * @xd_ibdev: the verbs device; valid while the entry is on the list
 * @xd_enabled: administrative switch; false keeps new transports off it
 */
struct xr_device {
	struct list_head	xd_list;
	struct ib_device	*xd_ibdev;
	bool			xd_enabled;
};

int xr_device_init(void);
void xr_device_exit(void);
void xr_device_lock(void);
void xr_device_unlock(void);
struct xr_device *xr_device_find(const char *name);
struct xr_device *xr_device_next(u32 index);
bool xr_device_usable(struct xr_device *xd);

/* nl.c */
int xr_nl_init(void);
void xr_nl_exit(void);

#endif /* _XRPCRDMA_H */
