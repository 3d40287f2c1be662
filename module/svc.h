/* SPDX-License-Identifier: GPL-2.0 */
/*
 * svc.h - the server role: the svc_xprt class nfsd listens on
 * (svc_transport.c), what observers see and change of its transports
 * (svc_snap.c), receiving calls (svc_recv.c), sending replies
 * (svc_send.c) and the NFSv4.1 backchannel (svc_backchannel.c).
 */
#ifndef _XRPCRDMA_SVC_H
#define _XRPCRDMA_SVC_H

#include <linux/spinlock.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/workqueue.h>

#include "recvq.h"
#include "sendq.h"
#include "snap.h"
#include "stats.h"

/* svc_transport.c */

/* Longest RPC service name kept with a transport ("nfsd", "lockd"). */
#define XR_SVC_SERV_NAME_LEN	32

/**
 * struct xr_svc_xprt - a server listener or connection
 * @sx_xprt: the SUNRPC transport
 * @sx_ep: its RDMA endpoint
 * @sx_lock: protects @sx_accept_q
 * @sx_accept_q: listener: connections waiting for xpo_accept
 * @sx_accept_entry: connection: entry on its listener's @sx_accept_q
 * @sx_sq: send contexts and send queue
 * @sx_rq: receive contexts
 * @sx_credits: credits granted to the client (receives kept posted)
 * @sx_inline_send: largest message sent inline (the peer's receive size)
 * @sx_inline_recv: largest message received inline (our buffers)
 * @sx_remote_inv: the client takes Send With Invalidate (RFC 8797)
 * @sx_flags: lifetime bits, see svc_transport.c
 * @sx_free_work: frees the transport outside of any svc context
 * @sx_id: the transport's number in the registry (0: not registered)
 * @sx_net: a reference of our own on the namespace of @sx_xprt, taken
 *	with svc_xprt_init(): svc drops its own before xpo_free, and the
 *	free work still looks up the namespace's event listeners (NULL
 *	until then)
 * @sx_serv_name: name of the RPC service it belongs to, copied while the
 *	service was known to be alive (svc may free it before the transport)
 * @sx_stats: connection: its counters
 * @sx_config: connection: the tunables it was created with; the live ones
 *	change with config-set (see config.c)
 */
struct xr_svc_xprt {
	struct svc_xprt		sx_xprt;
	struct xr_ep		sx_ep;
	spinlock_t		sx_lock;	/* protects sx_accept_q */
	struct list_head	sx_accept_q;
	struct list_head	sx_accept_entry;
	struct xr_sendq		sx_sq;
	struct xr_recvq		sx_rq;
	u32			sx_credits;
	u32			sx_inline_send;
	u32			sx_inline_recv;
	bool			sx_remote_inv;
	unsigned long		sx_flags;
	struct work_struct	sx_free_work;
	u32			sx_id;
	struct net		*sx_net;
	struct sockaddr_storage	sx_peer;	/* with its CM port */
	char			sx_serv_name[XR_SVC_SERV_NAME_LEN];
	struct xr_svc_stats	sx_stats;
	struct xr_config	sx_config;
};

/**
 * xr_svc_count - add to a counter of a server connection
 * @sx: the connection
 * @stat: which counter
 * @n: how much (1 for events, a length for byte counters)
 */
static inline void xr_svc_count(struct xr_svc_xprt *sx, enum xr_svc_stat stat,
				u64 n)
{
	atomic64_add(n, &sx->sx_stats.ss_count[stat]);
}

/*
 * Side-by-side with the in-tree rpcrdma, the server class needs an ident
 * of its own: nfsd picks the NFSv4.1 backchannel by ident | BC.
 */
#define XR_XPRT_TRANSPORT_SIDEBYSIDE	0x1f00

int xr_svc_init(void);
void xr_svc_exit(void);
void xr_svc_close(struct xr_svc_xprt *sx);
bool xr_svc_is_listener(struct xr_svc_xprt *sx);
enum xrpcrdma_transport_state xr_svc_state(struct xr_svc_xprt *sx);
struct xr_svc_xprt *xr_svc_of_bc(struct svc_xprt *xprt);

/* svc_snap.c */
void xr_svc_fill_snap(struct xr_svc_xprt *sx, struct xr_xprt_snap *snap);
void xr_svc_announce(struct xr_svc_xprt *sx, enum xr_xprt_event ev);
void xr_svc_announce_reject(struct xr_svc_xprt *listener,
			    const struct sockaddr *peer,
			    enum xrpcrdma_reject_reason reason);

/* svc_backchannel.c */
int xr_svc_bc_init(int svc_ident);
void xr_svc_bc_exit(void);
void xr_svc_bc_detach(struct xr_svc_xprt *sx);
bool xr_svc_bc_is_reply(const void *msg, u32 len);
int xr_svc_bc_reply(struct xr_svc_xprt *sx, const void *msg, u32 len,
		    u32 credits);

/* svc_recv.c */
int xr_svc_recvfrom(struct svc_rqst *rqstp);
int xr_svc_result_payload(struct svc_rqst *rqstp, unsigned int offset,
			  unsigned int length);
void xr_svc_release_ctxt(struct svc_xprt *xprt, void *ctxt);

/* svc_send.c */
int xr_svc_sendto(struct svc_rqst *rqstp);
int xr_svc_send_error(struct xr_svc_xprt *sx, __be32 xid, u32 err);

#endif /* _XRPCRDMA_SVC_H */
