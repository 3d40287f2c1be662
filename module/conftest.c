// SPDX-License-Identifier: GPL-2.0
/*
 * conftest.c - the feature probes behind compat.h. Not part of the
 * module: conftest.sh compiles each "#ifdef XR_PROBE_NAME" section alone,
 * with the module's own compiler flags and -DXR_PROBE_NAME, against the
 * target kernel's headers, and writes conftest.h with XR_HAVE_NAME 1 when
 * it compiles and 0 when it does not (Documentation/design.rst, "Feature
 * probes"). A probe includes what it needs, tests one interface, and
 * fails by a compile error only: a missing member or declaration, or a
 * static assertion. CONFTEST must compile everywhere: when it does not,
 * no result means anything and the build stops.
 */
#include <linux/build_bug.h>
#include <linux/stddef.h>

#ifdef XR_PROBE_CONFTEST
#include <linux/module.h>
static_assert(sizeof(struct module));
#endif

/* struct genl_family takes split do/dump operations. */
#ifdef XR_PROBE_GENL_SPLIT_OPS
#include <net/genetlink.h>
static_assert(sizeof_field(struct genl_family, split_ops));
#endif

/* svc calls a transport's xpo_secure_port for every call it receives. */
#ifdef XR_PROBE_SVC_SECURE_PORT
#include <linux/sunrpc/svc_xprt.h>
static_assert(sizeof_field(struct svc_xprt_ops, xpo_secure_port));
#endif

/* svc calls a transport's xpo_start_tls after every reply. */
#ifdef XR_PROBE_SVC_START_TLS
#include <linux/sunrpc/svc_xprt.h>
static_assert(sizeof_field(struct svc_xprt_ops, xpo_start_tls));
#endif

/* Backchannel calls reach the callback service on a lock-free list. */
#ifdef XR_PROBE_SVC_CB_LWQ
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/xprt.h>
static_assert(__same_type(typeof_member(struct svc_serv, sv_cb_list),
			  struct lwq) &&
	      __same_type(typeof_member(struct rpc_rqst, rq_bc_list),
			  struct lwq_node));
#endif

/* A sysctl handler gets its table const. */
#ifdef XR_PROBE_CONST_CTL_HANDLER
#include <linux/sysctl.h>
static_assert(__same_type(proc_handler *,
			  int (*)(const struct ctl_table *, int, void *,
				  size_t *, loff_t *)));
#endif

/* register_sysctl() passes the table's size: no empty entry ends it. */
#ifdef XR_PROBE_REGISTER_SYSCTL_SZ
#include <linux/sysctl.h>
static typeof(register_sysctl_sz) *xr_probe __maybe_unused = register_sysctl_sz;
#endif

/*
 * The reply has a page array of its own: transports count the call pages
 * they take in rq_pages_nfree, which came with that split.
 */
#ifdef XR_PROBE_SVC_REPLY_PAGES
#include <linux/sunrpc/svc.h>
static_assert(sizeof_field(struct svc_rqst, rq_pages_nfree));
#endif

/*
 * The system workqueues under their new names, system_percpu_wq and
 * system_dfl_wq (newer kernels warn once when work is queued on the old
 * ones).
 */
#ifdef XR_PROBE_SYSTEM_DFL_WQ
#include <linux/workqueue.h>
static_assert(sizeof(system_percpu_wq) == sizeof(void *));
static_assert(sizeof(system_dfl_wq) == sizeof(void *));
#endif
