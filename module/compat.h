/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every difference between the kernel lines xrpcrdma builds for
 * (Debian 12's 6.1 and 6.12, trixie-backports' 7.3). Code elsewhere tests
 * the feature macros and uses the helpers defined here, never
 * LINUX_VERSION_CODE.
 *
 * The XR_HAVE_* macros come from feature probes, not version numbers: a
 * stable update can move an interface inside a release line (Debian's
 * 6.1 carries backported sunrpc changes). conftest.c holds the probes;
 * the build compiles each against the target kernel's headers and writes
 * conftest.h, which says which compiled (Documentation/design.rst,
 * "Feature probes"). Each entry says which supported kernels take which
 * branch, and which probe decides. A version number belongs here only
 * where no probe can tell, with the reason next to it; today there is
 * none.
 */
#ifndef _XRPCRDMA_COMPAT_H
#define _XRPCRDMA_COMPAT_H

#include <linux/version.h>

#include "conftest.h"

/*
 * Split genetlink ops (struct genl_split_ops; upstream 6.2): 6.12 and
 * 7.3. 6.1 only: the family is built from the per-op form generated from
 * the same spec, and the family structure is compat.c's. Probe:
 * XR_HAVE_GENL_SPLIT_OPS.
 */
#if !XR_HAVE_GENL_SPLIT_OPS
struct genl_family;
extern struct genl_family xrpcrdma_nl_family;
#endif

/*
 * svc calls xpo_secure_port and xpo_start_tls unconditionally: 6.1 only
 * (upstream: until 6.5), where the transport provides
 * them. 6.12 and 7.3 have neither and the transport sets RQ_SECURE in
 * recvfrom (xrpcrdma does both). Probes: XR_HAVE_SVC_SECURE_PORT and
 * XR_HAVE_SVC_START_TLS. The two went together; a kernel with one alone
 * is refused rather than guessed at.
 */
#if XR_HAVE_SVC_SECURE_PORT != XR_HAVE_SVC_START_TLS
#error "svc_xprt_ops has only one of xpo_secure_port, xpo_start_tls (see conftest.h)"
#endif
#if XR_HAVE_SVC_SECURE_PORT
#define XR_SVC_XPRT_OPS_COMPAT					\
	.xpo_secure_port	= xr_svc_secure_port,		\
	.xpo_start_tls		= xr_svc_start_tls,
#else
#define XR_SVC_XPRT_OPS_COMPAT
#endif

/*
 * How a transport hands a backchannel call to the callback service
 * (xprt->bc_serv). 6.12 and 7.3 (upstream 6.8 and later): rq_bc_list is
 * an lwq node on the service's lock-free sv_cb_list and a thread of pool
 * 0 is woken. 6.1 only: it is a list_head on sv_cb_list under
 * sv_cb_lock, and the callback thread sleeps on sv_cb_waitq. On all
 * three the callback service processes the call (svc_process_bc(),
 * bc_svc_process() on 6.1) and sends the reply through the forward
 * transport's send_request; none has the bc_up op or an "rdma-bc"
 * svc_xprt class. Probe: XR_HAVE_SVC_CB_LWQ (both members are lwq ones).
 */
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/xprt.h>

#if XR_HAVE_SVC_CB_LWQ
#include <linux/lwq.h>

static inline void xr_compat_bc_queue(struct svc_serv *serv,
				      struct rpc_rqst *rqst)
{
	lwq_enqueue(&rqst->rq_bc_list, &serv->sv_cb_list);
	svc_pool_wake_idle_thread(&serv->sv_pools[0]);
}
#else
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
 * Sysctl tables. A handler gets its table const: 6.12 and 7.3 (upstream
 * 6.11 and later); probe XR_HAVE_CONST_CTL_HANDLER. register_sysctl()
 * passes the array's size and takes every entry as one: 6.12 and 7.3
 * (upstream 6.6 and later); probe XR_HAVE_REGISTER_SYSCTL_SZ. 6.1 only:
 * the table ends at an empty entry.
 */
#if XR_HAVE_CONST_CTL_HANDLER
#define XR_CTL_TABLE		const struct ctl_table
#else
#define XR_CTL_TABLE		struct ctl_table
#endif
#if XR_HAVE_REGISTER_SYSCTL_SZ
#define XR_SYSCTL_TABLE_END
#else
#define XR_SYSCTL_TABLE_END	{ }
#endif

/*
 * The request's page arrays. 6.1 and 6.12 (upstream up to 6.18): call
 * and reply share rq_pages: the pages before rq_page_end are the
 * request's, and the transport says where the reply's start by pointing
 * rq_respages into rq_pages after the call's. 7.3 and later (the change
 * came after 6.18) give the reply an array of its own: svc sets
 * rq_respages, which a transport must leave alone, and the call may use
 * all rq_maxpages entries of rq_pages. A transport that keeps call pages
 * NULLs their entries and says how many in rq_pages_nfree; xrpcrdma
 * keeps none (the data is pulled into them and left there). Probe:
 * XR_HAVE_SVC_REPLY_PAGES, the rq_pages_nfree member that comes with the
 * split (rq_maxpages alone does not tell: it came in 6.16, while call and
 * reply still shared one array).
 */
#if XR_HAVE_SVC_REPLY_PAGES
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

/*
 * The transport took the reply's pages (rq_respages up to @end, which
 * may be past rq_next_page) and left NULL in their entries: its RDMA
 * Writes read them after sendto returns. One array (6.1, 6.12): svc
 * releases the reply's range after sendto, and 6.12's release_pages()
 * does not skip NULL entries, so the range is emptied; before the next
 * call svc fills every NULL entry of the array up to rq_page_end. The
 * reply's own array (7.3; probe as above): svc skips NULL entries when
 * it releases, and fills only the NULL entries of the range before the
 * next call, so the range has to cover them all.
 */
static inline void xr_compat_reply_pages_taken(struct svc_rqst *rqstp,
					       struct page **end)
{
#if XR_HAVE_SVC_REPLY_PAGES
	rqstp->rq_next_page = end;
#else
	rqstp->rq_next_page = rqstp->rq_respages;
#endif
}

/*
 * The system workqueues. Newer kernels (Debian's 7.3 among them) name the
 * per-CPU one system_percpu_wq and the unbound one system_dfl_wq, and mark
 * the old names, system_wq and system_unbound_wq, deprecated: the first
 * work item queued on one logs a warning naming its function. Debian's
 * 6.12 has the new names beside the old ones, without the warning; 6.1
 * has only the old ones. Probe: XR_HAVE_SYSTEM_DFL_WQ.
 */
#if XR_HAVE_SYSTEM_DFL_WQ
#define xr_percpu_wq	system_percpu_wq
#define xr_dfl_wq	system_dfl_wq
#else
#define xr_percpu_wq	system_wq
#define xr_dfl_wq	system_unbound_wq
#endif

#endif /* _XRPCRDMA_COMPAT_H */
