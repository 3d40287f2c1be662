// SPDX-License-Identifier: GPL-2.0
/*
 * Test host self-test module: loads cleanly but has no exit function, so
 * it can never be unloaded and run.sh must fail the run on rmmod.
 */
#include <linux/module.h>

static int __init xr_testhost_pin_init(void)
{
	return 0;
}

module_init(xr_testhost_pin_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("xrpcrdma test host: cannot unload (rmmod self-test)");
