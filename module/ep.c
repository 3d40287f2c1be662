// SPDX-License-Identifier: GPL-2.0
/*
 * ep.c - RDMA connection endpoints: the only file that talks to rdma_cm.
 * It owns the connection manager ID, the protection domain, the completion
 * queues and the queue pair, and turns connection events into calls of
 * the owner's xr_ep_ops. It posts no work requests and knows no RPC.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <rdma/ib_cm.h>
#include <rdma/rdma_cm.h>

#include "ep.h"
#include "fault.h"
#include "proto.h"
#include "snap.h"
#include "trace_ep.h"

/*
 * The peer's RFC 8797 private data, or the defaults RFC 8797 prescribes
 * when it sent none (or something else).
 */
static void xr_ep_peer_pdata(const struct rdma_cm_event *ev,
			     struct xr_cm_pdata *peer)
{
	if (xr_cm_pdata_decode(ev->param.conn.private_data,
			       ev->param.conn.private_data_len, peer)) {
		peer->cp_send_size = XR_CM_INLINE_MIN;
		peer->cp_recv_size = XR_CM_INLINE_MIN;
		peer->cp_flags = 0;
	}
}

/* Address or route resolution finished: wake xr_ep_resolve(). */
static void xr_ep_resolved(struct xr_ep *ep, int status)
{
	ep->ep_resolve_status = status;
	complete(&ep->ep_resolve_done);
}

/*
 * Why a connection attempt or a connection ended, for the owner. A
 * reject because the server still holds a connection with the same
 * identifiers (a fast reconnect) is worth trying again: the RPC layer
 * gives a mount's connect up at once on -ECONNREFUSED.
 */
static void xr_ep_set_cm_error(struct xr_ep *ep,
			       const struct rdma_cm_event *ev)
{
	int err;

	switch (ev->event) {
	case RDMA_CM_EVENT_REJECTED:
		err = ev->status == IB_CM_REJ_STALE_CONN ? -ENOTCONN :
			-ECONNREFUSED;
		break;
	case RDMA_CM_EVENT_UNREACHABLE:
		err = -EHOSTUNREACH;
		break;
	case RDMA_CM_EVENT_CONNECT_ERROR:
		err = -ECONNABORTED;
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		err = -ENODEV;
		break;
	default:
		err = -ECONNRESET;
		break;
	}
	if (!ep->ep_cm_error)
		ep->ep_cm_error = err;
}

/* Why a connection manager event ends a connection. */
static enum xrpcrdma_close_reason xr_ep_cm_reason(enum rdma_cm_event_type ev)
{
	switch (ev) {
	case RDMA_CM_EVENT_DISCONNECTED:
		return XRPCRDMA_CLOSE_REASON_PEER;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		return XRPCRDMA_CLOSE_REASON_DEVICE_REMOVAL;
	default:
		return XRPCRDMA_CLOSE_REASON_CM_ERROR;
	}
}

/**
 * xr_ep_set_close_reason - record why the connection ends
 * @ep: the endpoint
 * @reason: the cause; ignored when one was recorded before
 *
 * Any context. The first cause is the one reported: a disconnect seen
 * after the local side closed is its consequence, not its reason.
 */
void xr_ep_set_close_reason(struct xr_ep *ep,
			    enum xrpcrdma_close_reason reason)
{
	atomic_cmpxchg(&ep->ep_close_reason, XRPCRDMA_CLOSE_REASON_UNKNOWN,
		       reason);
}

/**
 * xr_ep_report_wc_error - announce a work completion that failed
 * @ep: the endpoint whose queue pair the work request was posted on
 * @kind: what the work request was
 * @wc: the completion; its status is neither success nor a flush
 *
 * Any context: never sleeps (completion handlers run in softirq or a
 * workqueue). The netlink side rate-limits these module-wide.
 */
void xr_ep_report_wc_error(struct xr_ep *ep, enum xrpcrdma_wc_kind kind,
			   const struct ib_wc *wc)
{
	struct net *net = ep->ep_id->route.addr.dev_addr.net;
	struct xr_wc_snap ws = {
		.ws_transport_id	= READ_ONCE(ep->ep_owner_id),
		.ws_device		= dev_name(&ep->ep_id->device->dev),
		.ws_qp_num		= ep->ep_qp->qp_num,
		.ws_kind		= kind,
		.ws_status		= wc->status,
		.ws_vendor_err		= wc->vendor_err,
	};

	if (xr_nl_listening(net))
		xr_nl_notify_wc_error(net, &ws);
}

/**
 * xr_ep_close_reason - why the connection ends
 * @ep: the endpoint
 *
 * Return: the first cause recorded, or %XRPCRDMA_CLOSE_REASON_UNKNOWN.
 */
enum xrpcrdma_close_reason xr_ep_close_reason(struct xr_ep *ep)
{
	return atomic_read(&ep->ep_close_reason);
}

/*
 * A listener's device changed address (a bonding fail-over): its ID no
 * longer receives connection requests, so it is replaced by a new one on
 * the same address and port, outside the connection manager's callback.
 */
static void xr_ep_relisten_soon(struct xr_ep *ep)
{
	pr_info("address change under a listener: listening again\n");
	mod_delayed_work(xr_percpu_wq, &ep->ep_relisten, 0);
}

/* The queue pair stops: every posted work request flushes. */
static void xr_ep_qp_error(struct xr_ep *ep)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };

	if (ep->ep_qp)
		ib_modify_qp(ep->ep_qp, &attr, IB_QP_STATE);
}

static bool xr_ep_claim_disconnect(struct xr_ep *ep);

/* The connection manager said the connection is up, or that it is over. */
static bool xr_ep_cm_spoke(struct xr_ep *ep)
{
	return test_bit(XR_EP_ESTABLISHED, &ep->ep_cm_flags) ||
	       test_bit(XR_EP_CM_ENDED, &ep->ep_cm_flags);
}

/*
 * An accepted connection whose RTU has not arrived yet: the peer may
 * have had our REP, counted the connection as up and sent calls on it.
 * Destroyed in that state, an ID makes the connection manager send a
 * REJ, and a peer that takes a REJ after its ESTABLISHED keeps its
 * endpoint for good (the in-tree client does, and uses it after its
 * transport is freed when the device goes); rdma_disconnect() sends
 * nothing before ESTABLISHED. So the queue pair stops at once, and the
 * disconnect waits for the connection manager's next word: the
 * ESTABLISHED event (the RTU came; the DREQ goes out then) or an end
 * (the peer's DREQ, which is answered, its REJ, a timeout, a removal).
 * The destroy waits for it, a bounded time that covers an RTU lost and
 * sent again for our REP's retransmission: a peer that never sends its
 * RTU gets the REJ after all. Telling the connection manager the
 * connection is established instead (rdma_notify()) leaves the REP
 * retransmitted when the peer's DREQ crosses it, which holds the ID's
 * destruction until the REP's retries run out. Only the IB connection
 * manager (InfiniBand, RoCE) has this state.
 *
 * Return: true if an event disconnects (also when an earlier call left
 * it to one); false if the caller does (the event came already, or not a
 * connection this is about).
 */
static bool xr_ep_hold_disconnect(struct xr_ep *ep)
{
	struct rdma_cm_id *id = ep->ep_id;

	/* Without our REP, the REJ is what the peer expects. */
	if (ep->ep_active || !test_bit(XR_EP_ACCEPTED, &ep->ep_cm_flags) ||
	    !rdma_cap_ib_cm(id->device, id->port_num))
		return false;
	if (test_and_set_bit(XR_EP_DISCONNECT_HELD, &ep->ep_cm_flags))
		return true;
	/*
	 * Pairs with xr_ep_release_disconnect(): one of the two sees both.
	 * After the event, nothing is left to wait for.
	 */
	if (xr_ep_cm_spoke(ep) && xr_ep_claim_disconnect(ep))
		return false;
	xr_ep_qp_error(ep);
	return true;
}

/* Whoever clears the held bit disconnects; a teardown may wait for it. */
static bool xr_ep_claim_disconnect(struct xr_ep *ep)
{
	if (!test_and_clear_bit(XR_EP_DISCONNECT_HELD, &ep->ep_cm_flags))
		return false;
	wake_up_bit(&ep->ep_cm_flags, XR_EP_DISCONNECT_HELD);
	return true;
}

/*
 * The connection manager's word on @id, marked by @bit (%XR_EP_ESTABLISHED
 * or %XR_EP_CM_ENDED), ends the wait of a held disconnect: it goes out
 * now, a DREQ or the answer to the peer's. Return: true if one was held.
 */
static bool xr_ep_release_disconnect(struct xr_ep *ep, struct rdma_cm_id *id,
				     int bit)
{
	set_bit(bit, &ep->ep_cm_flags);
	/* Pairs with xr_ep_hold_disconnect(). */
	smp_mb__after_atomic();
	if (!xr_ep_claim_disconnect(ep))
		return false;
	rdma_disconnect(id);
	return true;
}

/*
 * An event that ends the connection on @id releases a held disconnect,
 * the peer's or the connection manager's word that it is over, or a
 * device removal, which cannot wait. An address change can: its
 * connection manager may still be waiting for the RTU.
 */
static void xr_ep_cm_ended(struct xr_ep *ep, struct rdma_cm_id *id,
			   enum rdma_cm_event_type event)
{
	if (event != RDMA_CM_EVENT_ADDR_CHANGE)
		xr_ep_release_disconnect(ep, id, XR_EP_CM_ENDED);
}

/* Destroyed before the event a held disconnect waits for, the ID sends a REJ. */
static void xr_ep_wait_held_disconnect(struct xr_ep *ep)
{
	wait_on_bit_timeout(&ep->ep_cm_flags, XR_EP_DISCONNECT_HELD,
			    TASK_UNINTERRUPTIBLE,
			    msecs_to_jiffies(XR_EP_HELD_WAIT_MS));
}

static int xr_ep_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct xr_ep *ep = id->context;
	struct xr_cm_pdata peer;

	trace_xrpcrdma_cm_event(ep, ev);
	if (ev->event == RDMA_CM_EVENT_ADDR_CHANGE && ep->ep_listening) {
		xr_ep_relisten_soon(ep);
		return 0;
	}
	switch (ev->event) {
	case RDMA_CM_EVENT_CONNECT_REQUEST:
		/* @id is the new connection; @ep is still the listener. */
		if (xr_fault_hit(XRPCRDMA_FAULT_POINT_ADDR_CHANGE, ep)) {
			/* Refused: a non-zero return destroys @id. */
			xr_ep_relisten_soon(ep);
			return -ENETRESET;
		}
		xr_ep_peer_pdata(ev, &peer);
		/*
		 * The connection manager reports the request's resources
		 * from this side's view: initiator_depth is how many RDMA
		 * Reads the peer will answer for us at once.
		 */
		return ep->ep_ops->eo_connect_request(ep, id, &peer,
				ev->param.conn.initiator_depth);
	case RDMA_CM_EVENT_ADDR_RESOLVED:
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		xr_ep_resolved(ep, 0);
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
		xr_ep_resolved(ep, ev->status < 0 ? ev->status : -EHOSTUNREACH);
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		if (ep->ep_active) {
			/* The accepter's private data, and the RDMA Reads
			 * it will answer for us (none are issued today).
			 */
			xr_ep_peer_pdata(ev, &ep->ep_peer);
			ep->ep_peer_rd_atom = ev->param.conn.initiator_depth;
		}
		trace_xrpcrdma_established(ep);
		/* With a disconnect held, the owner is closing it already. */
		if (!xr_ep_release_disconnect(ep, id, XR_EP_ESTABLISHED) &&
		    !test_bit(XR_EP_DESTROYING, &ep->ep_cm_flags))
			ep->ep_ops->eo_established(ep);
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
	case RDMA_CM_EVENT_ADDR_CHANGE:
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
		if (ev->event != RDMA_CM_EVENT_TIMEWAIT_EXIT)
			pr_debug("cm event %s (%d)\n",
				 rdma_event_msg(ev->event), ev->status);
		xr_ep_set_close_reason(ep, xr_ep_cm_reason(ev->event));
		xr_ep_set_cm_error(ep, ev);
		if (ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL)
			trace_xrpcrdma_device_removal(ep);
		trace_xrpcrdma_disconnect(ep, false);
		xr_ep_cm_ended(ep, id, ev->event);
		/* A resolver still waiting gives up. */
		if (ep->ep_active)
			xr_ep_resolved(ep, -ENETUNREACH);
		if (!test_bit(XR_EP_DESTROYING, &ep->ep_cm_flags))
			ep->ep_ops->eo_disconnected(ep);
		break;
	default:
		break;
	}
	return 0;
}

/* A listening ID on the listener's address; ERR_PTR on failure. */
static struct rdma_cm_id *xr_ep_listen_id(struct xr_ep *ep)
{
	struct sockaddr *sa = (struct sockaddr *)&ep->ep_listen_addr;
	struct rdma_cm_id *id;
	int err;

	id = rdma_create_id(ep->ep_listen_net, xr_ep_cm_handler, ep,
			    RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(id))
		return id;
	if (sa->sa_family == AF_INET6) {
		err = rdma_set_afonly(id, 1);
		if (err)
			goto out_destroy;
	}
	err = rdma_bind_addr(id, sa);
	if (err)
		goto out_destroy;
	err = rdma_listen(id, ep->ep_listen_backlog);
	if (err)
		goto out_destroy;
	return id;

out_destroy:
	rdma_destroy_id(id);
	return ERR_PTR(err);
}

/*
 * After an address change the device may not carry the listener's
 * address yet: RoCE devices update their GID tables from a work queue of
 * their own, and binding meanwhile fails with -ENODEV. So a listener
 * tries again, 100 ms later and then twice as long each time up to
 * 1.6 s, about 13 s in all, before it gives up.
 */
#define XR_RELISTEN_TRIES	12
#define XR_RELISTEN_DELAY_MS	100
#define XR_RELISTEN_DELAY_MAX_MS	1600

static unsigned long xr_ep_relisten_delay(unsigned int tries)
{
	unsigned int ms = XR_RELISTEN_DELAY_MS << min(tries - 1, 4U);

	return msecs_to_jiffies(min(ms, XR_RELISTEN_DELAY_MAX_MS));
}

/*
 * Replace the listening ID: the old one goes first, since the new one
 * binds the same address and port. Requests arriving in between are
 * refused, as with no listener. If no new ID can be had after
 * XR_RELISTEN_TRIES tries, the owner is told as for a lost device, and
 * closes the listener.
 */
static void xr_ep_relisten_work(struct work_struct *work)
{
	struct xr_ep *ep = container_of(to_delayed_work(work), struct xr_ep,
					ep_relisten);
	struct rdma_cm_id *id;

	mutex_lock(&ep->ep_listen_lock);
	if (ep->ep_listen_stopping)
		goto out;
	if (ep->ep_id) {
		rdma_destroy_id(ep->ep_id);
		ep->ep_id = NULL;
	}
	id = xr_ep_listen_id(ep);
	if (!IS_ERR(id)) {
		ep->ep_id = id;
		ep->ep_relisten_tries = 0;
		goto out;
	}
	if (++ep->ep_relisten_tries < XR_RELISTEN_TRIES) {
		pr_debug("listening again after an address change: %ld, try %u\n",
			 PTR_ERR(id), ep->ep_relisten_tries);
		schedule_delayed_work(&ep->ep_relisten,
				      xr_ep_relisten_delay(ep->ep_relisten_tries));
		goto out;
	}
	pr_warn("listening again after an address change: %ld, giving up after %u tries\n",
		PTR_ERR(id), ep->ep_relisten_tries);
	ep->ep_relisten_tries = 0;
	xr_ep_set_close_reason(ep, XRPCRDMA_CLOSE_REASON_CM_ERROR);
	ep->ep_ops->eo_disconnected(ep);
out:
	mutex_unlock(&ep->ep_listen_lock);
}

/**
 * xr_ep_listen - make @ep a listener
 * @ep: endpoint, zeroed by the caller
 * @ops: the owner's callbacks
 * @net: network namespace
 * @sa: address and port to listen on
 * @backlog: connection requests that may wait
 *
 * When the connection manager reports an address change of the device
 * under the listener (a bonding fail-over), the listener goes on with a
 * new ID on the same address and port.
 *
 * Return values:
 *   %0: listening
 *   %-EADDRINUSE, %-EADDRNOTAVAIL, ...: from the connection manager
 *   %-ENOMEM: no memory
 */
int xr_ep_listen(struct xr_ep *ep, const struct xr_ep_ops *ops,
		 struct net *net, struct sockaddr *sa, int backlog)
{
	struct rdma_cm_id *id;

	might_sleep();
	ep->ep_ops = ops;
	ep->ep_listening = 1;
	memcpy(&ep->ep_listen_addr, sa, rdma_addr_size(sa));
	ep->ep_listen_net = net;
	ep->ep_listen_backlog = backlog;
	mutex_init(&ep->ep_listen_lock);
	INIT_DELAYED_WORK(&ep->ep_relisten, xr_ep_relisten_work);
	/* An address change reported at once replaces it under the lock. */
	mutex_lock(&ep->ep_listen_lock);
	id = xr_ep_listen_id(ep);
	if (!IS_ERR(id))
		ep->ep_id = id;
	else
		ep->ep_listen_stopping = true;
	mutex_unlock(&ep->ep_listen_lock);
	if (IS_ERR(id))
		/*
		 * An address change reported between the bind and the failed
		 * listen queued a replacement: the caller frees @ep next.
		 */
		cancel_delayed_work_sync(&ep->ep_relisten);
	return PTR_ERR_OR_ZERO(id);
}

/**
 * xr_ep_listen_local - the address and port a listener is bound to
 * @ep: a listening endpoint
 * @ss: where to copy them
 *
 * Read under the lock that serialises replacing the listener's ID: an
 * address change may be replacing it. Never with a lock held that the
 * connection manager's callbacks take (the replacement waits for them).
 */
void xr_ep_listen_local(struct xr_ep *ep, struct sockaddr_storage *ss)
{
	const struct sockaddr *sa = (struct sockaddr *)&ep->ep_listen_addr;

	mutex_lock(&ep->ep_listen_lock);
	if (ep->ep_id)
		sa = (struct sockaddr *)&ep->ep_id->route.addr.src_addr;
	memcpy(ss, sa, rdma_addr_size(sa));
	mutex_unlock(&ep->ep_listen_lock);
}

/* Wait for the resolution step just started; 0 or a negative errno. */
static int xr_ep_wait_resolved(struct xr_ep *ep, unsigned long timeout_ms)
{
	/* The connection manager reports its own timeout; this is a bound. */
	if (!wait_for_completion_timeout(&ep->ep_resolve_done,
					 msecs_to_jiffies(2 * timeout_ms)))
		return -ETIMEDOUT;
	return ep->ep_resolve_status;
}

/**
 * xr_ep_resolve - find the device and route to a server
 * @ep: endpoint, zeroed by the caller
 * @ops: the owner's callbacks (established and disconnected)
 * @net: network namespace
 * @dst: the server's address and port
 * @timeout_ms: bound on each of the two resolution steps
 *
 * On success the endpoint is bound to an RDMA device: the caller creates
 * the queue pair (xr_ep_create_qp()), posts its Receives and calls
 * xr_ep_connect(). Sleeps.
 *
 * Return values:
 *   %0: resolved; xr_ep_destroy() releases the endpoint
 *   %-ETIMEDOUT, %-EHOSTUNREACH, %-ENETUNREACH, ...: nothing is left
 *       allocated
 */
int xr_ep_resolve(struct xr_ep *ep, const struct xr_ep_ops *ops,
		  struct net *net, struct sockaddr *dst,
		  unsigned long timeout_ms)
{
	struct rdma_cm_id *id;
	int err;

	might_sleep();
	ep->ep_ops = ops;
	ep->ep_active = 1;
	init_completion(&ep->ep_resolve_done);
	id = rdma_create_id(net, xr_ep_cm_handler, ep, RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(id))
		return PTR_ERR(id);

	err = rdma_resolve_addr(id, NULL, dst, timeout_ms);
	if (!err)
		err = xr_ep_wait_resolved(ep, timeout_ms);
	if (err)
		goto out_destroy;
	reinit_completion(&ep->ep_resolve_done);
	err = rdma_resolve_route(id, timeout_ms);
	if (!err)
		err = xr_ep_wait_resolved(ep, timeout_ms);
	if (err)
		goto out_destroy;
	ep->ep_id = id;
	trace_xrpcrdma_resolve(ep, dst, 0);
	return 0;

out_destroy:
	trace_xrpcrdma_resolve(ep, dst, err);
	/* No callback runs once this returns. */
	rdma_destroy_id(id);
	return err;
}

/**
 * xr_ep_connect - ask the server to accept, advertising @ours
 * @ep: a resolved endpoint with its queue pair created
 * @ours: our RFC 8797 private data
 *
 * The outcome arrives as eo_established (the server's private data is
 * in ep_peer by then; defaults if it sent none) or eo_disconnected
 * (ep_cm_error says why).
 *
 * Return: 0 when the request went out, or a negative errno.
 */
int xr_ep_connect(struct xr_ep *ep, const struct xr_cm_pdata *ours)
{
	struct ib_device_attr *attrs = &ep->ep_id->device->attrs;
	u8 pdata[XR_CM_PDATA_SIZE];
	struct rdma_conn_param param = {
		.private_data		= pdata,
		.private_data_len	= sizeof(pdata),
		/* The server reads our Read chunks; we read nothing. */
		.responder_resources	= min_t(int, attrs->max_qp_rd_atom,
						U8_MAX),
		.initiator_depth	= 0,
		.rnr_retry_count	= 7,
		.retry_count		= 6,
		.flow_control		= 1,
	};
	int len, err;

	len = xr_cm_pdata_encode(pdata, sizeof(pdata), ours);
	if (len < 0)
		return len;
	err = rdma_connect(ep->ep_id, &param);
	trace_xrpcrdma_connect(ep, ours, err);
	return err;
}

/**
 * xr_ep_adopt - make @ep the endpoint of a new connection
 * @ep: endpoint, zeroed by the caller
 * @ops: the owner's callbacks
 * @id: the new connection's ID, from eo_connect_request
 * @peer: the peer's private data
 * @peer_rd_atom: RDMA Reads the peer can answer at once (its responder
 *	resources): the most this side may have outstanding
 *
 * Events on @id go to @ep from now on.
 */
void xr_ep_adopt(struct xr_ep *ep, const struct xr_ep_ops *ops,
		 struct rdma_cm_id *id, const struct xr_cm_pdata *peer,
		 u8 peer_rd_atom)
{
	ep->ep_ops = ops;
	ep->ep_id = id;
	ep->ep_peer = *peer;
	ep->ep_peer_rd_atom = peer_rd_atom;
	id->context = ep;
}

/**
 * xr_ep_accept - accept the connection, advertising @ours
 * @ep: endpoint with its QP created
 * @ours: our RFC 8797 private data
 *
 * Context: process, outside the ID's event handler. The connection
 * manager wants the handler's lock held across rdma_accept(): an event
 * (a device removal, the peer's reject) must not change the ID's state
 * under it.
 *
 * Return: 0, or a negative errno from the connection manager.
 */
int xr_ep_accept(struct xr_ep *ep, const struct xr_cm_pdata *ours)
{
	struct ib_device_attr *attrs = &ep->ep_id->device->attrs;
	u8 pdata[XR_CM_PDATA_SIZE];
	struct rdma_conn_param param = {
		.private_data		= pdata,
		.private_data_len	= sizeof(pdata),
		.responder_resources	= 0,
		.rnr_retry_count	= 7,
		.retry_count		= 7,
	};
	int len, err;

	/* This side issues the RDMA Reads; the peer answers them. */
	param.initiator_depth = min_t(int, ep->ep_peer_rd_atom,
				      attrs->max_qp_init_rd_atom);

	len = xr_cm_pdata_encode(pdata, sizeof(pdata), ours);
	if (len < 0)
		return len;
	rdma_lock_handler(ep->ep_id);
	err = rdma_accept(ep->ep_id, &param);
	if (!err)
		set_bit(XR_EP_ACCEPTED, &ep->ep_cm_flags);
	rdma_unlock_handler(ep->ep_id);
	trace_xrpcrdma_accept(ep, ours, err);
	return err;
}

/**
 * xr_ep_disconnect - start an orderly disconnect
 * @ep: a connected endpoint, or an accepted one still waiting for its RTU
 *	(its queue pair stops, and its disconnect goes out at the
 *	connection manager's next event)
 */
void xr_ep_disconnect(struct xr_ep *ep)
{
	trace_xrpcrdma_disconnect(ep, true);
	if (!ep->ep_id || xr_ep_hold_disconnect(ep))
		return;
	rdma_disconnect(ep->ep_id);
}

/* Stop a listener's ID replacement: none runs or is queued after this. */
static void xr_ep_stop_listening(struct xr_ep *ep)
{
	struct rdma_cm_id *id;

	mutex_lock(&ep->ep_listen_lock);
	ep->ep_listen_stopping = true;
	id = ep->ep_id;
	ep->ep_id = NULL;
	mutex_unlock(&ep->ep_listen_lock);
	/* No callback runs once this returns: nothing queues the work. */
	if (id)
		rdma_destroy_id(id);
	cancel_delayed_work_sync(&ep->ep_relisten);
}

/**
 * xr_ep_destroy - release everything the endpoint holds
 * @ep: endpoint; never from its own connection manager callback
 *
 * Drains the queue pair first if xr_ep_drain() was not called.
 */
void xr_ep_destroy(struct xr_ep *ep)
{
	/* Events from now on are not the owner's: it is going. */
	set_bit(XR_EP_DESTROYING, &ep->ep_cm_flags);
	if (ep->ep_listening)
		xr_ep_stop_listening(ep);
	xr_ep_drain(ep);
	if (ep->ep_qp) {
		rdma_destroy_qp(ep->ep_id);
		ep->ep_qp = NULL;
		/* The last event of the queue pair came before that. */
		cancel_work_sync(&ep->ep_qp_fatal);
	}
	if (ep->ep_rcq)
		ib_free_cq(ep->ep_rcq);
	if (ep->ep_scq)
		ib_free_cq(ep->ep_scq);
	if (ep->ep_pd)
		ib_dealloc_pd(ep->ep_pd);
	if (ep->ep_id) {
		xr_ep_wait_held_disconnect(ep);
		rdma_destroy_id(ep->ep_id);
	}
	ep->ep_rcq = NULL;
	ep->ep_scq = NULL;
	ep->ep_pd = NULL;
	ep->ep_id = NULL;
}
