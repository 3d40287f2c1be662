/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every difference between the kernel lines xrpcrdma builds for
 * (Debian's 6.1 and 6.12). Code elsewhere tests the feature macros defined
 * here, never LINUX_VERSION_CODE.
 */
#ifndef _XRPCRDMA_COMPAT_H
#define _XRPCRDMA_COMPAT_H

#include <linux/version.h>

/*
 * Split genetlink ops (struct genl_split_ops) arrived in 6.2. Before that
 * the family is built from the per-op form generated from the same spec.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define XR_HAVE_GENL_SPLIT_OPS 1
#else
#define XR_HAVE_GENL_SPLIT_OPS 0
#endif

#endif /* _XRPCRDMA_COMPAT_H */
