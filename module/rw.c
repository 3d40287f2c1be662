// SPDX-License-Identifier: GPL-2.0
/*
 * rw.c - RDMA Read and RDMA Write of chunks through the kernel's rdma_rw
 * API. A struct xr_rw collects the transfers of one request (one rdma_rw
 * context per remote segment) and posts them as one chain that takes its
 * send queue slots from sendctx.c's accounting: Reads wait for the
 * chain's single signaled completion (xr_rw_run()); a reply's Writes go
 * ahead of its Send in the same chain, and are released with the Send
 * (xr_rw_post_send()). Scatterlists are built over an xdr_buf (the
 * reply) or over a page array (a call's incoming data); nothing is
 * copied. This file knows segments and buffers, not RPC-over-RDMA.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/highmem.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/sunrpc/xdr.h>
#include <rdma/rw.h>

#include "ep.h"
#include "fault.h"
#include "proto.h"
#include "rw.h"
#include "sendq.h"
#include "trace_wr.h"

/**
 * xr_rw_init - prepare a set of RDMA transfers in one direction
 * @rw: the set, owned by the caller
 * @sq: the send queue whose slots the transfers take
 * @dir: %DMA_FROM_DEVICE for RDMA Read, %DMA_TO_DEVICE for RDMA Write
 * @max_ops: most remote segments that will be added
 * @max_pages: most pages xr_rw_hold_pages() will be given
 *
 * Return values:
 *   %0: ready for xr_rw_add_*(); xr_rw_destroy() releases it
 *   %-ENOMEM: no memory
 */
int xr_rw_init(struct xr_rw *rw, struct xr_sendq *sq,
	       enum dma_data_direction dir, u32 max_ops, u32 max_pages)
{
	struct xr_rw_set *set;
	size_t size;

	memset(rw, 0, sizeof(*rw));
	rw->rw_sq = sq;
	rw->rw_dir = dir;
	size = size_add(struct_size(set, rs_ops, max_ops),
			array_size(max_pages, sizeof(*set->rs_pages)));
	set = kzalloc(size, GFP_KERNEL);
	if (!set)
		return -ENOMEM;
	INIT_LIST_HEAD(&set->rs_entry);
	set->rs_sq = sq;
	set->rs_dir = dir;
	set->rs_pages = (struct page **)&set->rs_ops[max_ops];
	set->rs_max_pages = max_pages;
	rw->rw_set = set;
	rw->rw_ops = set->rs_ops;
	rw->rw_max_ops = max_ops;
	init_completion(&rw->rw_done);
	return 0;
}

/* Count the scatterlist entries a byte range of @buf needs. */
static u32 xr_rw_count_xdr(const struct xdr_buf *buf, u32 off, u32 len)
{
	u32 head = buf->head[0].iov_len, pages = buf->page_len;
	u32 first, last, n = 0;

	if (off < head) {
		n++;
		len -= min(len, head - off);
		off = head;
	}
	off -= head;
	if (len && off < pages) {
		first = (buf->page_base + off) >> PAGE_SHIFT;
		last = (buf->page_base + off + min(len, pages - off) - 1) >>
			PAGE_SHIFT;
		n += last - first + 1;
		len -= min(len, pages - off);
	}
	if (len)
		n++;
	return n;
}

/* Fill @sg with a byte range of @buf; returns the entries used. */
static u32 xr_rw_fill_xdr(struct scatterlist *sg, const struct xdr_buf *buf,
			  u32 off, u32 len)
{
	u32 head = buf->head[0].iov_len, pages = buf->page_len;
	u32 n = 0, chunk, poff;

	if (off < head) {
		chunk = min(len, head - off);
		sg_set_buf(&sg[n++], buf->head[0].iov_base + off, chunk);
		len -= chunk;
		off = head;
	}
	off -= head;
	while (len && off < pages) {
		poff = buf->page_base + off;
		chunk = min3(len, pages - off,
			     (u32)(PAGE_SIZE - offset_in_page(poff)));
		sg_set_page(&sg[n++], buf->pages[poff >> PAGE_SHIFT], chunk,
			    offset_in_page(poff));
		off += chunk;
		len -= chunk;
	}
	if (len) {
		off -= pages;
		sg_set_buf(&sg[n++], buf->tail[0].iov_base + off, len);
	}
	return n;
}

/*
 * What a failed rdma_rw_ctx_init() (or a fault standing in for it) means
 * for the call: out of memory or of memory regions is said as such;
 * anything else (a DMA mapping refused with -EINVAL, a short memory
 * region mapping) is this side's trouble, never the call's, and must not
 * come back as the -EINVAL that callers answer with ERR_CHUNK.
 */
static int xr_rw_ctx_errno(int ret)
{
	return ret == -ENOMEM || ret == -EAGAIN ? ret : -EIO;
}

/* Add one rdma_rw context for @seg over the scatterlist @sgl (taken over). */
static int xr_rw_add_op(struct xr_rw *rw, const struct xr_seg *seg,
			struct scatterlist *sgl, u32 nents)
{
	struct xr_ep *ep = rw->rw_sq->sq_ep;
	struct xr_rw_op *op;
	int ret;

	if (rw->rw_nops >= rw->rw_max_ops) {
		kfree(sgl);
		return -E2BIG;
	}
	op = &rw->rw_ops[rw->rw_nops];
	ret = xr_fault_hit(XRPCRDMA_FAULT_POINT_DMA_MAP, ep);
	if (!ret)
		ret = xr_fault_hit(XRPCRDMA_FAULT_POINT_RW_CTX, ep);
	if (!ret)
		ret = rdma_rw_ctx_init(&op->ro_ctx, ep->ep_qp,
				       ep->ep_id->port_num, sgl, nents, 0,
				       seg->sg_offset, seg->sg_handle,
				       rw->rw_dir);
	if (ret < 0) {
		kfree(sgl);
		return xr_rw_ctx_errno(ret);
	}
	op->ro_sgl = sgl;
	op->ro_nents = nents;
	rw->rw_nwrs += ret;
	rw->rw_nops++;
	return 0;
}

/**
 * xr_rw_add_xdr - transfer a byte range of an xdr_buf to or from a segment
 * @rw: the set
 * @seg: the remote segment; @len bytes go to (or come from) its start
 * @buf: local memory: an xdr_buf whose head and tail are in the kernel's
 *	linear mapping (as svc's are)
 * @off: where the range starts in @buf
 * @len: bytes, at most the segment's length and what @buf holds
 *
 * Return values:
 *   %0: added
 *   %-EINVAL: the range does not fit the segment or the buffer
 *   %-E2BIG: more segments than xr_rw_init() was told
 *   %-ENOMEM, %-EAGAIN: no memory, or no memory region left in the pool
 *   %-EIO: the DMA mapping or the device refused (never the call's fault)
 */
int xr_rw_add_xdr(struct xr_rw *rw, const struct xr_seg *seg,
		  const struct xdr_buf *buf, u32 off, u32 len)
{
	struct scatterlist *sgl;
	u32 nents;

	if (!len)
		return 0;
	if (len > seg->sg_length || off > buf->len || len > buf->len - off)
		return -EINVAL;
	nents = xr_rw_count_xdr(buf, off, len);
	sgl = kmalloc_array(nents, sizeof(*sgl), GFP_KERNEL);
	if (!sgl)
		return -ENOMEM;
	sg_init_table(sgl, nents);
	if (xr_rw_fill_xdr(sgl, buf, off, len) != nents) {
		kfree(sgl);
		return -EINVAL;
	}
	return xr_rw_add_op(rw, seg, sgl, nents);
}

/**
 * xr_rw_hold_pages - keep pages until the set's transfers are released
 * @rw: the set, with room for @n pages (xr_rw_init())
 * @pages: the pages; each is taken over, its entry set to NULL
 * @n: entries in @pages; NULL entries are skipped
 *
 * For Writes that go on after the caller returns (xr_rw_post_send()):
 * the memory they read stays the set's until the Send after them is
 * done.
 *
 * Return values:
 *   %0: taken over
 *   %-E2BIG: no room; nothing was taken
 */
int xr_rw_hold_pages(struct xr_rw *rw, struct page **pages, u32 n)
{
	struct xr_rw_set *set = rw->rw_set;
	u32 i;

	if (!set || n > set->rs_max_pages - set->rs_npages)
		return -E2BIG;
	for (i = 0; i < n; i++) {
		if (!pages[i])
			continue;
		set->rs_pages[set->rs_npages++] = pages[i];
		pages[i] = NULL;
	}
	return 0;
}

/*
 * What every chain's completion does first: the completion fault points,
 * the trace event, and for an error other than a flush the connection's
 * close reason and an error report. Returns true for such an error.
 */
static bool xr_rw_wc(struct xr_ep *ep, struct ib_wc *wc,
		     enum dma_data_direction dir, const struct xr_cid *cid)
{
	bool write = dir == DMA_TO_DEVICE;

	xr_ep_check_wc(ep);
	xr_fault_wc(ep, wc);
	if (write)
		trace_xrpcrdma_wc_write(wc, cid);
	else
		trace_xrpcrdma_wc_read(wc, cid);
	if (wc->status == IB_WC_SUCCESS || wc->status == IB_WC_WR_FLUSH_ERR)
		return false;
	xr_ep_set_close_reason(ep, XRPCRDMA_CLOSE_REASON_SEND_ERROR);
	xr_ep_report_wc_error(ep, write ? XRPCRDMA_WC_KIND_RDMA_WRITE :
				  XRPCRDMA_WC_KIND_RDMA_READ, wc);
	return true;
}

static void xr_rw_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct xr_rw *rw = container_of(wc->wr_cqe, struct xr_rw, rw_cqe);

	xr_rw_wc(rw->rw_sq->sq_ep, wc, rw->rw_dir, &rw->rw_cid);
	xr_sendq_progress(rw->rw_sq);
	rw->rw_status = wc->status;
	complete(&rw->rw_done);
}

/* Hand the set's transfers to its send queue: xr_rw_reap() frees them. */
static void xr_rw_keep(struct xr_rw *rw)
{
	struct xr_sendq *sq = rw->rw_sq;

	rw->rw_set->rs_nops = rw->rw_nops;
	spin_lock(&sq->sq_lock);
	list_add_tail(&rw->rw_set->rs_entry, &sq->sq_rw_failed);
	spin_unlock(&sq->sq_lock);
	rw->rw_set = NULL;
	rw->rw_ops = NULL;
	rw->rw_nops = 0;
}

/*
 * Chain the work requests of every transfer of @rw, in order; the last
 * one asks for the completion @cqe. Returns the first.
 */
static struct ib_send_wr *xr_rw_chain(struct xr_rw *rw, struct ib_cqe *cqe)
{
	struct xr_ep *ep = rw->rw_sq->sq_ep;
	struct ib_send_wr *first = NULL;
	int i;

	for (i = rw->rw_nops - 1; i >= 0; i--)
		first = rdma_rw_ctx_wrs(&rw->rw_ops[i].ro_ctx, ep->ep_qp,
					ep->ep_id->port_num,
					i == rw->rw_nops - 1 ? cqe : NULL, first);
	return first;
}

/* The chain's completion ID and post event, while they are traced. */
static void xr_rw_trace_post(struct xr_rw *rw)
{
	struct xr_ep *ep = rw->rw_sq->sq_ep;

	if (rw->rw_dir == DMA_TO_DEVICE) {
		if (trace_xrpcrdma_post_write_enabled() ||
		    trace_xrpcrdma_wc_write_enabled())
			xr_cid_assign(&rw->rw_cid, ep->ep_scq,
				      &ep->ep_scq_cids);
		trace_xrpcrdma_post_write(rw);
	} else {
		if (trace_xrpcrdma_post_read_enabled() ||
		    trace_xrpcrdma_wc_read_enabled())
			xr_cid_assign(&rw->rw_cid, ep->ep_scq,
				      &ep->ep_scq_cids);
		trace_xrpcrdma_post_read(rw);
	}
}

/**
 * xr_rw_run - post every transfer added and wait until they are done
 * @rw: the set
 *
 * One chain, one signaled completion: on a reliable connection all the
 * chain's work requests are complete when the last one is. Waits for
 * send queue slots first. A transfer that fails closes the connection
 * (through the send queue's owner). When posting fails, part of the
 * chain may be on the queue pair: the send queue keeps the transfers
 * until the connection's teardown has drained it.
 *
 * Return values:
 *   %0: all data moved
 *   %-ENOTCONN: the connection is closing, or posting failed
 *   %-E2BIG: more work requests than the send queue holds
 *   %-EIO: a transfer failed
 */
int xr_rw_run(struct xr_rw *rw)
{
	struct xr_sendq *sq = rw->rw_sq;
	struct xr_ep *ep = sq->sq_ep;
	struct ib_send_wr *first;
	int err;

	if (!rw->rw_nops)
		return 0;
	err = xr_sendq_reserve(sq, rw->rw_nwrs);
	if (err)
		return err;

	rw->rw_cqe.done = xr_rw_done;
	first = xr_rw_chain(rw, &rw->rw_cqe);
	xr_rw_trace_post(rw);
	err = xr_fault_hit(XRPCRDMA_FAULT_POINT_POST_SEND, ep);
	if (!err)
		err = ib_post_send(ep->ep_qp, first, NULL);
	if (err) {
		trace_xrpcrdma_post_err(ep, &rw->rw_cid,
					rw->rw_dir == DMA_TO_DEVICE ?
					XR_TRACE_WR_WRITE : XR_TRACE_WR_READ,
					err);
		pr_warn_ratelimited("RDMA %s post: %d\n",
				    rw->rw_dir == DMA_TO_DEVICE ? "Write" : "Read",
				    err);
		/*
		 * Work requests before the bad one may be posted: their
		 * memory stays mapped until the teardown's drain has
		 * flushed them. Only that drain may run: others may still
		 * be posting on this queue pair.
		 */
		if (sq->sq_on_close)
			sq->sq_on_close(sq->sq_owner);
		xr_rw_keep(rw);
		xr_sendq_release(sq, rw->rw_nwrs);
		return -ENOTCONN;
	}
	/*
	 * A Send stuck ahead of the chain (a peer that takes no reply) would
	 * hold this thread for ever: once the queue has moved no further for
	 * send-timeout, the connection is broken, and the flush completes
	 * the chain. A queue that is busy but moving is left alone.
	 */
	if (!xr_sendq_wait_moving(sq, &rw->rw_done)) {
		xr_sendq_expire(sq, rw->rw_nwrs);
		wait_for_completion(&rw->rw_done);
	}
	xr_sendq_release(sq, rw->rw_nwrs);
	if (rw->rw_status != IB_WC_SUCCESS) {
		if (rw->rw_status != IB_WC_WR_FLUSH_ERR)
			pr_err_ratelimited("RDMA %s: %s (%d)\n",
					   rw->rw_dir == DMA_TO_DEVICE ?
					   "Write" : "Read",
					   ib_wc_status_msg(rw->rw_status),
					   rw->rw_status);
		if (sq->sq_on_close)
			sq->sq_on_close(sq->sq_owner);
		return -EIO;
	}
	return 0;
}

/*
 * Writes posted ahead of a Send: their one completion says nothing the
 * Send's does not, unless it is an error, which closes the connection.
 * The set lives on until the Send is retired, which comes after this
 * on the same completion queue.
 */
static void xr_rw_write_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct xr_rw_set *set = container_of(wc->wr_cqe, struct xr_rw_set,
					     rs_cqe);
	struct xr_sendq *sq = set->rs_sq;

	if (xr_rw_wc(sq->sq_ep, wc, set->rs_dir, &set->rs_cid))
		pr_err_ratelimited("RDMA Write: %s (%d)\n",
				   ib_wc_status_msg(wc->status), wc->status);
	if (wc->status != IB_WC_SUCCESS)
		xr_sendq_fail(sq);
}

/**
 * xr_rw_post_send - post a set's RDMA Writes and a Send behind them
 * @rw: a set of Writes (%DMA_TO_DEVICE), possibly empty, or all zeroes
 * @sc: a context from xr_sendctx_get(), its buffer filled
 * @len: bytes to send from it
 *
 * One chain, posted at once; nobody waits for the Writes. A reliable
 * connection executes the chain in order, so the peer has the data when
 * the Send arrives, and the Send completes after the Writes. The set
 * (with the pages it holds) is @sc's from here on and is released when
 * the Send is retired; if posting fails, as xr_sendctx_post_chain()
 * says. The last Write asks for a completion, to see an error.
 *
 * Return: as xr_sendctx_post_chain(); @rw is empty afterwards. Before
 * anything is handed over: %-E2BIG (the chain can never fit in the send
 * queue) and %-EINVAL (not a set of Writes), and @rw is left as it was.
 */
int xr_rw_post_send(struct xr_rw *rw, struct xr_sendctx *sc, u32 len)
{
	struct xr_rw_set *set = rw->rw_set;
	struct ib_send_wr *first, *last;
	u32 nwrs = rw->rw_nwrs;

	/* An xr_rw never given to xr_rw_init() is all zeroes. */
	if (!rw->rw_nops)
		return xr_sendctx_post(sc, len);
	if (WARN_ON_ONCE(rw->rw_dir != DMA_TO_DEVICE))
		return -EINVAL;
	/*
	 * Before the chain is built: building it gives the device's memory
	 * regions (where rdma_rw uses them) keys the device learns only
	 * from the post.
	 */
	if (!xr_sendq_fits(sc->sc_pool, nwrs + 1))
		return -E2BIG;
	set->rs_nops = rw->rw_nops;
	set->rs_cqe.done = xr_rw_write_done;
	first = xr_rw_chain(rw, &set->rs_cqe);
	for (last = first; last->next; last = last->next)
		;
	xr_rw_trace_post(rw);
	set->rs_cid = rw->rw_cid;
	rw->rw_set = NULL;
	rw->rw_ops = NULL;
	rw->rw_nops = 0;
	sc->sc_rw = set;
	return xr_sendctx_post_chain(sc, len, first, last, nwrs);
}

/*
 * Unmap and free the first @nops transfers of @set, drop the pages it
 * holds, free @set.
 */
static void xr_rw_set_free(struct xr_ep *ep, struct xr_rw_set *set, u32 nops)
{
	u32 i;

	for (i = 0; i < nops; i++) {
		rdma_rw_ctx_destroy(&set->rs_ops[i].ro_ctx, ep->ep_qp,
				    ep->ep_id->port_num, set->rs_ops[i].ro_sgl,
				    set->rs_ops[i].ro_nents, set->rs_dir);
		kfree(set->rs_ops[i].ro_sgl);
	}
	for (i = 0; i < set->rs_npages; i++)
		put_page(set->rs_pages[i]);
	kfree(set);
}

/**
 * xr_rw_set_release - release a set whose transfers are done
 * @set: a set xr_rw_post_send() handed to a send context, or whose
 *	chain failed to post; none of its work requests is outstanding
 *	(the Send after them completed, or the queue pair is drained),
 *	and the queue pair still exists
 */
void xr_rw_set_release(struct xr_rw_set *set)
{
	xr_rw_set_free(set->rs_sq->sq_ep, set, set->rs_nops);
}

/**
 * xr_rw_destroy - unmap and release every transfer of the set
 * @rw: the set; none of its transfers may be posted (a set whose chain
 *	failed to post was handed to the send queue: nothing is left)
 */
void xr_rw_destroy(struct xr_rw *rw)
{
	if (rw->rw_set)
		xr_rw_set_free(rw->rw_sq->sq_ep, rw->rw_set, rw->rw_nops);
	rw->rw_set = NULL;
	rw->rw_ops = NULL;
	rw->rw_nops = 0;
}

/**
 * xr_rw_reap - release the transfers whose chain failed to post
 * @sq: the send queue of a connection whose queue pair is drained and
 *	still exists
 */
void xr_rw_reap(struct xr_sendq *sq)
{
	struct xr_rw_set *set, *next;

	list_for_each_entry_safe(set, next, &sq->sq_rw_failed, rs_entry) {
		list_del(&set->rs_entry);
		xr_rw_set_free(sq->sq_ep, set, set->rs_nops);
	}
}
