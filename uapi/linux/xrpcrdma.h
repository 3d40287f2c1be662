/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/xrpcrdma.yaml */
/* YNL-GEN uapi header */

#ifndef _UAPI_LINUX_XRPCRDMA_H
#define _UAPI_LINUX_XRPCRDMA_H

#define XRPCRDMA_FAMILY_NAME	"xrpcrdma"
#define XRPCRDMA_FAMILY_VERSION	1

#define XRPCRDMA_DEV_NAME_MAX_LEN	63

/**
 * enum xrpcrdma_port_state - State of an RDMA port as the verbs layer reports
 *   it.
 */
enum xrpcrdma_port_state {
	XRPCRDMA_PORT_STATE_NOP,
	XRPCRDMA_PORT_STATE_DOWN,
	XRPCRDMA_PORT_STATE_INIT,
	XRPCRDMA_PORT_STATE_ARMED,
	XRPCRDMA_PORT_STATE_ACTIVE,
	XRPCRDMA_PORT_STATE_ACTIVE_DEFER,
};

/**
 * enum xrpcrdma_mode - How xrpcrdma registers its transports. dropin: as
 *   "rdma" (the in-tree rpcrdma's names and ident), so NFS and nfsd use
 *   xrpcrdma for proto=rdma; sidebyside: as "xrdma" with idents of its own,
 *   beside a loaded in-tree rpcrdma.
 */
enum xrpcrdma_mode {
	XRPCRDMA_MODE_DROPIN,
	XRPCRDMA_MODE_SIDEBYSIDE,
};

enum {
	XRPCRDMA_A_PORT_NUMBER = 1,
	XRPCRDMA_A_PORT_STATE,
	XRPCRDMA_A_PORT_NETDEV,

	__XRPCRDMA_A_PORT_MAX,
	XRPCRDMA_A_PORT_MAX = (__XRPCRDMA_A_PORT_MAX - 1)
};

enum {
	XRPCRDMA_A_DEVICE_INDEX = 1,
	XRPCRDMA_A_DEVICE_NAME,
	XRPCRDMA_A_DEVICE_NODE_GUID,
	XRPCRDMA_A_DEVICE_PORT,
	XRPCRDMA_A_DEVICE_USABLE,
	XRPCRDMA_A_DEVICE_ENABLED,
	XRPCRDMA_A_DEVICE_PAD,

	__XRPCRDMA_A_DEVICE_MAX,
	XRPCRDMA_A_DEVICE_MAX = (__XRPCRDMA_A_DEVICE_MAX - 1)
};

enum {
	XRPCRDMA_A_LIVE_OBJECT_NAME = 1,
	XRPCRDMA_A_LIVE_OBJECT_COUNT,
	XRPCRDMA_A_LIVE_OBJECT_PAD,

	__XRPCRDMA_A_LIVE_OBJECT_MAX,
	XRPCRDMA_A_LIVE_OBJECT_MAX = (__XRPCRDMA_A_LIVE_OBJECT_MAX - 1)
};

enum {
	XRPCRDMA_A_MODULE_VERSION = 1,
	XRPCRDMA_A_MODULE_BUILD_KERNEL,
	XRPCRDMA_A_MODULE_LIVE_OBJECT,
	XRPCRDMA_A_MODULE_MODE,

	__XRPCRDMA_A_MODULE_MAX,
	XRPCRDMA_A_MODULE_MAX = (__XRPCRDMA_A_MODULE_MAX - 1)
};

enum {
	XRPCRDMA_CMD_DEVICE_GET = 1,
	XRPCRDMA_CMD_DEVICE_SET,
	XRPCRDMA_CMD_MODULE_GET,

	__XRPCRDMA_CMD_MAX,
	XRPCRDMA_CMD_MAX = (__XRPCRDMA_CMD_MAX - 1)
};

#endif /* _UAPI_LINUX_XRPCRDMA_H */
