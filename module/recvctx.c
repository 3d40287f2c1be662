// SPDX-License-Identifier: GPL-2.0
/*
 * recvctx.c - receive contexts: buffers DMA-mapped once, posted as Receive
 * work requests, and handed to the owner when a message lands. The owner
 * keeps as many posted as it grants credits. Nothing here parses what was
 * received.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "core.h"
#include "ep.h"
#include "fault.h"
#include "proto.h"
#include "recvq.h"
#include "snap.h"
#include "trace_wr.h"

static void xr_recvctx_done(struct ib_cq *cq, struct ib_wc *wc);

/**
 * xr_recvq_init - prepare the receive contexts of a connection
 * @rq: zeroed by the caller; the caller sets the owner callbacks
 * @ep: endpoint with its queue pair created
 * @buf_size: size of each buffer: the largest inline message accepted
 */
void xr_recvq_init(struct xr_recvq *rq, struct xr_ep *ep, u32 buf_size)
{
	spin_lock_init(&rq->rcvq_lock);
	INIT_LIST_HEAD(&rq->rcvq_free);
	INIT_LIST_HEAD(&rq->rcvq_ready);
	rq->rcvq_ep = ep;
	rq->rcvq_buf_size = buf_size;
}

/* The header's lists go back to the storage in the context itself. */
static void xr_recvctx_attach(struct xr_recvctx *rc)
{
	xr_hdr_attach(&rc->rctx_hdr, rc->rctx_writes, ARRAY_SIZE(rc->rctx_writes),
		      rc->rctx_reads, ARRAY_SIZE(rc->rctx_reads), rc->rctx_segs,
		      ARRAY_SIZE(rc->rctx_segs));
}

/* Give up the larger list storage of the request that used @rc. */
static void xr_recvctx_shrink(struct xr_recvctx *rc)
{
	if (!rc->rctx_lists)
		return;
	kfree(rc->rctx_lists);
	rc->rctx_lists = NULL;
	atomic_dec(&rc->rctx_pool->rcvq_lists);
	xr_recvctx_attach(rc);
}

static void xr_recvctx_free(struct xr_recvctx *rc)
{
	struct xr_recvq *rq = rc->rctx_pool;

	xr_recvctx_shrink(rc);
	ib_dma_unmap_single(rq->rcvq_ep->ep_pd->device, rc->rctx_sge.addr,
			    rq->rcvq_buf_size, DMA_FROM_DEVICE);
	kfree(rc->rctx_buf);
	kfree(rc);
	atomic_dec(&rq->rcvq_allocated);
	xr_obj_put(XR_OBJ_RECVCTX);
}

static struct xr_recvctx *xr_recvctx_alloc(struct xr_recvq *rq)
{
	struct ib_device *dev = rq->rcvq_ep->ep_pd->device;
	struct xr_recvctx *rc;

	rc = kzalloc(sizeof(*rc), GFP_KERNEL);
	if (!rc)
		goto out;
	rc->rctx_buf = kmalloc(rq->rcvq_buf_size, GFP_KERNEL);
	if (!rc->rctx_buf)
		goto out_free;
	if (xr_fault_hit(XRPCRDMA_FAULT_POINT_DMA_MAP, rq->rcvq_ep))
		goto out_free_buf;
	rc->rctx_sge.addr = ib_dma_map_single(dev, rc->rctx_buf, rq->rcvq_buf_size,
					      DMA_FROM_DEVICE);
	if (ib_dma_mapping_error(dev, rc->rctx_sge.addr))
		goto out_free_buf;
	rc->rctx_sge.length = rq->rcvq_buf_size;
	rc->rctx_sge.lkey = rq->rcvq_ep->ep_pd->local_dma_lkey;
	rc->rctx_pool = rq;
	xr_recvctx_attach(rc);
	rc->rctx_cqe.done = xr_recvctx_done;
	rc->rctx_wr.wr_cqe = &rc->rctx_cqe;
	rc->rctx_wr.sg_list = &rc->rctx_sge;
	rc->rctx_wr.num_sge = 1;
	atomic_inc(&rq->rcvq_allocated);
	xr_obj_get(XR_OBJ_RECVCTX);
	return rc;

out_free_buf:
	kfree(rc->rctx_buf);
out_free:
	kfree(rc);
out:
	return NULL;
}

/* Make what the device wrote visible to the CPU. */
static void xr_recvctx_sync(struct xr_recvctx *rc)
{
	ib_dma_sync_single_for_cpu(rc->rctx_pool->rcvq_ep->ep_pd->device,
				   rc->rctx_sge.addr, rc->rctx_byte_len,
				   DMA_FROM_DEVICE);
}

static struct xr_recvctx *xr_recvctx_get(struct xr_recvq *rq)
{
	struct xr_recvctx *rc;

	spin_lock(&rq->rcvq_lock);
	rc = list_first_entry_or_null(&rq->rcvq_free, struct xr_recvctx,
				      rctx_list);
	if (rc)
		list_del(&rc->rctx_list);
	spin_unlock(&rq->rcvq_lock);
	return rc ? rc : xr_recvctx_alloc(rq);
}

/**
 * xr_recvctx_put - return a receive context to its pool, unposted
 * @rc: a context the owner is done with
 *
 * List storage xr_recvctx_decode() took for it is freed.
 */
void xr_recvctx_put(struct xr_recvctx *rc)
{
	struct xr_recvq *rq = rc->rctx_pool;

	xr_recvctx_shrink(rc);
	spin_lock(&rq->rcvq_lock);
	list_add(&rc->rctx_list, &rq->rcvq_free);
	spin_unlock(&rq->rcvq_lock);
}

/**
 * xr_recvq_post - post @count more Receives
 * @rq: the receive contexts of a connection
 * @count: number of Receives to post
 *
 * Return values:
 *   %0: all posted
 *   %-ENOMEM: no memory for a context (some may have been posted)
 *   %-ENOTCONN: the post failed; the connection is unusable
 */
int xr_recvq_post(struct xr_recvq *rq, u32 count)
{
	struct xr_recvctx *rc;
	int err;

	while (count--) {
		rc = xr_recvctx_get(rq);
		if (!rc)
			return -ENOMEM;
		/* Counted first: its completion may come at once. */
		atomic_inc(&rq->rcvq_posted);
		if (trace_xrpcrdma_post_recv_enabled() ||
		    trace_xrpcrdma_wc_receive_enabled())
			xr_cid_assign(&rc->rctx_cid, rq->rcvq_ep->ep_rcq,
				      &rq->rcvq_ep->ep_rcq_cids);
		trace_xrpcrdma_post_recv(rc);
		err = xr_fault_hit(XRPCRDMA_FAULT_POINT_POST_RECV, rq->rcvq_ep);
		if (!err)
			err = ib_post_recv(rq->rcvq_ep->ep_qp, &rc->rctx_wr, NULL);
		if (err) {
			trace_xrpcrdma_post_err(rq->rcvq_ep, &rc->rctx_cid,
						XR_TRACE_WR_RECV, err);
			atomic_dec(&rq->rcvq_posted);
			xr_recvctx_put(rc);
			return -ENOTCONN;
		}
	}
	return 0;
}

/**
 * xr_recvq_next_ready - take the oldest received message
 * @rq: the receive contexts of a connection
 *
 * The buffer is synced for the CPU; the caller puts the context back with
 * xr_recvctx_put() when done with it.
 *
 * Return: the context, or NULL when nothing is waiting.
 */
struct xr_recvctx *xr_recvq_next_ready(struct xr_recvq *rq)
{
	struct xr_recvctx *rc;

	spin_lock(&rq->rcvq_lock);
	rc = list_first_entry_or_null(&rq->rcvq_ready, struct xr_recvctx,
				      rctx_list);
	if (rc)
		list_del(&rc->rctx_list);
	spin_unlock(&rq->rcvq_lock);
	return rc;
}

/**
 * xr_recvctx_drop - whether a received message is to be lost
 * @rc: a message the owner was given or took with xr_recvq_next_ready()
 *
 * The recv-drop fault point. The owner asks once per message, and on
 * true puts the context back without reading it and posts another
 * Receive: the peer never gets an answer, as if the message had been
 * lost on the way.
 *
 * Return: true to drop the message.
 */
bool xr_recvctx_drop(struct xr_recvctx *rc)
{
	return xr_fault_hit(XRPCRDMA_FAULT_POINT_RECV_DROP, rc->rctx_pool->rcvq_ep);
}

/**
 * xr_recvctx_decode - decode the transport header of a received message
 * @rc: the context, synced for the CPU; its header goes to @rc->rctx_hdr
 * @lim: what the owner accepts
 * @may_grow: the caller may sleep: a valid header whose lists do not fit
 *	the context's own storage is decoded again into storage for the
 *	largest call a server accepts (&struct xr_hdr_lists), which the
 *	context keeps until it is put back
 *
 * The limits are judged first (proto.c), so only a header within @lim
 * ever costs an allocation, and at most one per context in use.
 *
 * Return: as xr_hdr_decode(), and %-ENOMEM when larger storage was
 * needed but could not be had; %-ENOSPC when it was needed and
 * @may_grow is false, or @lim is beyond even the larger storage.
 */
int xr_recvctx_decode(struct xr_recvctx *rc, const struct xr_limits *lim,
		      bool may_grow)
{
	struct xr_hdr_lists *hl;
	int err;

	err = xr_hdr_decode(rc->rctx_buf, rc->rctx_byte_len, lim, &rc->rctx_hdr);
	if (err != -ENOSPC || !may_grow || rc->rctx_lists ||
	    lim->lm_max_write_chunks > ARRAY_SIZE(hl->hl_writes) ||
	    min(lim->lm_max_read_segs, lim->lm_max_segs) >
	    ARRAY_SIZE(hl->hl_reads) ||
	    lim->lm_max_segs > ARRAY_SIZE(hl->hl_segs))
		return err;
	hl = kmalloc(sizeof(*hl), GFP_KERNEL);
	if (!hl)
		return -ENOMEM;
	rc->rctx_lists = hl;
	atomic_inc(&rc->rctx_pool->rcvq_lists);
	xr_hdr_attach(&rc->rctx_hdr, hl->hl_writes, ARRAY_SIZE(hl->hl_writes),
		      hl->hl_reads, ARRAY_SIZE(hl->hl_reads), hl->hl_segs,
		      ARRAY_SIZE(hl->hl_segs));
	return xr_hdr_decode(rc->rctx_buf, rc->rctx_byte_len, lim, &rc->rctx_hdr);
}

/*
 * A Receive completed. Success: offer it to the owner, and queue it for
 * the owner if the offer is declined. Flush: the connection is being
 * torn down, keep the context for destroy. Other errors: close the
 * connection.
 */
static void xr_recvctx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct xr_recvctx *rc = container_of(wc->wr_cqe, struct xr_recvctx,
					     rctx_cqe);
	struct xr_recvq *rq = rc->rctx_pool;

	xr_ep_check_wc(rq->rcvq_ep);
	if (wc->status == IB_WC_SUCCESS && rq->rcvq_count_taken)
		atomic_inc(rq->rcvq_count_taken);
	atomic_dec(&rq->rcvq_posted);
	xr_fault_wc(rq->rcvq_ep, wc);
	trace_xrpcrdma_wc_receive(wc, &rc->rctx_cid);
	if (wc->status != IB_WC_SUCCESS) {
		if (wc->status != IB_WC_WR_FLUSH_ERR) {
			xr_count(rq->rcvq_count_errors);
			xr_ep_set_close_reason(rq->rcvq_ep,
					       XRPCRDMA_CLOSE_REASON_RECV_ERROR);
			xr_ep_report_wc_error(rq->rcvq_ep, XRPCRDMA_WC_KIND_RECV, wc);
			pr_err_ratelimited("receive completion: %s (%d)\n",
					   ib_wc_status_msg(wc->status),
					   wc->status);
			if (rq->rcvq_on_close)
				rq->rcvq_on_close(rq->rcvq_owner);
		}
		xr_recvctx_put(rc);
		return;
	}
	if (xr_fault_hit(XRPCRDMA_FAULT_POINT_QP_FATAL, rq->rcvq_ep))
		xr_ep_raise_qp_event(rq->rcvq_ep, IB_EVENT_QP_FATAL);
	rc->rctx_byte_len = wc->byte_len;
	rc->rctx_remote_inv = wc->wc_flags & IB_WC_WITH_INVALIDATE;
	rc->rctx_inv_rkey = wc->ex.invalidate_rkey;
	xr_recvctx_sync(rc);
	if (rq->rcvq_on_recv && rq->rcvq_on_recv(rq->rcvq_owner, rc))
		return;
	spin_lock(&rq->rcvq_lock);
	list_add_tail(&rc->rctx_list, &rq->rcvq_ready);
	spin_unlock(&rq->rcvq_lock);
	if (rq->rcvq_on_ready)
		rq->rcvq_on_ready(rq->rcvq_owner);
}

/*
 * Memory the receive contexts of a connection hold, counted as the slab
 * allocator rounds each allocation up: the context, its buffer, and list
 * storage taken for calls being processed. At most U32_MAX.
 */
static u32 xr_recvq_bytes(struct xr_recvq *rq)
{
	u64 each = kmalloc_size_roundup(sizeof(struct xr_recvctx)) +
		   kmalloc_size_roundup(rq->rcvq_buf_size);
	u64 bytes = each * (u32)atomic_read(&rq->rcvq_allocated) +
		    (u64)kmalloc_size_roundup(sizeof(struct xr_hdr_lists)) *
		    (u32)atomic_read(&rq->rcvq_lists);

	return min_t(u64, bytes, U32_MAX);
}

/**
 * xr_recvq_snapshot - copy the receive side's figures, for observers
 * @rq: the receive contexts of a connection
 * @cs: where to copy them
 */
void xr_recvq_snapshot(struct xr_recvq *rq, struct xr_conn_snap *cs)
{
	cs->cs_rq_depth = rq->rcvq_ep->ep_rq_depth;
	cs->cs_recvctx_allocated = atomic_read(&rq->rcvq_allocated);
	cs->cs_recvctx_bytes = xr_recvq_bytes(rq);
}

/**
 * xr_recvq_destroy - free every receive context
 * @rq: the receive contexts of a connection whose queue pair is drained
 */
void xr_recvq_destroy(struct xr_recvq *rq)
{
	struct xr_recvctx *rc, *next;

	list_splice_init(&rq->rcvq_ready, &rq->rcvq_free);
	list_for_each_entry_safe(rc, next, &rq->rcvq_free, rctx_list) {
		list_del(&rc->rctx_list);
		xr_recvctx_free(rc);
	}
	WARN_ON(atomic_read(&rq->rcvq_allocated));
	WARN_ON(atomic_read(&rq->rcvq_lists));
}
