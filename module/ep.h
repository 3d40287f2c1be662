/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ep.h - the RDMA endpoint (ep.c, ep_qp.c): one connection manager ID with its
 * protection domain, completion queues and queue pair, or a listener.
 * Both roles build their connections on it.
 */
#ifndef _XRPCRDMA_EP_H
#define _XRPCRDMA_EP_H

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/socket.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>
#include <uapi/linux/xrpcrdma.h>

#include "core.h"
#include "proto.h"

struct xr_ep;

/**
 * struct xr_cid - a completion ID: follows one work request (or chain)
 *	from its post to its completion in the trace events (trace_wr.h)
 * @ci_queue_id: the completion queue's resource ID (cq->res.id)
 * @ci_completion_id: a number the CQ's endpoint handed out at post time
 *
 * Only assigned while a trace event that reports it is enabled.
 */
struct xr_cid {
	u32	ci_queue_id;
	int	ci_completion_id;
};

/**
 * struct xr_ep_ops - what an endpoint's owner does on connection events
 * @eo_connect_request: listener only: a peer asks to connect on @id, with
 *	the RFC 8797 private data @peer (defaults when it sent none) and the
 *	RDMA Reads it can answer at once, @peer_rd_atom. Return
 *	0 after taking ownership of @id (xr_ep_adopt()), or a negative errno
 *	to refuse: the connection manager then destroys @id.
 * @eo_established: the connection is up
 * @eo_disconnected: the connection is gone, or the device is going away;
 *	the owner must stop using the endpoint and destroy it soon, from
 *	another context
 * @eo_qp_fatal: connections only: the device reported a fatal error on
 *	the queue pair (an asynchronous event); the owner closes the
 *	connection as for a failed completion. Called from a work item.
 *
 * The first three are called from the connection manager's context. All
 * may sleep; none may destroy the endpoint they are called for.
 */
struct xr_ep_ops {
	int (*eo_connect_request)(struct xr_ep *listener, struct rdma_cm_id *id,
				  const struct xr_cm_pdata *peer,
				  u8 peer_rd_atom);
	void (*eo_established)(struct xr_ep *ep);
	void (*eo_disconnected)(struct xr_ep *ep);
	void (*eo_qp_fatal)(struct xr_ep *ep);
};

/**
 * enum xr_ep_drain_state - the drain of an endpoint's queue pair
 * @XR_EP_UNDRAINED: work requests may be posted
 * @XR_EP_DRAINING: xr_ep_drain() is flushing the queue pair
 * @XR_EP_DRAINED: every posted work request has completed
 */
enum xr_ep_drain_state {
	XR_EP_UNDRAINED,
	XR_EP_DRAINING,
	XR_EP_DRAINED,
};

/* Bits of &xr_ep.ep_cm_flags. */
#define XR_EP_DISCONNECT_HELD	0	/* a disconnect waits for an event */
#define XR_EP_ESTABLISHED	1	/* the ESTABLISHED event came */
#define XR_EP_ACCEPTED		2	/* our REP went out (rdma_accept()) */
#define XR_EP_CM_ENDED		3	/* an event ended the connection */
#define XR_EP_DESTROYING	4	/* xr_ep_destroy() began: no owner calls */
/*
 * Most a teardown waits for a held disconnect's event: more than twice
 * the 4096 ms after which a REP goes again (the response timeout of
 * rdma_cm peers), which a peer whose RTU was lost answers with another.
 */
#define XR_EP_HELD_WAIT_MS	10000

/**
 * struct xr_ep - an RDMA connection endpoint (or a listener)
 * @ep_id: the connection manager ID
 * @ep_ops: the owner's event callbacks
 * @ep_pd: protection domain (connections only)
 * @ep_scq: send completion queue
 * @ep_rcq: receive completion queue
 * @ep_qp: the queue pair (@ep_id->qp)
 * @ep_sq_depth: send queue depth
 * @ep_rq_depth: receive queue depth
 * @ep_peer: what the peer advertised in its RFC 8797 private data
 * @ep_peer_rd_atom: RDMA Reads the peer answers at once
 * @ep_drained: how far xr_ep_drain() got, an &enum xr_ep_drain_state
 * @ep_active: 1 on the connecting (client) side
 * @ep_cm_error: why the connection attempt or the connection ended
 *	(a negative errno), 0 while nothing went wrong
 * @ep_resolve_status: outcome of the last resolution step
 * @ep_resolve_done: completed when a resolution step finishes
 * @ep_owner_id: the owner's transport number, for events (0: none yet)
 * @ep_close_reason: why the connection ends, an
 *	&enum xrpcrdma_close_reason: the first cause recorded wins
 * @ep_listening: 1 for a listener (xr_ep_listen())
 * @ep_listen_addr: a listener's address and port, to listen again
 * @ep_listen_net: a listener's network namespace
 * @ep_listen_backlog: a listener's backlog
 * @ep_listen_lock: a listener's: serialises replacing and destroying
 *	@ep_id
 * @ep_listen_stopping: a listener's: set once xr_ep_destroy() began
 * @ep_relisten: a listener's: makes a new ID after an address change
 * @ep_relisten_tries: a listener's: failed tries of @ep_relisten since the
 *	address change, under @ep_listen_lock
 * @ep_cm_flags: %XR_EP_DESTROYING once the teardown began; a
 *	connection's: %XR_EP_ACCEPTED once our REP went out;
 *	%XR_EP_ESTABLISHED once the connection manager said the connection
 *	is up; %XR_EP_CM_ENDED once one of its events ended the
 *	connection; %XR_EP_DISCONNECT_HELD while a disconnect waits for
 *	one of those (whoever clears it disconnects)
 * @ep_qp_fatal: a connection's: calls eo_qp_fatal after a fatal
 *	asynchronous event of @ep_qp
 * @ep_scq_cids: completion IDs handed out on @ep_scq (xr_cid_assign())
 * @ep_rcq_cids: completion IDs handed out on @ep_rcq
 */
struct xr_ep {
	struct rdma_cm_id	*ep_id;
	const struct xr_ep_ops	*ep_ops;
	struct ib_pd		*ep_pd;
	struct ib_cq		*ep_scq;
	struct ib_cq		*ep_rcq;
	struct ib_qp		*ep_qp;
	u32			ep_sq_depth;
	u32			ep_rq_depth;
	struct xr_cm_pdata	ep_peer;
	u8			ep_peer_rd_atom;
	int			ep_drained;
	u8			ep_active;
	int			ep_cm_error;
	int			ep_resolve_status;
	struct completion	ep_resolve_done;
	u32			ep_owner_id;
	atomic_t		ep_close_reason;
	u8			ep_listening;
	struct sockaddr_storage	ep_listen_addr;
	struct net		*ep_listen_net;
	int			ep_listen_backlog;
	struct mutex		ep_listen_lock;	/* see above */
	bool			ep_listen_stopping;
	struct delayed_work	ep_relisten;
	unsigned int		ep_relisten_tries;
	unsigned long		ep_cm_flags;
	struct work_struct	ep_qp_fatal;
	atomic_t		ep_scq_cids;
	atomic_t		ep_rcq_cids;
};

/**
 * xr_cid_assign - give a work request about to be posted its completion ID
 * @cid: where the work request's context keeps it
 * @cq: the completion queue it completes on
 * @counter: that CQ's counter in its endpoint (ep_scq_cids, ep_rcq_cids)
 *
 * Callers only do this while a trace event reporting @cid is enabled.
 */
static inline void xr_cid_assign(struct xr_cid *cid, const struct ib_cq *cq,
				 atomic_t *counter)
{
	cid->ci_queue_id = cq->res.id;
	cid->ci_completion_id = atomic_inc_return(counter);
}

int xr_ep_listen(struct xr_ep *ep, const struct xr_ep_ops *ops,
		 struct net *net, struct sockaddr *sa, int backlog);
void xr_ep_listen_local(struct xr_ep *ep, struct sockaddr_storage *ss);
void xr_ep_adopt(struct xr_ep *ep, const struct xr_ep_ops *ops,
		 struct rdma_cm_id *id, const struct xr_cm_pdata *peer,
		 u8 peer_rd_atom);
int xr_ep_create_qp(struct xr_ep *ep, u32 sq_depth, u32 rq_depth,
		    u32 rw_ctxs);
int xr_ep_accept(struct xr_ep *ep, const struct xr_cm_pdata *ours);
int xr_ep_resolve(struct xr_ep *ep, const struct xr_ep_ops *ops,
		  struct net *net, struct sockaddr *dst,
		  unsigned long timeout_ms);
int xr_ep_connect(struct xr_ep *ep, const struct xr_cm_pdata *ours);
void xr_ep_disconnect(struct xr_ep *ep);
void xr_ep_drain(struct xr_ep *ep);

/**
 * xr_ep_check_wc - a completion of @ep is being handled
 * @ep: the endpoint whose queue pair the work request was posted on
 *
 * The drain flushed every posted work request, and nothing may be posted
 * after it: a completion handled later means something posted after the
 * drain, whose context may already be freed. Warns once.
 */
static inline void xr_ep_check_wc(const struct xr_ep *ep)
{
	WARN_ONCE(READ_ONCE(ep->ep_drained) == XR_EP_DRAINED,
		  XR_MODNAME ": completion after the queue pair was drained\n");
}

void xr_ep_destroy(struct xr_ep *ep);
void xr_ep_raise_qp_event(struct xr_ep *ep, enum ib_event_type event);

/**
 * xr_ep_has_frwr - whether the endpoint's device has the memory management
 *	extensions: fast registration (FRWR), LOCAL_INV and invalidation
 *	by the peer's Send With Invalidate
 * @ep: an endpoint with its PD
 *
 * Return: true when it has them.
 */
static inline bool xr_ep_has_frwr(const struct xr_ep *ep)
{
	return ep->ep_pd->device->attrs.device_cap_flags &
	       IB_DEVICE_MEM_MGT_EXTENSIONS;
}

void xr_ep_set_close_reason(struct xr_ep *ep,
			    enum xrpcrdma_close_reason reason);
void xr_ep_report_wc_error(struct xr_ep *ep, enum xrpcrdma_wc_kind kind,
			   const struct ib_wc *wc);
enum xrpcrdma_close_reason xr_ep_close_reason(struct xr_ep *ep);

#endif /* _XRPCRDMA_EP_H */
