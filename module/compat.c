// SPDX-License-Identifier: GPL-2.0
/*
 * compat.c - kernel-line specific definitions that cannot be a macro in
 * compat.h. Today: the generic netlink family, built from the split ops
 * generated from the spec, or from the per-op form of the same spec on
 * kernels without split ops.
 */
#include <net/genetlink.h>

#include "compat.h"

#if XR_HAVE_GENL_SPLIT_OPS

#include "nl-gen.c"

#else /* !XR_HAVE_GENL_SPLIT_OPS */

#include "nl-gen-legacy.c"

/*
 * ynl-gen emits the family structure only for split ops; the multicast
 * groups it emits from the same spec in both forms. resv_start_op is left
 * at 0: every operation is new, so the core validates all of them
 * strictly, as it does for split ops.
 */
struct genl_family xrpcrdma_nl_family __ro_after_init = {
	.name		= XRPCRDMA_FAMILY_NAME,
	.version	= XRPCRDMA_FAMILY_VERSION,
	.netnsok	= true,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.ops		= xrpcrdma_nl_ops,
	.n_ops		= ARRAY_SIZE(xrpcrdma_nl_ops),
	.mcgrps		= xrpcrdma_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(xrpcrdma_nl_mcgrps),
};

#endif /* XR_HAVE_GENL_SPLIT_OPS */
