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

/*
 * Until 6.5 (checked on 6.1) svc calls xpo_secure_port and xpo_start_tls
 * unconditionally; 6.12 has neither and the transport sets RQ_SECURE in
 * recvfrom (xrpcrdma does both).
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 5, 0)
#define XR_HAVE_SVC_SECURE_PORT 1
#define XR_SVC_XPRT_OPS_COMPAT					\
	.xpo_secure_port	= xr_svc_secure_port,		\
	.xpo_start_tls		= xr_svc_start_tls,
#else
#define XR_HAVE_SVC_SECURE_PORT 0
#define XR_SVC_XPRT_OPS_COMPAT
#endif

#endif /* _XRPCRDMA_COMPAT_H */
