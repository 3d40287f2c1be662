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

/*
 * How a transport hands a backchannel call to the callback service
 * (xprt->bc_serv). From 6.8 (checked on 6.12) rq_bc_list is an lwq node
 * on the service's lock-free sv_cb_list and a thread of pool 0 is woken;
 * before (checked on 6.1) it is a list_head on sv_cb_list under
 * sv_cb_lock, and the callback thread sleeps on sv_cb_waitq. On both the
 * callback service processes the call (svc_process_bc(), bc_svc_process()
 * on 6.1) and sends the reply through the forward transport's
 * send_request; neither has the bc_up op or an "rdma-bc" svc_xprt class.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
#include <linux/lwq.h>
#include <linux/sunrpc/svc.h>

static inline void xr_compat_bc_queue(struct svc_serv *serv,
				      struct rpc_rqst *rqst)
{
	lwq_enqueue(&rqst->rq_bc_list, &serv->sv_cb_list);
	svc_pool_wake_idle_thread(&serv->sv_pools[0]);
}
#else
#include <linux/sunrpc/svc.h>

static inline void xr_compat_bc_queue(struct svc_serv *serv,
				      struct rpc_rqst *rqst)
{
	spin_lock_bh(&serv->sv_cb_lock);
	list_add_tail(&rqst->rq_bc_list, &serv->sv_cb_list);
	spin_unlock_bh(&serv->sv_cb_lock);
	wake_up(&serv->sv_cb_waitq);
}
#endif

/*
 * Sysctl tables: until 6.6 (checked on 6.1) register_sysctl() walks a
 * table up to an empty entry; from 6.6 it takes the array's size, and
 * from 6.11 (checked on 6.12) the entry has no room for one and a
 * handler gets its table const.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define XR_CTL_TABLE		const struct ctl_table
#else
#define XR_CTL_TABLE		struct ctl_table
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
#define XR_SYSCTL_TABLE_END
#else
#define XR_SYSCTL_TABLE_END	{ }
#endif

#endif /* _XRPCRDMA_COMPAT_H */
