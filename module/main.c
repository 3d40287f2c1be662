// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - load and unload of xrpcrdma.ko: brings the layers up in order
 * and takes them down in reverse. Owns no state of its own.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "bench.h"
#include "core.h"
#include "fault.h"
#include "snap.h"
#include "svc.h"
#include "xprt.h"

static int __init xr_init(void)
{
	int err;

	/* First: transports read the defaults as soon as they can exist. */
	xr_config_init();
	err = xr_device_init();
	if (err)
		goto out;
	err = xr_svc_init();
	if (err)
		goto out_device;
	/* After the server: its mode decides the client's registration. */
	err = xr_xprt_init();
	if (err)
		goto out_svc;
	/* The in-tree transport's sysctls, when it is the one replaced. */
	if (xr_svc_mode() == XRPCRDMA_MODE_DROPIN) {
		err = xr_sysctl_init();
		if (err) {
			pr_err("drop-in mode: cannot register the sunrpc rdma sysctls: %d\n",
			       err);
			goto out_xprt;
		}
	}
	/*
	 * Netlink last: once the family is registered, handlers can run
	 * and they expect the device list to be there.
	 */
	err = xr_nl_init();
	if (err)
		goto out_sysctl;

	pr_info("version " XR_MODULE_VERSION " loaded, %s mode\n",
		xr_svc_mode() == XRPCRDMA_MODE_DROPIN ? "drop-in" : "side-by-side");
	return 0;

out_sysctl:
	xr_sysctl_exit();
out_xprt:
	xr_xprt_exit();
out_svc:
	xr_svc_exit();
out_device:
	xr_device_exit();
out:
	return err;
}

static void __exit xr_exit(void)
{
	/* Netlink first: no handler may look at devices being removed. */
	xr_nl_exit();
	xr_bench_exit();
	xr_sysctl_exit();
	xr_xprt_exit();
	xr_svc_exit();
	xr_device_exit();
	xr_fault_exit();
	xr_obj_check_all_released();
	pr_info("unloaded\n");
}

module_init(xr_init);
module_exit(xr_exit);

MODULE_DESCRIPTION("RPC-over-RDMA version 1 transport for SUNRPC");
MODULE_AUTHOR("The xrpcrdma developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(XR_MODULE_VERSION);
