/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every difference between the kernel lines xrpcrdma builds for
 * (Debian 12's 6.1 and 6.12, trixie-backports' 7.3). Code elsewhere tests
 * the feature macros and uses the helpers defined here, never
 * LINUX_VERSION_CODE.
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

/*
 * The request's page arrays. Up to 6.12 (checked on 6.1 and 6.12) call
 * and reply share rq_pages: the pages before rq_page_end are the
 * request's, and the transport says where the reply's start by pointing
 * rq_respages into rq_pages after the call's. 7.3 (checked there; the
 * change came after 6.18) gives the reply an array of its own: svc sets
 * rq_respages, which a transport must leave alone, and the call may use
 * all rq_maxpages entries of rq_pages. A transport that keeps call pages
 * NULLs their entries and says how many in rq_pages_nfree; xrpcrdma
 * keeps none (the data is pulled into them and left there).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 19, 0)
#define XR_HAVE_SVC_REPLY_PAGES 1

/* How many pages of rq_pages a call may fill. */
static inline unsigned long xr_compat_call_pages(const struct svc_rqst *rqstp)
{
	return rqstp->rq_maxpages;
}

/* The reply starts empty in its own array, whatever the call used. */
static inline void xr_compat_reply_pages(struct svc_rqst *rqstp,
					 unsigned long call_pages)
{
	rqstp->rq_next_page = rqstp->rq_respages;
}
#else
#define XR_HAVE_SVC_REPLY_PAGES 0

/* All the request's pages but one, kept for the reply's head. */
static inline unsigned long xr_compat_call_pages(const struct svc_rqst *rqstp)
{
	long n = rqstp->rq_page_end - rqstp->rq_pages;

	return n > 1 ? n - 1 : 0;
}

/* The reply's pages are those of rq_pages after the call's. */
static inline void xr_compat_reply_pages(struct svc_rqst *rqstp,
					 unsigned long call_pages)
{
	rqstp->rq_respages = rqstp->rq_pages + call_pages;
	rqstp->rq_next_page = rqstp->rq_respages;
}
#endif

#endif /* _XRPCRDMA_COMPAT_H */
