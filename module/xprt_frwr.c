// SPDX-License-Identifier: GPL-2.0
/*
 * xprt_frwr.c - the client's memory registration with FRWR (fast
 * registration work requests): a pool of memory regions per connection,
 * registration of a request's buffers for the chunks it offers (IB_WR_REG_MR
 * chained before the Send by xprt_marshal.c), and invalidation (LOCAL_INV)
 * before the request's memory goes back to SUNRPC. Knows xdr_bufs and
 * segments, not RPC-over-RDMA headers. Our connect private data lets the
 * server invalidate a region itself with the reply (Send With Invalidate);
 * such a region needs no LOCAL_INV.
 *
 * A region belongs to the PD of one connection; a request holding regions
 * holds a reference on that connection, so the region's memory outlives
 * it. Once the queue pair is drained (the connection is closing) no
 * remote access is possible any more: regions are only unmapped, not
 * invalidated, and the close unmaps and deregisters even those requests
 * still hold, so the device can go away.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/highmem.h>
#include <linux/scatterlist.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/sunrpc/xdr.h>
#include <linux/sunrpc/xprt.h>
#include <rdma/ib_verbs.h>

#include "core.h"
#include "ep.h"
#include "fault.h"
#include "proto.h"
#include "sendq.h"
#include "stats.h"
#include "xprt.h"
#include "xprt_req.h"
#include "trace_wr.h"
#include "trace_xprt.h"

static void xr_frwr_reg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct xr_mr *mr = container_of(wc->wr_cqe, struct xr_mr, mr_reg_cqe);

	/* Unsignaled: only errors arrive here. */
	trace_xrpcrdma_wc_fastreg(wc, &mr->mr_reg_cid);
	if (wc->status != IB_WC_SUCCESS && wc->status != IB_WC_WR_FLUSH_ERR) {
		pr_err_ratelimited("registration: %s (%d)\n",
				   ib_wc_status_msg(wc->status), wc->status);
		xr_ep_set_close_reason(&mr->mr_conn->xc_ep,
				       XRPCRDMA_CLOSE_REASON_SEND_ERROR);
		xr_xconn_fail(mr->mr_conn);
	}
}

/*
 * An invalidation that failed leaves the queue pair in the error state,
 * where everything after it only flushes: the connection is done for.
 */
static void xr_frwr_inv_failed(struct xr_xconn *c, const struct ib_wc *wc)
{
	pr_err_ratelimited("invalidation: %s (%d)\n",
			   ib_wc_status_msg(wc->status), wc->status);
	xr_ep_set_close_reason(&c->xc_ep, XRPCRDMA_CLOSE_REASON_SEND_ERROR);
	xr_xconn_fail(c);
}

static void xr_frwr_inv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct xr_mr *mr = container_of(wc->wr_cqe, struct xr_mr, mr_inv_cqe);

	/* Unsignaled but for the last of a batch: only errors arrive here. */
	trace_xrpcrdma_wc_localinv(wc, &mr->mr_inv_cid);
	if (wc->status != IB_WC_SUCCESS && wc->status != IB_WC_WR_FLUSH_ERR)
		xr_frwr_inv_failed(mr->mr_conn, wc);
}

/*
 * The last invalidation of a batch is signaled: it returns the batch's
 * send queue slots, counts as progress of the send queue (a batch of
 * another thread waiting behind it sees the queue move) and wakes the
 * waiter.
 */
struct xr_frwr_inv_batch {
	struct ib_cqe		ib_cqe;
	struct completion	ib_done;
	struct xr_xconn		*ib_conn;
	u32			ib_slots;
	struct xr_cid		ib_cid;
};

/* The waiter, on the stack, holds the connection until this completes. */
static void xr_frwr_inv_last_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct xr_frwr_inv_batch *b = container_of(wc->wr_cqe,
						   struct xr_frwr_inv_batch,
						   ib_cqe);

	trace_xrpcrdma_wc_localinv(wc, &b->ib_cid);
	if (wc->status != IB_WC_SUCCESS && wc->status != IB_WC_WR_FLUSH_ERR)
		xr_frwr_inv_failed(b->ib_conn, wc);
	xr_sendq_progress(&b->ib_conn->xc_sq);
	xr_sendq_release(&b->ib_conn->xc_sq, b->ib_slots);
	complete(&b->ib_done);
}

static void xr_frwr_mr_free(struct xr_mr *mr)
{
	if (mr->mr_ibmr)
		ib_dereg_mr(mr->mr_ibmr);
	kfree(mr->mr_sg);
	kfree(mr);
	xr_obj_put(XR_OBJ_MR);
}

static struct xr_mr *xr_frwr_mr_alloc(struct xr_xconn *c, gfp_t gfp)
{
	struct xr_mr *mr;

	mr = kzalloc(sizeof(*mr), gfp);
	if (!mr)
		return NULL;
	mr->mr_sg = kcalloc(c->xc_max_pages, sizeof(*mr->mr_sg), gfp);
	if (!mr->mr_sg)
		goto out_free;
	mr->mr_ibmr = ib_alloc_mr(c->xc_ep.ep_pd, IB_MR_TYPE_MEM_REG,
				  c->xc_max_pages);
	if (IS_ERR(mr->mr_ibmr))
		goto out_free_sg;
	mr->mr_conn = c;
	mr->mr_reg_cqe.done = xr_frwr_reg_done;
	mr->mr_inv_cqe.done = xr_frwr_inv_done;
	xr_obj_get(XR_OBJ_MR);
	return mr;

out_free_sg:
	kfree(mr->mr_sg);
out_free:
	kfree(mr);
	return NULL;
}

/**
 * xr_frwr_max_payload - the largest RPC payload regions of a size carry
 * @pages: pages one memory region maps
 *
 * A payload is registered in one region or more, one per segment. The
 * tightest case is a Reply chunk: its head and tail take a segment
 * each, which leaves two of its XR_REQ_MAX_WSEGS for the pages, and
 * those may start at any page offset, so one page of the regions' may
 * hold no payload.
 *
 * Return: bytes, at most XR_XPRT_MAX_PAYLOAD
 */
u32 xr_frwr_max_payload(u32 pages)
{
	u32 n = (XR_REQ_MAX_WSEGS - 2) * pages - 1;

	BUILD_BUG_ON(XR_REQ_MAX_WSEGS < 3);
	return min_t(u32, XR_XPRT_MAX_PAYLOAD, n << PAGE_SHIFT);
}

/* Growing the pool while calls wait: fail rather than wait in reclaim. */
#define XR_FRWR_GROW_GFP	(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN)
/* After a growth that got nothing, how long until the next is tried */
#define XR_FRWR_GROW_RETRY	HZ

/* A new region for @c, counted and listed; NULL when none can be had. */
static struct xr_mr *xr_frwr_pool_add(struct xr_xconn *c, gfp_t gfp)
{
	struct xr_mr *mr;

	mr = xr_frwr_mr_alloc(c, gfp);
	if (!mr)
		return NULL;
	spin_lock(&c->xc_mr_lock);
	list_add(&mr->mr_all, &c->xc_mr_all);
	c->xc_mr_count++;
	spin_unlock(&c->xc_mr_lock);
	xr_xprt_count(c->xc_xprt, XR_XPRT_STAT_MRS_ALLOCATED, 1);
	return mr;
}

/**
 * xr_frwr_pool_orphan - let go of the device under a connection's regions
 * @c: a drained connection about to give up its PD
 *
 * Unmaps every region, also those requests still hold, and deregisters
 * them: nothing of the device is left once this returns, so a device
 * being removed is not held up by RPCs that have not let go yet. The
 * regions themselves stay until xr_frwr_pool_destroy().
 */
void xr_frwr_pool_orphan(struct xr_xconn *c)
{
	struct ib_device *dev;
	struct xr_mr *mr;

	if (!c->xc_ep.ep_pd)
		return;
	dev = c->xc_ep.ep_pd->device;
	spin_lock(&c->xc_mr_lock);
	list_for_each_entry(mr, &c->xc_mr_all, mr_all) {
		if (mr->mr_nents)
			ib_dma_unmap_sg(dev, mr->mr_sg, mr->mr_nents,
					mr->mr_dir);
		mr->mr_nents = 0;
		/*
		 * No key to give back: the region is deregistered below,
		 * while a request may still be putting it back.
		 */
		mr->mr_unposted = false;
	}
	spin_unlock(&c->xc_mr_lock);
	list_for_each_entry(mr, &c->xc_mr_all, mr_all) {
		if (mr->mr_ibmr)
			ib_dereg_mr(mr->mr_ibmr);
		mr->mr_ibmr = NULL;
	}
}

/**
 * xr_frwr_pool_destroy - free the memory regions of a connection
 * @c: a connection no request holds any region of
 */
void xr_frwr_pool_destroy(struct xr_xconn *c)
{
	struct xr_mr *mr, *next;

	list_for_each_entry_safe(mr, next, &c->xc_mr_all, mr_all) {
		list_del(&mr->mr_all);
		xr_frwr_mr_free(mr);
	}
	INIT_LIST_HEAD(&c->xc_mr_free);
}

/**
 * xr_frwr_grow_work - allocate more memory regions for a connection
 * @work: the connection's xc_mr_work, queued by xr_frwr_get() with a
 *	reference on the connection for it
 *
 * Adds up to XR_REQ_MAX_MRS regions, within the connection's most, and
 * wakes the call waiting for them (xprt_write_space()). When none could
 * be had (the device has no more, or memory is short), no more are asked
 * for during XR_FRWR_GROW_RETRY: calls meanwhile wait out the RPC
 * layer's delay (-ENOBUFS) for one to come free, instead of asking for
 * more at once, again and again; after it, growing is tried again, as
 * memory may be back. Runs in the post section, so the close
 * (which deregisters every region, then lets the transport go) waits
 * for it, and nothing is added or woken once the connection is down.
 * Allocations fail rather than wait long in reclaim, and never recurse
 * into a file system: the calls waiting may be writing back its pages.
 */
static void xr_frwr_grow_work(struct work_struct *work)
{
	struct xr_xconn *c = container_of(work, struct xr_xconn, xc_mr_work);
	unsigned int nofs;
	struct xr_mr *mr;
	u32 n;

	down_read(&c->xc_post_rwsem);
	if (test_bit(XR_XC_DOWN, &c->xc_flags))
		goto out;
	nofs = memalloc_nofs_save();
	for (n = 0; n < XR_REQ_MAX_MRS && c->xc_mr_count < c->xc_mr_max; n++) {
		mr = xr_frwr_pool_add(c, XR_FRWR_GROW_GFP);
		if (!mr)
			break;
		spin_lock(&c->xc_mr_lock);
		list_add(&mr->mr_list, &c->xc_mr_free);
		spin_unlock(&c->xc_mr_lock);
	}
	memalloc_nofs_restore(nofs);
	if (!n && c->xc_mr_count < c->xc_mr_max) {
		WRITE_ONCE(c->xc_mr_retry, jiffies + XR_FRWR_GROW_RETRY);
		pr_warn_ratelimited("xprt %u: no memory region beyond %u for now\n",
				    c->xc_xprt->rx_id, c->xc_mr_count);
	}
	xprt_write_space(&c->xc_xprt->rx_xprt);
out:
	up_read(&c->xc_post_rwsem);
	xr_xconn_put(c);
}

/*
 * A free region of @c. From marshaling, under the transport's write
 * lock. When there is none but @c may have more, the call waits for
 * write space while a worker allocates them (-EAGAIN): allocating here
 * would hold up every call of the transport, and may be writing back
 * pages the allocation waits for.
 */
static int xr_frwr_get(struct xr_xconn *c, struct xr_mr **mrp)
{
	struct xr_mr *mr;

	spin_lock(&c->xc_mr_lock);
	mr = list_first_entry_or_null(&c->xc_mr_free, struct xr_mr, mr_list);
	if (mr)
		list_del_init(&mr->mr_list);
	spin_unlock(&c->xc_mr_lock);
	*mrp = mr;
	if (mr)
		return 0;
	if (READ_ONCE(c->xc_mr_count) >= c->xc_mr_max ||
	    time_before(jiffies, READ_ONCE(c->xc_mr_retry)) ||
	    test_bit(XR_XC_DOWN, &c->xc_flags))
		return -ENOBUFS;
	/* Before the worker can run: it wakes us only if this is set. */
	xprt_wait_for_buffer_space(&c->xc_xprt->rx_xprt);
	kref_get(&c->xc_ref);
	if (!queue_work(xr_xprt_wq, &c->xc_mr_work))
		xr_xconn_put(c);
	return -EAGAIN;
}

/**
 * xr_frwr_pool_init - allocate the first memory regions of a connection
 * @c: a connection with its queue pair created; its lists initialised
 * @count: how many to allocate now
 * @max: how many the connection may have; those past @count are
 *	allocated when a call finds none free (xr_frwr_get(),
 *	xr_frwr_grow_work())
 *
 * Return values:
 *   %0: allocated; xr_frwr_pool_destroy() frees them
 *   %-ENOMEM: no memory, or the device has no more regions
 *   %-EOPNOTSUPP: the device cannot do fast registration
 */
int xr_frwr_pool_init(struct xr_xconn *c, u32 count, u32 max)
{
	struct ib_device *dev = c->xc_ep.ep_pd->device;
	struct xr_mr *mr;
	u32 payload;

	INIT_WORK(&c->xc_mr_work, xr_frwr_grow_work);
	if (!xr_ep_has_frwr(&c->xc_ep))
		return -EOPNOTSUPP;
	c->xc_max_pages = min_t(u32, dev->attrs.max_fast_reg_page_list_len,
				c->xc_xprt->rx_config.cf_val[XR_CFG_MAX_FRWR_SEGMENTS]);
	if (c->xc_max_pages < 2)
		return -EOPNOTSUPP;
	/*
	 * A device that maps fewer pages than configured lowers the payload.
	 * NFS reads it after its first call (FSINFO), which waits for this
	 * connection, so its rsize and wsize follow.
	 */
	payload = xr_frwr_max_payload(c->xc_max_pages);
	if (payload < c->xc_xprt->rx_xprt.max_payload)
		c->xc_xprt->rx_xprt.max_payload = payload;
	c->xc_mr_max = max(count, max);
	c->xc_mr_retry = jiffies;
	while (count--) {
		mr = xr_frwr_pool_add(c, GFP_KERNEL);
		if (!mr)
			return -ENOMEM;
		list_add(&mr->mr_list, &c->xc_mr_free);
	}
	return 0;
}

/*
 * Unmapped under the lock: xr_frwr_pool_orphan() may be doing it too. A
 * region whose registration was never posted gets its old key back, the
 * one the device last registered, so its key and the device's agree.
 */
static void xr_frwr_put(struct xr_mr *mr)
{
	struct xr_xconn *c = mr->mr_conn;

	spin_lock(&c->xc_mr_lock);
	if (mr->mr_nents)
		ib_dma_unmap_sg(c->xc_ep.ep_pd->device, mr->mr_sg,
				mr->mr_nents, mr->mr_dir);
	mr->mr_nents = 0;
	mr->mr_remote_inv = false;
	if (mr->mr_unposted && mr->mr_ibmr)
		ib_update_fast_reg_key(mr->mr_ibmr, mr->mr_old_key);
	mr->mr_unposted = false;
	list_add(&mr->mr_list, &c->xc_mr_free);
	spin_unlock(&c->xc_mr_lock);
}

/* The request takes a reference on @c with its first region. */
static int xr_frwr_attach(struct xr_xconn *c, struct xr_req *req)
{
	if (req->rr_conn == c)
		return 0;
	if (req->rr_conn || req->rr_nmrs >= XR_REQ_MAX_MRS)
		return -EIO;
	kref_get(&c->xc_ref);
	req->rr_conn = c;
	return 0;
}

/*
 * Map and register @nents entries of @mr's scatterlist; fill @seg with
 * what the peer needs to reach them.
 */
static int xr_frwr_register(struct xr_xconn *c, struct xr_req *req,
			    struct xr_mr *mr, int nents, bool remote_write,
			    struct xr_seg *seg)
{
	struct ib_device *dev = c->xc_ep.ep_pd->device;
	struct ib_mr *ibmr = mr->mr_ibmr;
	int mapped, err;

	mr->mr_dir = remote_write ? DMA_FROM_DEVICE : DMA_TO_DEVICE;
	err = xr_fault_hit(XRPCRDMA_FAULT_POINT_DMA_MAP, &c->xc_ep);
	if (err)
		goto out_put_err;
	mr->mr_nents = ib_dma_map_sg(dev, mr->mr_sg, nents, mr->mr_dir);
	if (!mr->mr_nents)
		goto out_put;
	err = xr_fault_hit(XRPCRDMA_FAULT_POINT_FRWR_REG, &c->xc_ep);
	if (err)
		goto out_put_err;
	mapped = ib_map_mr_sg(ibmr, mr->mr_sg, mr->mr_nents, NULL, PAGE_SIZE);
	if (mapped != mr->mr_nents)
		goto out_put;

	/*
	 * A new key each time: a stale handle cannot reach this memory. The
	 * device learns it only when the registration is posted.
	 */
	mr->mr_old_key = ibmr->rkey & 0xff;
	ib_update_fast_reg_key(ibmr, ib_inc_rkey(ibmr->rkey));
	mr->mr_unposted = true;
	memset(&mr->mr_reg_wr, 0, sizeof(mr->mr_reg_wr));
	mr->mr_reg_wr.wr.opcode = IB_WR_REG_MR;
	mr->mr_reg_wr.wr.wr_cqe = &mr->mr_reg_cqe;
	mr->mr_reg_wr.mr = ibmr;
	mr->mr_reg_wr.key = ibmr->rkey;
	mr->mr_reg_wr.access = remote_write ?
		IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE :
		IB_ACCESS_REMOTE_READ;

	seg->sg_handle = ibmr->rkey;
	seg->sg_length = ibmr->length;
	seg->sg_offset = ibmr->iova;
	list_add_tail(&mr->mr_list, &req->rr_mrs);
	req->rr_nmrs++;
	return 0;

out_put:
	err = -EIO;
out_put_err:
	xr_frwr_put(mr);
	return err;
}

/**
 * xr_frwr_map_buf - register a kernel-virtual buffer as one segment
 * @c: the connection the request is sent on
 * @req: the request; the region joins its list
 * @kva: start of the buffer (kmalloc'ed memory)
 * @len: its length, not zero
 * @remote_write: the peer writes into it (else it reads from it)
 * @seg: filled with the segment to advertise
 *
 * Return values:
 *   %0: registered; the registration work request is on @req's chain
 *   %-EAGAIN: no free region yet: wait for write space, more are coming
 *   %-ENOBUFS: no free region: try again later
 *   %-EIO: the buffer cannot be registered
 */
int xr_frwr_map_buf(struct xr_xconn *c, struct xr_req *req, void *kva,
		    u32 len, bool remote_write, struct xr_seg *seg)
{
	unsigned long off = offset_in_page(kva);
	u32 npages = DIV_ROUND_UP(off + len, PAGE_SIZE);
	struct xr_mr *mr;
	int err;

	if (!len || npages > c->xc_max_pages)
		return -EIO;
	err = xr_frwr_attach(c, req);
	if (err)
		return err;
	err = xr_frwr_get(c, &mr);
	if (err)
		return err;
	sg_init_table(mr->mr_sg, 1);
	sg_set_buf(mr->mr_sg, kva, len);
	return xr_frwr_register(c, req, mr, 1, remote_write, seg);
}

/* Give a sparse page array the pages the peer is about to write. */
static int xr_frwr_fill_page(struct xdr_buf *buf, u32 index)
{
	if (buf->pages[index])
		return 0;
	if (!(buf->flags & XDRBUF_SPARSE_PAGES))
		return -EIO;
	buf->pages[index] = alloc_page(GFP_NOFS);
	return buf->pages[index] ? 0 : -ENOMEM;
}

/**
 * xr_frwr_map_pages - register the page list of an xdr_buf
 * @c: the connection the request is sent on
 * @req: the request; the regions join its list
 * @buf: the buffer; its page_len bytes from page_base are registered
 * @remote_write: the peer writes into them (else it reads from them)
 * @segs: filled with the segments to advertise, in order
 * @max_segs: room in @segs
 *
 * Return values:
 *   positive: the number of segments filled
 *   %-EAGAIN: no free region yet: wait for write space, more are coming
 *   %-ENOBUFS: no free region: try again later
 *   %-ENOMEM: no page for a sparse page list
 *   %-EIO: the pages cannot be registered in @max_segs segments
 */
int xr_frwr_map_pages(struct xr_xconn *c, struct xr_req *req,
		      struct xdr_buf *buf, bool remote_write,
		      struct xr_seg *segs, u32 max_segs)
{
	u32 left = buf->page_len, index = buf->page_base >> PAGE_SHIFT;
	u32 off = offset_in_page(buf->page_base), nsegs = 0;
	struct xr_mr *mr;
	int nents, err;

	err = xr_frwr_attach(c, req);
	if (err)
		return err;
	while (left) {
		if (nsegs == max_segs || req->rr_nmrs >= XR_REQ_MAX_MRS)
			return -EIO;
		err = xr_frwr_get(c, &mr);
		if (err)
			return err;
		sg_init_table(mr->mr_sg, c->xc_max_pages);
		for (nents = 0; left && nents < c->xc_max_pages; nents++) {
			u32 n = min_t(u32, left, PAGE_SIZE - off);

			err = xr_frwr_fill_page(buf, index);
			if (err) {
				xr_frwr_put(mr);
				return err;
			}
			sg_set_page(&mr->mr_sg[nents], buf->pages[index], n,
				    off);
			left -= n;
			off = 0;
			index++;
		}
		sg_mark_end(&mr->mr_sg[nents - 1]);
		err = xr_frwr_register(c, req, mr, nents, remote_write,
				       &segs[nsegs]);
		if (err)
			return err;
		nsegs++;
	}
	return nsegs;
}

/* The registration's completion ID and post event, while traced. */
static void xr_frwr_trace_reg(struct xr_mr *mr)
{
	struct xr_ep *ep = &mr->mr_conn->xc_ep;

	if (trace_xrpcrdma_post_fastreg_enabled() ||
	    trace_xrpcrdma_wc_fastreg_enabled())
		xr_cid_assign(&mr->mr_reg_cid, ep->ep_scq, &ep->ep_scq_cids);
	trace_xrpcrdma_post_fastreg(mr);
}

/*
 * The completion IDs and post events of the invalidations about to be
 * posted for @req, while they are traced.
 */
static void xr_frwr_trace_invs(struct xr_req *req)
{
	struct xr_ep *ep;
	struct xr_mr *mr;

	list_for_each_entry(mr, &req->rr_mrs, mr_list) {
		if (mr->mr_remote_inv || mr->mr_unposted)
			continue;
		ep = &mr->mr_conn->xc_ep;
		xr_cid_assign(&mr->mr_inv_cid, ep->ep_scq, &ep->ep_scq_cids);
		trace_xrpcrdma_post_localinv(mr);
	}
}

/**
 * xr_frwr_reg_chain - link the registrations of a request for posting
 * @req: the request, after its xr_frwr_map_*() calls; every region on
 *	its list was registered for the transmission being prepared
 * @count: set to the number of work requests in the chain
 *
 * The caller posts the chain next: from here on the regions count as
 * known to the device, and xr_frwr_release() invalidates them. (Should
 * the post fail, some of them may have reached the device: invalidating
 * a region is then the safe side, and the connection is closing.)
 *
 * Return: the chain's first work request (the last one's next pointer
 * is left for the caller), or NULL when there is none.
 */
struct ib_send_wr *xr_frwr_reg_chain(struct xr_req *req, u32 *count)
{
	struct ib_send_wr *first = NULL, **link = &first;
	struct xr_mr *mr;

	*count = 0;
	list_for_each_entry(mr, &req->rr_mrs, mr_list) {
		*link = &mr->mr_reg_wr.wr;
		link = &mr->mr_reg_wr.wr.next;
		*link = NULL;
		mr->mr_reg_wr.wr.send_flags = 0;
		mr->mr_unposted = false;
		(*count)++;
		xr_frwr_trace_reg(mr);
	}
	return first;
}

/*
 * @n invalidations have waited for their completion while nothing on the
 * send queue completed for send-timeout: the queue is stuck behind a
 * Send the server takes no Receive for.
 * Break the connection, as a thread waiting for a slot would, so that
 * the flush completes them. Once xr_xconn_shutdown() is past its wait
 * for posters, its own drain flushes them, and the queue pair may be on
 * its way out: then leave it alone.
 */
static void xr_frwr_inv_expire(struct xr_xconn *c, u32 n)
{
	down_read(&c->xc_post_rwsem);
	if (!test_bit(XR_XC_SHUTDOWN, &c->xc_flags))
		xr_sendq_expire(&c->xc_sq, n);
	up_read(&c->xc_post_rwsem);
}

/*
 * Invalidate every region of @req on its live connection and wait for
 * it; once the send queue has not moved for send-timeout, by breaking
 * the connection (xr_sendq_wait_moving()). Returns false when
 * that could not be done (the connection is going away): the caller then
 * waits for the drain.
 */
static bool xr_frwr_invalidate(struct xr_xconn *c, struct xr_req *req)
{
	struct ib_send_wr *first = NULL, **link = &first, *last = NULL;
	struct xr_frwr_inv_batch b;
	struct xr_mr *mr, *last_mr = NULL;
	u32 n = 0;
	int err;

	/* Held until posted: the close cannot drain and orphan meanwhile. */
	down_read(&c->xc_post_rwsem);
	if (test_bit(XR_XC_DOWN, &c->xc_flags))
		goto out_down;
	list_for_each_entry(mr, &req->rr_mrs, mr_list) {
		/* The device never saw an unposted key: nothing to undo. */
		if (mr->mr_remote_inv || mr->mr_unposted)
			continue;
		memset(&mr->mr_inv_wr, 0, sizeof(mr->mr_inv_wr));
		mr->mr_inv_wr.opcode = IB_WR_LOCAL_INV;
		mr->mr_inv_wr.wr_cqe = &mr->mr_inv_cqe;
		mr->mr_inv_wr.ex.invalidate_rkey = mr->mr_ibmr->rkey;
		*link = &mr->mr_inv_wr;
		link = &mr->mr_inv_wr.next;
		last = &mr->mr_inv_wr;
		last_mr = mr;
		n++;
	}
	if (!last) {
		up_read(&c->xc_post_rwsem);
		return true;
	}
	init_completion(&b.ib_done);
	b.ib_cqe.done = xr_frwr_inv_last_done;
	b.ib_conn = c;
	b.ib_slots = n;
	last->wr_cqe = &b.ib_cqe;
	last->send_flags = IB_SEND_SIGNALED;

	if (xr_sendq_reserve(&c->xc_sq, n))
		goto out_down;
	if (trace_xrpcrdma_post_localinv_enabled() ||
	    trace_xrpcrdma_wc_localinv_enabled())
		xr_frwr_trace_invs(req);
	/* The batch's completion is the last invalidation's. */
	b.ib_cid = last_mr->mr_inv_cid;
	err = xr_fault_hit(XRPCRDMA_FAULT_POINT_POST_SEND, &c->xc_ep);
	if (!err)
		err = ib_post_send(c->xc_ep.ep_qp, first, NULL);
	if (err) {
		trace_xrpcrdma_post_err(&c->xc_ep, &b.ib_cid,
					XR_TRACE_WR_LOCALINV, err);
		up_read(&c->xc_post_rwsem);
		/* Some may be posted: their completions still come. */
		xr_xconn_fail(c);
		return false;
	}
	up_read(&c->xc_post_rwsem);
	xr_xprt_count(c->xc_xprt, XR_XPRT_STAT_LOCAL_INVS, n);
	if (!xr_sendq_wait_moving(&c->xc_sq, &b.ib_done)) {
		xr_frwr_inv_expire(c, n);
		wait_for_completion(&b.ib_done);
	}
	return true;

out_down:
	up_read(&c->xc_post_rwsem);
	return false;
}

/**
 * xr_frwr_remote_inv - the server invalidated a region of a request
 * @req: the request its reply answers; the caller holds rr_mutex
 * @rkey: the R_key the reply's Send With Invalidate carried
 *
 * The region with that key is no longer reachable: xr_frwr_release()
 * posts no LOCAL_INV for it. A key that names none of the request's
 * regions changes nothing; they are all invalidated locally.
 */
void xr_frwr_remote_inv(struct xr_req *req, u32 rkey)
{
	struct xr_mr *mr;

	list_for_each_entry(mr, &req->rr_mrs, mr_list) {
		if (mr->mr_ibmr->rkey != rkey)
			continue;
		mr->mr_remote_inv = true;
		xr_xprt_count(req->rr_conn->xc_xprt, XR_XPRT_STAT_REMOTE_INVS,
			      1);
		return;
	}
}

/*
 * Unmap every region of @req, return them to their pool, and let go of
 * the connection they belong to. Nothing remote may reach them any more.
 */
static void xr_frwr_return(struct xr_req *req)
{
	struct xr_xconn *c = req->rr_conn;
	struct xr_mr *mr, *next;

	list_for_each_entry_safe(mr, next, &req->rr_mrs, mr_list) {
		list_del(&mr->mr_list);
		xr_frwr_put(mr);
	}
	req->rr_nmrs = 0;
	req->rr_conn = NULL;
	xr_xconn_put(c);
}

/**
 * xr_frwr_release_invalidated - take back a region the server invalidated
 * @req: the request its reply answers; the caller holds rr_mutex
 * @c: the connection the reply came on
 * @rkey: the R_key the reply's Send With Invalidate carried
 *
 * For the Receive completion handler, which must not wait: when the only
 * region of @req is the one the reply invalidated, the peer can no longer
 * reach the memory and no LOCAL_INV is needed, so the region is unmapped
 * and returned to its pool here, and the request lets go of @c. The
 * connection cannot be orphaning its regions meanwhile: that comes after
 * the drain, which waits for this handler.
 *
 * Return: true if so; false (nothing changed) when @req holds other
 * regions, or regions of another connection: use xr_frwr_release().
 */
bool xr_frwr_release_invalidated(struct xr_req *req, struct xr_xconn *c,
				 u32 rkey)
{
	struct xr_mr *mr;

	if (req->rr_conn != c || req->rr_nmrs != 1)
		return false;
	mr = list_first_entry(&req->rr_mrs, struct xr_mr, mr_list);
	if (mr->mr_ibmr->rkey != rkey)
		return false;
	xr_frwr_remote_inv(req, rkey);
	xr_frwr_return(req);
	return true;
}

/**
 * xr_frwr_release - take back every region a request registered
 * @req: the request; the caller holds rr_mutex
 *
 * Invalidates the regions while the connection is up (so the peer can no
 * longer reach the memory), except those whose registration was never
 * posted (marshaling failed after they were mapped): the device does not
 * know their new key, and a LOCAL_INV of it would fail and take the queue
 * pair down. Once the connection is going down, waits for the drain
 * instead. Then unmaps them (unless the close already did), returns them
 * to their pool, and drops the request's reference on the connection.
 * Sleeps.
 */
void xr_frwr_release(struct xr_req *req)
{
	struct xr_xconn *c = req->rr_conn;

	might_sleep();
	if (!c)
		return;
	if (!xr_frwr_invalidate(c, req))
		wait_for_completion(&c->xc_drained);
	xr_frwr_return(req);
}

/**
 * xr_frwr_release_sending - take back every region a request registered,
 *	from the send path
 * @req: the request; the caller holds rr_mutex and the transport's write
 *	lock
 *
 * As xr_frwr_release(), but never waits for a drain: the close that
 * drains a connection going down runs under the transport's write lock,
 * which the caller holds. Regions of a connection that is down and not
 * yet drained stay with @req; xr_frwr_release() or this function takes
 * them back once the close has drained it (the next send of @req comes
 * after that close, as does the release of its buffer). Sleeps while
 * the invalidations of a connection that is up complete.
 *
 * Return values:
 *   %0: @req holds no region
 *   %-ENOTCONN: its regions wait for the close of their connection
 */
int xr_frwr_release_sending(struct xr_req *req)
{
	struct xr_xconn *c = req->rr_conn;

	might_sleep();
	if (!c)
		return 0;
	if (!xr_frwr_invalidate(c, req) && !completion_done(&c->xc_drained))
		return -ENOTCONN;
	xr_frwr_return(req);
	return 0;
}
