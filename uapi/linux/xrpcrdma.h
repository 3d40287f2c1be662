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

/**
 * enum xrpcrdma_transport_role - What a transport is. server-listener: listens
 *   for connections on behalf of an RPC service (e.g. nfsd);
 *   server-connection: a connection a server listener accepted; client: a
 *   client transport (an NFS mount's, drop-in mode only), listed from its
 *   creation to its destruction, with or without a connection to its server.
 */
enum xrpcrdma_transport_role {
	XRPCRDMA_TRANSPORT_ROLE_SERVER_LISTENER,
	XRPCRDMA_TRANSPORT_ROLE_SERVER_CONNECTION,
	XRPCRDMA_TRANSPORT_ROLE_CLIENT,
};

/**
 * enum xrpcrdma_transport_state - What a transport is doing. closing: its
 *   service or the connection manager started closing it (a server transport
 *   disappears once every request that still uses it has finished; a client
 *   transport waits to be closed and connects again); connecting: client only,
 *   a connection attempt is under way or waits out its back-off; disconnected:
 *   client only, no connection and none being made (before the first call, or
 *   after an idle close).
 */
enum xrpcrdma_transport_state {
	XRPCRDMA_TRANSPORT_STATE_LISTENING,
	XRPCRDMA_TRANSPORT_STATE_CONNECTED,
	XRPCRDMA_TRANSPORT_STATE_CLOSING,
	XRPCRDMA_TRANSPORT_STATE_CONNECTING,
	XRPCRDMA_TRANSPORT_STATE_DISCONNECTED,
};

/**
 * enum xrpcrdma_close_reason - Why a transport went away, as first seen by the
 *   module. unknown: no cause was recorded; local: this host closed it (its
 *   RPC service shut down or closed it, or listener-del); peer: the peer
 *   disconnected; device-removal: its RDMA device went away; send-error and
 *   recv-error: a Send or a Receive (or an RDMA Read or Write, counted as
 *   send) completed with an error other than a flush (for a client, also a
 *   memory registration or invalidation); cm-error: the connection manager
 *   reported a failure (unreachable, rejected, connect error, address change);
 *   timeout: client only, an RPC timed out on the connection and the client
 *   disconnected to try a new one; send-timeout: the send queue made no
 *   progress for send-timeout milliseconds (a peer that takes no messages,
 *   whose connection had this side retry its Sends for ever); qp-error: the
 *   device reported a fatal error on the connection's queue pair (an
 *   asynchronous event: a catastrophic error, an invalid request or a remote
 *   access error the device could not tie to a work request, a failed path
 *   migration).
 */
enum xrpcrdma_close_reason {
	XRPCRDMA_CLOSE_REASON_UNKNOWN,
	XRPCRDMA_CLOSE_REASON_LOCAL,
	XRPCRDMA_CLOSE_REASON_PEER,
	XRPCRDMA_CLOSE_REASON_DEVICE_REMOVAL,
	XRPCRDMA_CLOSE_REASON_SEND_ERROR,
	XRPCRDMA_CLOSE_REASON_RECV_ERROR,
	XRPCRDMA_CLOSE_REASON_CM_ERROR,
	XRPCRDMA_CLOSE_REASON_TIMEOUT,
	XRPCRDMA_CLOSE_REASON_SEND_TIMEOUT,
	XRPCRDMA_CLOSE_REASON_QP_ERROR,
};

/**
 * enum xrpcrdma_reject_reason - Why the server refused a connection request.
 *   device-disabled: its RDMA device is disabled for new connections
 *   (device-set); no-rdma-read: the client offered to answer no RDMA Read at
 *   all (its responder resources, this side's initiator depth, were 0), so the
 *   server could never pull a Read chunk.
 */
enum xrpcrdma_reject_reason {
	XRPCRDMA_REJECT_REASON_DEVICE_DISABLED,
	XRPCRDMA_REJECT_REASON_NO_RDMA_READ,
};

/**
 * enum xrpcrdma_wc_kind - The kind of work request whose completion reported
 *   an error.
 */
enum xrpcrdma_wc_kind {
	XRPCRDMA_WC_KIND_SEND,
	XRPCRDMA_WC_KIND_RECV,
	XRPCRDMA_WC_KIND_RDMA_READ,
	XRPCRDMA_WC_KIND_RDMA_WRITE,
};

#define XRPCRDMA_CONFIG_CREDITS_MIN			4
#define XRPCRDMA_CONFIG_CREDITS_MAX			16384
#define XRPCRDMA_CONFIG_CREDITS_DEFAULT			64
#define XRPCRDMA_CONFIG_CLIENT_CREDITS_MIN		4
#define XRPCRDMA_CONFIG_CLIENT_CREDITS_MAX		256
#define XRPCRDMA_CONFIG_CLIENT_CREDITS_DEFAULT		32
#define XRPCRDMA_CONFIG_INLINE_SEND_MIN			1024
#define XRPCRDMA_CONFIG_INLINE_SEND_MAX			65536
#define XRPCRDMA_CONFIG_INLINE_SEND_DEFAULT		8192
#define XRPCRDMA_CONFIG_INLINE_RECV_MIN			1024
#define XRPCRDMA_CONFIG_INLINE_RECV_MAX			65536
#define XRPCRDMA_CONFIG_INLINE_RECV_DEFAULT		8192
#define XRPCRDMA_CONFIG_SQ_DEPTH_MIN			32
#define XRPCRDMA_CONFIG_SQ_DEPTH_MAX			16384
#define XRPCRDMA_CONFIG_SQ_DEPTH_DEFAULT		66
#define XRPCRDMA_CONFIG_RQ_DEPTH_MIN			6
#define XRPCRDMA_CONFIG_RQ_DEPTH_MAX			16384
#define XRPCRDMA_CONFIG_RQ_DEPTH_DEFAULT		66
#define XRPCRDMA_CONFIG_SENDCTX_MAX_MIN			0
#define XRPCRDMA_CONFIG_SENDCTX_MAX_MAX			65536
#define XRPCRDMA_CONFIG_SENDCTX_MAX_DEFAULT		0
#define XRPCRDMA_CONFIG_MAX_FRWR_SEGMENTS_MIN		16
#define XRPCRDMA_CONFIG_MAX_FRWR_SEGMENTS_MAX		256
#define XRPCRDMA_CONFIG_MAX_FRWR_SEGMENTS_DEFAULT	256
#define XRPCRDMA_CONFIG_CONNECT_TIMEOUT_MIN		1000
#define XRPCRDMA_CONFIG_CONNECT_TIMEOUT_MAX		600000
#define XRPCRDMA_CONFIG_CONNECT_TIMEOUT_DEFAULT		30000
#define XRPCRDMA_CONFIG_RECONNECT_MIN_MIN		1000
#define XRPCRDMA_CONFIG_RECONNECT_MIN_MAX		300000
#define XRPCRDMA_CONFIG_RECONNECT_MIN_DEFAULT		5000
#define XRPCRDMA_CONFIG_RECONNECT_MAX_MIN		1000
#define XRPCRDMA_CONFIG_RECONNECT_MAX_MAX		3600000
#define XRPCRDMA_CONFIG_RECONNECT_MAX_DEFAULT		300000
#define XRPCRDMA_CONFIG_IDLE_TIMEOUT_MIN		1000
#define XRPCRDMA_CONFIG_IDLE_TIMEOUT_MAX		86400000
#define XRPCRDMA_CONFIG_IDLE_TIMEOUT_DEFAULT		300000
#define XRPCRDMA_CONFIG_SIGNAL_INTERVAL_MIN		1
#define XRPCRDMA_CONFIG_SIGNAL_INTERVAL_MAX		256
#define XRPCRDMA_CONFIG_SIGNAL_INTERVAL_DEFAULT		16
#define XRPCRDMA_CONFIG_SEND_TIMEOUT_MIN		1000
#define XRPCRDMA_CONFIG_SEND_TIMEOUT_MAX		3600000
#define XRPCRDMA_CONFIG_SEND_TIMEOUT_DEFAULT		60000

/**
 * enum xrpcrdma_bench_transport - The RPC transport a benchmark's client uses.
 *   tcp: the kernel's TCP transport; rdma: the transport registered as "rdma",
 *   which is xrpcrdma's client in drop-in mode and the in-tree rpcrdma
 *   otherwise.
 */
enum xrpcrdma_bench_transport {
	XRPCRDMA_BENCH_TRANSPORT_TCP,
	XRPCRDMA_BENCH_TRANSPORT_RDMA,
};

#define XRPCRDMA_BENCH_MAX_COUNT	1000000
#define XRPCRDMA_BENCH_MAX_INFLIGHT	128

/**
 * enum xrpcrdma_bench_op - What a benchmark measures. rpc-null: NULL calls
 *   through the kernel's RPC client (the transport attribute chooses which).
 *   rdma-write and rdma-read: the device's own ceiling with no RPC at all; the
 *   module connects queue pairs of its own to a listener of its own on a local
 *   address of the device (over rdma_cm, loopback through the device),
 *   registers a target buffer at one end as the NFS client does, and moves
 *   size-byte messages into it with RDMA Writes or out of it with RDMA Reads
 *   from the other end, as the NFS server moves an NFS READ's and an NFS
 *   WRITE's payload; completions are handled in the kernel as the transports
 *   handle theirs. At the end each buffer is checked against the data sent
 *   (status -EIO when they differ).
 */
enum xrpcrdma_bench_op {
	XRPCRDMA_BENCH_OP_RPC_NULL,
	XRPCRDMA_BENCH_OP_RDMA_WRITE,
	XRPCRDMA_BENCH_OP_RDMA_READ,
};

#define XRPCRDMA_BENCH_MAX_SIZE		4194304
#define XRPCRDMA_BENCH_MAX_QPS		16
#define XRPCRDMA_BENCH_MAX_REPLY_SIZE	65536

/**
 * enum xrpcrdma_fault_point - A place where the module can be told to fail
 *   (fault-set). post-send: posting a Send, an RDMA Read or Write chain, or a
 *   LOCAL_INV; post-recv: posting a Receive; dma-map: DMA-mapping a buffer
 *   (send and receive buffers, RDMA Read and Write, client registrations);
 *   sendctx-alloc: getting a send context; frwr-reg: a client memory
 *   registration; completion-error: the next Send, Receive, RDMA Read or Write
 *   completion is treated as a failure (IB_WC_GENERAL_ERR); completion-delay:
 *   a completion handler waits delay-ms before it goes on, holding back that
 *   completion and every later one of the same completion queue, in order;
 *   recv-drop: a received message is discarded unread (its Receive is posted
 *   again), as if lost; rw-ctx: setting up the RDMA Read or Write of one
 *   remote segment (rdma_rw_ctx_init(), which fails for want of memory, of a
 *   memory region from the connection's pool, or of a DMA mapping);
 *   addr-change: a connection request reaching a listener is refused and the
 *   listener handles an address change of its device, as when the connection
 *   manager reports one (RDMA_CM_EVENT_ADDR_CHANGE, on a bonding fail-over);
 *   qp-fatal: a received message is taken as the moment the device reports a
 *   fatal error on the connection's queue pair (IB_EVENT_QP_FATAL, an
 *   asynchronous event): the event is raised and the queue pair is left as it
 *   was, so what stops the connection is the module's handling of the event;
 *   write-chunk-long: the server's reply says its Write chunk holds more than
 *   the payload it wrote there (half of the room the chunk has left beyond the
 *   payload), as a faulty server might: a client must take no more of the
 *   payload than the reply's XDR counts; reply-delay: the client's reply
 *   worker, having found the call a received message answers, waits delay-ms
 *   before it takes the call's lock, which widens the window in which another
 *   message with the same XID (a broken or hostile server's) is handled at the
 *   same time; bc-release-delay: the client's callback service, done with a
 *   backchannel call whose reply it sent, waits delay-ms before it gives the
 *   call's request back, as a callback thread preempted there would: the
 *   server may send its next calls meanwhile.
 */
enum xrpcrdma_fault_point {
	XRPCRDMA_FAULT_POINT_POST_SEND,
	XRPCRDMA_FAULT_POINT_POST_RECV,
	XRPCRDMA_FAULT_POINT_DMA_MAP,
	XRPCRDMA_FAULT_POINT_SENDCTX_ALLOC,
	XRPCRDMA_FAULT_POINT_FRWR_REG,
	XRPCRDMA_FAULT_POINT_COMPLETION_ERROR,
	XRPCRDMA_FAULT_POINT_COMPLETION_DELAY,
	XRPCRDMA_FAULT_POINT_RECV_DROP,
	XRPCRDMA_FAULT_POINT_RW_CTX,
	XRPCRDMA_FAULT_POINT_ADDR_CHANGE,
	XRPCRDMA_FAULT_POINT_QP_FATAL,
	XRPCRDMA_FAULT_POINT_WRITE_CHUNK_LONG,
	XRPCRDMA_FAULT_POINT_REPLY_DELAY,
	XRPCRDMA_FAULT_POINT_BC_RELEASE_DELAY,
};

/**
 * enum xrpcrdma_fault_trigger - When an armed fault point fires. off: never
 *   (disarmed); nth: once, at the n-th hit after arming; every: at every n-th
 *   hit; probability: at each hit with a chance of probability per million.
 *   every and probability fire at most times times (0: no limit).
 */
enum xrpcrdma_fault_trigger {
	XRPCRDMA_FAULT_TRIGGER_OFF,
	XRPCRDMA_FAULT_TRIGGER_NTH,
	XRPCRDMA_FAULT_TRIGGER_EVERY,
	XRPCRDMA_FAULT_TRIGGER_PROBABILITY,
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
	XRPCRDMA_A_STAT_NAME = 1,
	XRPCRDMA_A_STAT_VALUE,
	XRPCRDMA_A_STAT_PAD,

	__XRPCRDMA_A_STAT_MAX,
	XRPCRDMA_A_STAT_MAX = (__XRPCRDMA_A_STAT_MAX - 1)
};

enum {
	XRPCRDMA_A_STATS_STAT = 1,

	__XRPCRDMA_A_STATS_MAX,
	XRPCRDMA_A_STATS_MAX = (__XRPCRDMA_A_STATS_MAX - 1)
};

enum {
	XRPCRDMA_A_TRANSPORT_ID = 1,
	XRPCRDMA_A_TRANSPORT_ROLE,
	XRPCRDMA_A_TRANSPORT_STATE,
	XRPCRDMA_A_TRANSPORT_CLASS,
	XRPCRDMA_A_TRANSPORT_SERV,
	XRPCRDMA_A_TRANSPORT_LOCAL_ADDR4,
	XRPCRDMA_A_TRANSPORT_LOCAL_ADDR6,
	XRPCRDMA_A_TRANSPORT_LOCAL_PORT,
	XRPCRDMA_A_TRANSPORT_PEER_ADDR4,
	XRPCRDMA_A_TRANSPORT_PEER_ADDR6,
	XRPCRDMA_A_TRANSPORT_PEER_PORT,
	XRPCRDMA_A_TRANSPORT_CREDITS,
	XRPCRDMA_A_TRANSPORT_INLINE_SEND,
	XRPCRDMA_A_TRANSPORT_INLINE_RECV,
	XRPCRDMA_A_TRANSPORT_PEER_INLINE_SEND,
	XRPCRDMA_A_TRANSPORT_PEER_INLINE_RECV,
	XRPCRDMA_A_TRANSPORT_SQ_DEPTH,
	XRPCRDMA_A_TRANSPORT_SQ_FREE,
	XRPCRDMA_A_TRANSPORT_RQ_DEPTH,
	XRPCRDMA_A_TRANSPORT_SENDCTX_ALLOCATED,
	XRPCRDMA_A_TRANSPORT_SENDCTX_FREE,
	XRPCRDMA_A_TRANSPORT_RECVCTX_ALLOCATED,
	XRPCRDMA_A_TRANSPORT_STAT,
	XRPCRDMA_A_TRANSPORT_REASON,
	XRPCRDMA_A_TRANSPORT_REJECT_REASON,
	XRPCRDMA_A_TRANSPORT_RECVCTX_BYTES,

	__XRPCRDMA_A_TRANSPORT_MAX,
	XRPCRDMA_A_TRANSPORT_MAX = (__XRPCRDMA_A_TRANSPORT_MAX - 1)
};

enum {
	XRPCRDMA_A_WC_ERROR_TRANSPORT_ID = 1,
	XRPCRDMA_A_WC_ERROR_DEVICE,
	XRPCRDMA_A_WC_ERROR_QP_NUM,
	XRPCRDMA_A_WC_ERROR_KIND,
	XRPCRDMA_A_WC_ERROR_STATUS,
	XRPCRDMA_A_WC_ERROR_STATUS_MSG,
	XRPCRDMA_A_WC_ERROR_VENDOR_ERR,
	XRPCRDMA_A_WC_ERROR_SUPPRESSED,

	__XRPCRDMA_A_WC_ERROR_MAX,
	XRPCRDMA_A_WC_ERROR_MAX = (__XRPCRDMA_A_WC_ERROR_MAX - 1)
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
	XRPCRDMA_A_CONFIG_TRANSPORT_ID = 1,
	XRPCRDMA_A_CONFIG_CREDITS,
	XRPCRDMA_A_CONFIG_CLIENT_CREDITS,
	XRPCRDMA_A_CONFIG_INLINE_SEND,
	XRPCRDMA_A_CONFIG_INLINE_RECV,
	XRPCRDMA_A_CONFIG_SQ_DEPTH,
	XRPCRDMA_A_CONFIG_RQ_DEPTH,
	XRPCRDMA_A_CONFIG_SENDCTX_MAX,
	XRPCRDMA_A_CONFIG_MAX_FRWR_SEGMENTS,
	XRPCRDMA_A_CONFIG_CONNECT_TIMEOUT,
	XRPCRDMA_A_CONFIG_RECONNECT_MIN,
	XRPCRDMA_A_CONFIG_RECONNECT_MAX,
	XRPCRDMA_A_CONFIG_SIGNAL_INTERVAL,
	XRPCRDMA_A_CONFIG_IDLE_TIMEOUT,
	XRPCRDMA_A_CONFIG_SEND_TIMEOUT,

	__XRPCRDMA_A_CONFIG_MAX,
	XRPCRDMA_A_CONFIG_MAX = (__XRPCRDMA_A_CONFIG_MAX - 1)
};

enum {
	XRPCRDMA_A_BENCH_ID = 1,
	XRPCRDMA_A_BENCH_TRANSPORT,
	XRPCRDMA_A_BENCH_ADDR4,
	XRPCRDMA_A_BENCH_ADDR6,
	XRPCRDMA_A_BENCH_PORT,
	XRPCRDMA_A_BENCH_PROGRAM,
	XRPCRDMA_A_BENCH_VERSION,
	XRPCRDMA_A_BENCH_COUNT,
	XRPCRDMA_A_BENCH_CONCURRENCY,
	XRPCRDMA_A_BENCH_RUNNING,
	XRPCRDMA_A_BENCH_DONE,
	XRPCRDMA_A_BENCH_ERRORS,
	XRPCRDMA_A_BENCH_STATUS,
	XRPCRDMA_A_BENCH_ELAPSED_NS,
	XRPCRDMA_A_BENCH_OPS_PER_SEC,
	XRPCRDMA_A_BENCH_LAT_P50_NS,
	XRPCRDMA_A_BENCH_LAT_P99_NS,
	XRPCRDMA_A_BENCH_LAT_P999_NS,
	XRPCRDMA_A_BENCH_LAT_MAX_NS,
	XRPCRDMA_A_BENCH_PAD,
	XRPCRDMA_A_BENCH_OP,
	XRPCRDMA_A_BENCH_SIZE,
	XRPCRDMA_A_BENCH_QPS,
	XRPCRDMA_A_BENCH_BYTES_PER_SEC,
	XRPCRDMA_A_BENCH_REPLY_SIZE,

	__XRPCRDMA_A_BENCH_MAX,
	XRPCRDMA_A_BENCH_MAX = (__XRPCRDMA_A_BENCH_MAX - 1)
};

enum {
	XRPCRDMA_A_FAULT_POINT = 1,
	XRPCRDMA_A_FAULT_TRIGGER,
	XRPCRDMA_A_FAULT_N,
	XRPCRDMA_A_FAULT_PROBABILITY,
	XRPCRDMA_A_FAULT_TIMES,
	XRPCRDMA_A_FAULT_ERRNO,
	XRPCRDMA_A_FAULT_DELAY_MS,
	XRPCRDMA_A_FAULT_TRANSPORT_ID,
	XRPCRDMA_A_FAULT_HITS,
	XRPCRDMA_A_FAULT_FIRED,
	XRPCRDMA_A_FAULT_PAD,

	__XRPCRDMA_A_FAULT_MAX,
	XRPCRDMA_A_FAULT_MAX = (__XRPCRDMA_A_FAULT_MAX - 1)
};

enum {
	XRPCRDMA_CMD_DEVICE_GET = 1,
	XRPCRDMA_CMD_DEVICE_SET,
	XRPCRDMA_CMD_MODULE_GET,
	XRPCRDMA_CMD_TRANSPORT_GET,
	XRPCRDMA_CMD_LISTENER_GET,
	XRPCRDMA_CMD_LISTENER_DEL,
	XRPCRDMA_CMD_STATS_GET,
	XRPCRDMA_CMD_DEVICE_ADD_NTF,
	XRPCRDMA_CMD_DEVICE_DEL_NTF,
	XRPCRDMA_CMD_LISTENER_ADD_NTF,
	XRPCRDMA_CMD_LISTENER_DEL_NTF,
	XRPCRDMA_CMD_TRANSPORT_CONNECT_NTF,
	XRPCRDMA_CMD_TRANSPORT_DISCONNECT_NTF,
	XRPCRDMA_CMD_COMPLETION_ERROR_NTF,
	XRPCRDMA_CMD_BENCH_RUN,
	XRPCRDMA_CMD_BENCH_GET,
	XRPCRDMA_CMD_BENCH_PROGRESS_NTF,
	XRPCRDMA_CMD_BENCH_DONE_NTF,
	XRPCRDMA_CMD_FAULT_SET,
	XRPCRDMA_CMD_FAULT_GET,
	XRPCRDMA_CMD_CONFIG_GET,
	XRPCRDMA_CMD_CONFIG_SET,
	XRPCRDMA_CMD_CONNECT_REJECT_NTF,

	__XRPCRDMA_CMD_MAX,
	XRPCRDMA_CMD_MAX = (__XRPCRDMA_CMD_MAX - 1)
};

#define XRPCRDMA_MCGRP_EVENTS	"events"

#endif /* _UAPI_LINUX_XRPCRDMA_H */
