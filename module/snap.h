/* SPDX-License-Identifier: GPL-2.0 */
/*
 * snap.h - what the layers show to observers, and how events reach them.
 *
 * The netlink code (nl*.c) reads no struct of another layer and takes no
 * lock of another layer. Each owning layer copies what it shows into one
 * of the plain structs below, under its own locks, and the netlink code
 * formats the copy. Events flow the same way: a layer fills a copy and
 * calls an xr_nl_notify_*() function; the netlink code never calls back.
 */
#ifndef _XRPCRDMA_SNAP_H
#define _XRPCRDMA_SNAP_H

#include <linux/if.h>
#include <linux/socket.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>
#include <uapi/linux/xrpcrdma.h>

struct xr_config;

/**
 * struct xr_port_snap - one port of an RDMA device
 * @ps_number: the port's number
 * @ps_state: its state (enum ib_port_state)
 * @ps_netdev: the network device under it, or "" when none
 */
struct xr_port_snap {
	u32	ps_number;
	u32	ps_state;
	char	ps_netdev[IFNAMSIZ];
};

/**
 * struct xr_device_snap - an RDMA device as xrpcrdma sees it
 * @ds_index: the ib_device's index
 * @ds_name: its name
 * @ds_node_guid: its node GUID, host order
 * @ds_usable: new transports may use it
 * @ds_enabled: the administrator allows xrpcrdma on it
 * @ds_nports: entries in @ds_ports
 * @ds_ports: its ports
 */
struct xr_device_snap {
	u32			ds_index;
	char			ds_name[IB_DEVICE_NAME_MAX];
	u64			ds_node_guid;
	bool			ds_usable;
	bool			ds_enabled;
	u32			ds_nports;
	struct xr_port_snap	ds_ports[];
};

/* Room for a service name (svc_serv.sv_name, as nfsd names them). */
#define XR_SNAP_SERV_LEN	32

/* The larger of the server's and the client's counter sets. */
#define XR_SNAP_STATS_MAX	48

/**
 * struct xr_conn_snap - what a connection settled on, and its queues
 * @cs_credits: credits granted (server) or in use (client)
 * @cs_inline_send: largest message sent inline
 * @cs_inline_recv: largest message received inline
 * @cs_peer_inline_send: the peer's advertised send size
 * @cs_peer_inline_recv: the peer's advertised receive size
 * @cs_sq_depth: send queue depth
 * @cs_sq_free: send queue slots free now
 * @cs_rq_depth: receive queue depth
 * @cs_sendctx_allocated: send contexts allocated
 * @cs_sendctx_free: send contexts free now
 * @cs_recvctx_allocated: receive contexts allocated
 * @cs_recvctx_bytes: bytes of one receive context besides its buffer
 */
struct xr_conn_snap {
	u32	cs_credits;
	u32	cs_inline_send;
	u32	cs_inline_recv;
	u32	cs_peer_inline_send;
	u32	cs_peer_inline_recv;
	u32	cs_sq_depth;
	u32	cs_sq_free;
	u32	cs_rq_depth;
	u32	cs_sendctx_allocated;
	u32	cs_sendctx_free;
	u32	cs_recvctx_allocated;
	u32	cs_recvctx_bytes;
};

/**
 * struct xr_xprt_snap - a transport of either role
 * @xs_net: its network namespace (for events)
 * @xs_id: its number in the registry
 * @xs_role: enum xrpcrdma_transport_role
 * @xs_state: enum xrpcrdma_transport_state
 * @xs_reason: why it closes or closed (enum xrpcrdma_close_reason), 0
 *	while it does not
 * @xs_class: its transport class's name (static storage)
 * @xs_serv: server: the RPC service's name; client: ""
 * @xs_local: local address; family 0 when none
 * @xs_peer: the peer's address; family 0 when none (a listener)
 * @xs_has_conn: @xs_conn is valid (a server connection, or a client
 *	transport with a connection)
 * @xs_conn: the connection's state
 * @xs_nstats: counters in @xs_stats (0 for a listener)
 * @xs_stat_name: the name of counter @pos
 * @xs_stats: the counters, in the order of @xs_stat_name
 */
struct xr_xprt_snap {
	struct net		*xs_net;
	u32			xs_id;
	u32			xs_role;
	u32			xs_state;
	u32			xs_reason;
	const char		*xs_class;
	char			xs_serv[XR_SNAP_SERV_LEN];
	struct sockaddr_storage	xs_local;
	struct sockaddr_storage	xs_peer;
	bool			xs_has_conn;
	struct xr_conn_snap	xs_conn;
	unsigned int		xs_nstats;
	const char		*(*xs_stat_name)(unsigned int pos);
	u64			xs_stats[XR_SNAP_STATS_MAX];
};

/**
 * enum xr_xprt_event - what happened to a transport
 * @XR_EV_LISTENER_ADD: a listener was created
 * @XR_EV_LISTENER_DEL: a listener left the registry (with its reason)
 * @XR_EV_CONNECT: a connection is established
 * @XR_EV_DISCONNECT: a connection is gone (with its reason and counters)
 */
enum xr_xprt_event {
	XR_EV_LISTENER_ADD,
	XR_EV_LISTENER_DEL,
	XR_EV_CONNECT,
	XR_EV_DISCONNECT,
};

/**
 * struct xr_wc_snap - a work completion that failed
 * @ws_transport_id: the owning transport's number, 0 when none yet
 * @ws_device: the RDMA device's name
 * @ws_qp_num: the queue pair's number
 * @ws_kind: what the work request was (enum xrpcrdma_wc_kind)
 * @ws_status: the completion's status (enum ib_wc_status)
 * @ws_vendor_err: the device's own error code
 */
struct xr_wc_snap {
	u32		ws_transport_id;
	const char	*ws_device;
	u32		ws_qp_num;
	u32		ws_kind;
	u32		ws_status;
	u32		ws_vendor_err;
};

/* device.c */
struct xr_device_snap *xr_device_snapshot(struct net *net, const char *name,
					  u32 index);
int xr_device_set_enabled(struct net *net, const char *name, bool enabled);

/* registry.c */
int xr_xprt_snapshot(struct net *net, u32 id, bool next,
		     struct xr_xprt_snap *snap);

/* svc_transport.c */
enum xrpcrdma_mode xr_svc_mode(void);

/* svc_snap.c */
void xr_svc_totals(u64 *sum);
int xr_svc_listener_close_id(struct net *net, u32 id);
int xr_svc_config_get(struct net *net, u32 id, struct xr_config *cfg);
int xr_xprt_config_get(struct net *net, u32 id, struct xr_config *cfg);
int xr_svc_config_set(struct net *net, u32 id, const struct xr_config *vals,
		      const bool *given);

/* nl.c: the family's registration, at load and unload */
int xr_nl_init(void);
void xr_nl_exit(void);

/* nl.c, nl_device.c, nl_xprt.c: the notify interface (bench.h: nl_bench.c's) */
bool xr_nl_listening(struct net *net);
void xr_nl_notify_device(struct net *net, const struct xr_device_snap *snap,
			 bool add);
void xr_nl_notify_xprt(const struct xr_xprt_snap *snap,
		       enum xr_xprt_event ev);
void xr_nl_notify_reject(const struct xr_xprt_snap *listener,
			 const struct sockaddr *peer,
			 enum xrpcrdma_reject_reason reason);
void xr_nl_notify_wc_error(struct net *net, const struct xr_wc_snap *wc);

#endif /* _XRPCRDMA_SNAP_H */
