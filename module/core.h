/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core.h - what every layer of xrpcrdma.ko uses: the module's name, the
 * counts of live objects (stats.c), the tunables (config.c, sysctl.c) and
 * the RDMA devices it may use (device.c). Struct fields carry a short
 * prefix naming their struct (xd_ for struct xr_device).
 */
#ifndef _XRPCRDMA_CORE_H
#define _XRPCRDMA_CORE_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/types.h>
#include <uapi/linux/xrpcrdma.h>

#include "compat.h"

struct ib_device;

#define XR_MODNAME	"xrpcrdma"

/* stats.c */

/**
 * enum xr_obj - kinds of objects whose live instances the module counts
 * @XR_OBJ_DEVICE: struct xr_device, one per RDMA device seen
 * @XR_OBJ_SVC_XPRT: struct xr_svc_xprt, a server listener or connection
 * @XR_OBJ_SENDCTX: struct xr_sendctx, with its DMA-mapped buffer
 * @XR_OBJ_RECVCTX: struct xr_recvctx, with its DMA-mapped buffer
 * @XR_OBJ_XPRT: struct xr_xprt, a client transport
 * @XR_OBJ_XCONN: struct xr_xconn, a connection of a client transport
 * @XR_OBJ_MR: struct xr_mr, a memory region of a client connection
 * @XR_OBJ_REQ: struct xr_req, the buffers of one client RPC
 * @XR_OBJ_BC_RQST: struct xr_xprt_bc_rqst, a client's backchannel request
 *	with its two page buffers
 * @XR_OBJ_COUNT: number of kinds
 *
 * Every allocation of a tracked kind is paired with xr_obj_get() and its
 * release with xr_obj_put(). On unload all counts must be zero.
 */
enum xr_obj {
	XR_OBJ_DEVICE,
	XR_OBJ_SVC_XPRT,
	XR_OBJ_SENDCTX,
	XR_OBJ_RECVCTX,
	XR_OBJ_XPRT,
	XR_OBJ_XCONN,
	XR_OBJ_MR,
	XR_OBJ_REQ,
	XR_OBJ_BC_RQST,
	XR_OBJ_COUNT
};

void xr_obj_get(enum xr_obj kind);
void xr_obj_put(enum xr_obj kind);
s64 xr_obj_live(enum xr_obj kind);
const char *xr_obj_name(enum xr_obj kind);
bool xr_obj_check_all_released(void);

/* Count into a counter a lower layer was given by its owner, if any. */
static inline void xr_count(atomic64_t *counter)
{
	if (counter)
		atomic64_inc(counter);
}

/* Both roles: Receives and Sends each connection keeps for backchannel traffic. */
#define XR_BC_MAX_REQUESTS	2

/* config.c */

/**
 * enum xr_cfg - the tunables, in the order of the spec's config attributes
 * @XR_CFG_CREDITS: credits a server connection grants
 * @XR_CFG_CLIENT_CREDITS: calls a client transport has in flight at most
 * @XR_CFG_INLINE_SEND: largest message sent inline
 * @XR_CFG_INLINE_RECV: largest message received inline
 * @XR_CFG_SQ_DEPTH: send queue slots of a server connection
 * @XR_CFG_RQ_DEPTH: receive queue depth of a server connection
 * @XR_CFG_SENDCTX_MAX: send contexts a server connection allocates, 0: any
 * @XR_CFG_MAX_FRWR_SEGMENTS: pages one client memory region registers
 * @XR_CFG_CONNECT_TIMEOUT: client connection establishment bound, ms
 * @XR_CFG_RECONNECT_MIN: client's first reconnect delay, ms
 * @XR_CFG_RECONNECT_MAX: client's longest reconnect delay, ms
 * @XR_CFG_IDLE_TIMEOUT: client's idle close, ms
 * @XR_CFG_SIGNAL_INTERVAL: Sends between requested completions, at most
 * @XR_CFG_SEND_TIMEOUT: both roles' bound on posted Sends with no
 *	completion, and on waits for the send queue, ms
 * @XR_CFG_COUNT: number of tunables
 */
enum xr_cfg {
	XR_CFG_CREDITS,
	XR_CFG_CLIENT_CREDITS,
	XR_CFG_INLINE_SEND,
	XR_CFG_INLINE_RECV,
	XR_CFG_SQ_DEPTH,
	XR_CFG_RQ_DEPTH,
	XR_CFG_SENDCTX_MAX,
	XR_CFG_MAX_FRWR_SEGMENTS,
	XR_CFG_CONNECT_TIMEOUT,
	XR_CFG_RECONNECT_MIN,
	XR_CFG_RECONNECT_MAX,
	XR_CFG_IDLE_TIMEOUT,
	XR_CFG_SIGNAL_INTERVAL,
	XR_CFG_SEND_TIMEOUT,
	XR_CFG_COUNT
};

/* Which transports a tunable applies to (xr_config_def.cd_roles). */
#define XR_CFG_ROLE_SERVER	BIT(0)
#define XR_CFG_ROLE_CLIENT	BIT(1)

/**
 * struct xr_config_def - the definition of one tunable
 * @cd_name: its name, that of its spec attribute
 * @cd_attr: its attribute in the spec's config set
 * @cd_min: smallest value accepted
 * @cd_max: largest value accepted
 * @cd_default: value at module load
 * @cd_unit: what the value counts
 * @cd_roles: XR_CFG_ROLE_* of the transports it applies to
 * @cd_live: may change on a transport after its creation
 */
struct xr_config_def {
	const char	*cd_name;
	int		cd_attr;
	u32		cd_min;
	u32		cd_max;
	u32		cd_default;
	const char	*cd_unit;
	u8		cd_roles;
	bool		cd_live;
};

/**
 * struct xr_config - a value for every tunable
 * @cf_val: indexed by enum xr_cfg
 */
struct xr_config {
	u32	cf_val[XR_CFG_COUNT];
};

void xr_config_init(void);
const struct xr_config_def *xr_config_def(enum xr_cfg cfg);
const char *xr_config_check(enum xr_cfg cfg, u32 val);
const char *xr_config_not_live(enum xr_cfg cfg);
void xr_config_snapshot(struct xr_config *cfg);
int xr_config_set_defaults(const struct xr_config *vals, const bool *given);
unsigned long xr_config_ms_to_jiffies(const struct xr_config *cfg,
				      enum xr_cfg which);

/* sysctl.c */
int xr_sysctl_init(void);
void xr_sysctl_exit(void);

/* device.c */

/**
 * struct xr_device - an RDMA device as xrpcrdma sees it
 * @xd_list: entry in the device list, sorted by @xd_ibdev index
 * @xd_ibdev: the verbs device; valid while the entry is on the list
 * @xd_enabled: administrative switch; false keeps new transports off it
 */
struct xr_device {
	struct list_head	xd_list;
	struct ib_device	*xd_ibdev;
	bool			xd_enabled;
};

int xr_device_init(void);
void xr_device_exit(void);
bool xr_device_accepts(struct ib_device *ibdev);

#endif /* _XRPCRDMA_CORE_H */
