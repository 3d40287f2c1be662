// SPDX-License-Identifier: GPL-2.0
/*
 * Test host self-test module: WARNs once when loaded (unless warn=0) and
 * unloads cleanly, so run.sh's misbehaviour detector must fail the run.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/bug.h>

static bool warn = true;
module_param(warn, bool, 0444);
MODULE_PARM_DESC(warn, "WARN on load (default: yes)");

static int __init xr_testhost_warn_init(void)
{
	WARN(warn, "xr testhost detector check\n");
	return 0;
}

static void __exit xr_testhost_warn_exit(void)
{
}

module_init(xr_testhost_warn_init);
module_exit(xr_testhost_warn_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("xrpcrdma test host: WARN on load (detector self-test)");
