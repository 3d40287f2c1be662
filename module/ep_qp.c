// SPDX-License-Identifier: GPL-2.0
/*
 * ep_qp.c - the queue pair of a connection endpoint (ep.c has the
 * connection manager's side): its protection domain and completion
 * queues, made at depths the device can hold; the device's asynchronous
 * events of the queue pair; and the drain before its teardown.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <rdma/rdma_cm.h>

#include "ep.h"
#include "trace_ep.h"

/* Asynchronous events of a queue pair that its connection survives. */
static bool xr_ep_qp_event_benign(enum ib_event_type event)
{
	switch (event) {
	case IB_EVENT_COMM_EST:
	case IB_EVENT_SQ_DRAINED:
	case IB_EVENT_PATH_MIG:
	case IB_EVENT_QP_LAST_WQE_REACHED:
		return true;
	default:
		return false;
	}
}

static void xr_ep_qp_fatal_work(struct work_struct *work)
{
	struct xr_ep *ep = container_of(work, struct xr_ep, ep_qp_fatal);

	if (!test_bit(XR_EP_DESTROYING, &ep->ep_cm_flags) &&
	    ep->ep_ops->eo_qp_fatal)
		ep->ep_ops->eo_qp_fatal(ep);
}

/*
 * The device's asynchronous events of a connection's queue pair. Any
 * context, a hard interrupt's included: a fatal event is handed to a work
 * item. A message received before the RTU (COMM_EST) is left to the
 * connection manager, which has the RTU or sends its REP again: telling
 * it the connection is up (rdma_notify()) can leave the REP retransmitting
 * when the peer's DREQ crosses it (see xr_ep_disconnect()).
 */
static void xr_ep_qp_event(struct ib_event *event, void *context)
{
	struct xr_ep *ep = context;

	trace_xrpcrdma_qp_event(ep, event->element.qp, event->event);
	if (xr_ep_qp_event_benign(event->event))
		return;
	xr_ep_set_close_reason(ep, XRPCRDMA_CLOSE_REASON_QP_ERROR);
	pr_err_ratelimited("queue pair %u: %s\n", event->element.qp->qp_num,
			   ib_event_msg(event->event));
	queue_work(xr_percpu_wq, &ep->ep_qp_fatal);
}

/**
 * xr_ep_raise_qp_event - raise an asynchronous event on the queue pair
 * @ep: a connection with its queue pair
 * @event: the event, as the device would report it
 *
 * For the fault points: the event reaches the handler the queue pair was
 * created with, and nothing else happens to the queue pair.
 */
void xr_ep_raise_qp_event(struct xr_ep *ep, enum ib_event_type event)
{
	struct ib_qp *qp = ep->ep_qp;
	struct ib_event ev = {
		.device		= qp->device,
		.element.qp	= qp,
		.event		= event,
	};

	if (qp->event_handler)
		qp->event_handler(&ev, qp->qp_context);
}

/*
 * Send queue entries one RDMA Read/Write context may need at most: the
 * transfer itself, and a registration and an invalidation where rdma_rw
 * uses memory regions.
 */
#define XR_EP_RW_WRS_PER_CTX	3

/* Work requests ib_drain_qp() posts to each queue, beyond what we post. */
#define XR_EP_DRAIN_WRS	1

/* Scatter/gather entries per work request: enough for rdma_rw to move a
 * large chunk in few work requests, within what the device offers.
 */
#define XR_EP_MAX_SEND_SGE	32

/*
 * The deepest queue (and completion queue) the device makes, less the
 * entry kept for the drain.
 */
static u32 xr_ep_max_depth(const struct ib_device_attr *attrs)
{
	u32 wrs = min_t(u32, attrs->max_qp_wr, attrs->max_cqe);

	return wrs > XR_EP_DRAIN_WRS ? wrs - XR_EP_DRAIN_WRS : 1;
}

/*
 * RDMA Read/Write contexts the device has room for beside @sq_depth
 * Sends: each takes send queue and completion queue entries (and where
 * rdma_rw registers memory, a memory region of the queue pair's pool).
 */
static u32 xr_ep_rw_ctxs_max(const struct ib_device_attr *attrs, u32 sq_depth)
{
	u32 wrs = min_t(u32, attrs->max_qp_wr, attrs->max_cqe);

	if (wrs <= sq_depth)
		return 0;
	return min_t(u32, (wrs - sq_depth) / XR_EP_RW_WRS_PER_CTX,
		     attrs->max_mr);
}

/**
 * xr_ep_create_qp - allocate the verbs resources of a connection
 * @ep: an adopted endpoint
 * @sq_depth: Sends that may be outstanding
 * @rq_depth: receive queue depth
 * @rw_ctxs: RDMA Read/Write contexts that may be outstanding, at most
 *	what the device has room for
 *
 * The send queue (and ep_sq_depth, the slots xr_sendq_reserve() hands
 * out) grows by what the RDMA Read/Write contexts need; the send
 * completion queue is sized for all of it. Each queue and its completion
 * queue have one entry more, for the drain (xr_ep_drain()). Depths the
 * device cannot hold are lowered to what it can: the owner reads the
 * receive queue's in ep_rq_depth. A queue pair asked for without RDMA
 * Read/Write contexts (the client's) asks for one SGE per Send, the
 * only ones it posts: a larger work request takes room a device may
 * count against its depth. One that does RDMA Reads and Writes keeps
 * more, even when the device has room for none of its contexts.
 *
 * Return values:
 *   %0: PD, CQs and QP exist; xr_ep_destroy() releases them
 *   %-ENOMEM, ...: nothing was left allocated
 */
int xr_ep_create_qp(struct xr_ep *ep, u32 sq_depth, u32 rq_depth,
		    u32 rw_ctxs)
{
	struct ib_device *dev = ep->ep_id->device;
	struct ib_qp_init_attr attr = {};
	/* Asked for before the device's room lowers them, maybe to none. */
	bool does_rw = rw_ctxs;
	u32 scq_depth;
	int err;

	might_sleep();
	/* One that does RDMA Reads and Writes leaves half to their contexts. */
	sq_depth = min(sq_depth, does_rw ? xr_ep_max_depth(&dev->attrs) / 2 :
		       xr_ep_max_depth(&dev->attrs));
	rq_depth = min(rq_depth, xr_ep_max_depth(&dev->attrs));
	rw_ctxs = min(rw_ctxs, xr_ep_rw_ctxs_max(&dev->attrs,
						 sq_depth + XR_EP_DRAIN_WRS));
	scq_depth = sq_depth + rw_ctxs * XR_EP_RW_WRS_PER_CTX;
	ep->ep_pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(ep->ep_pd)) {
		err = PTR_ERR(ep->ep_pd);
		goto out;
	}
	ep->ep_scq = ib_alloc_cq_any(dev, ep, scq_depth + XR_EP_DRAIN_WRS,
				     IB_POLL_WORKQUEUE);
	if (IS_ERR(ep->ep_scq)) {
		err = PTR_ERR(ep->ep_scq);
		goto out_pd;
	}
	ep->ep_rcq = ib_alloc_cq_any(dev, ep, rq_depth + XR_EP_DRAIN_WRS,
				     IB_POLL_WORKQUEUE);
	if (IS_ERR(ep->ep_rcq)) {
		err = PTR_ERR(ep->ep_rcq);
		goto out_scq;
	}

	INIT_WORK(&ep->ep_qp_fatal, xr_ep_qp_fatal_work);
	attr.event_handler = xr_ep_qp_event;
	attr.qp_context = ep;
	attr.send_cq = ep->ep_scq;
	attr.recv_cq = ep->ep_rcq;
	attr.port_num = ep->ep_id->port_num;
	/*
	 * Room for the drain: a queue we keep full would refuse its work
	 * request (and its completion overflow the queue) on a device that
	 * does not round the depths up.
	 */
	attr.cap.max_send_wr = sq_depth + XR_EP_DRAIN_WRS;
	attr.cap.max_recv_wr = rq_depth + XR_EP_DRAIN_WRS;
	attr.cap.max_rdma_ctxs = rw_ctxs;
	attr.cap.max_send_sge = does_rw ? min_t(u32, dev->attrs.max_send_sge,
						XR_EP_MAX_SEND_SGE) : 1;
	attr.cap.max_recv_sge = 1;
	attr.sq_sig_type = IB_SIGNAL_REQ_WR;
	attr.qp_type = IB_QPT_RC;
	err = rdma_create_qp(ep->ep_id, ep->ep_pd, &attr);
	if (err)
		goto out_rcq;
	ep->ep_qp = ep->ep_id->qp;
	/* rdma_rw added its entries to max_send_wr. */
	ep->ep_sq_depth = min(attr.cap.max_send_wr - XR_EP_DRAIN_WRS,
			      scq_depth);
	ep->ep_rq_depth = rq_depth;
	return 0;

out_rcq:
	ib_free_cq(ep->ep_rcq);
out_scq:
	ib_free_cq(ep->ep_scq);
out_pd:
	ib_dealloc_pd(ep->ep_pd);
out:
	ep->ep_pd = NULL;
	ep->ep_scq = NULL;
	ep->ep_rcq = NULL;
	return err;
}

/**
 * xr_ep_drain - flush the queue pair
 * @ep: endpoint; never from its own connection manager callback
 *
 * Every posted work request completes (most with a flush status) before
 * this returns; none can be posted afterwards. The device, the PD and
 * DMA mappings stay valid until xr_ep_destroy().
 *
 * Only the owner's teardown drains, when nothing can post any more: a
 * drain while others still post would let their work requests complete
 * after the contexts are freed. Calling it again once it returned does
 * nothing; a caller that finds a drain running is a bug (warned about),
 * and returns without waiting for it.
 */
void xr_ep_drain(struct xr_ep *ep)
{
	int was;

	might_sleep();
	if (!ep->ep_qp)
		return;
	was = cmpxchg(&ep->ep_drained, XR_EP_UNDRAINED, XR_EP_DRAINING);
	if (was != XR_EP_UNDRAINED) {
		WARN_ON_ONCE(was == XR_EP_DRAINING);
		return;
	}
	ib_drain_qp(ep->ep_qp);
	/* Pairs with xr_ep_check_wc(): later completions are bugs. */
	smp_store_release(&ep->ep_drained, XR_EP_DRAINED);
}
