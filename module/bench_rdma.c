// SPDX-License-Identifier: GPL-2.0
/*
 * bench_rdma.c - the device's own ceiling (bench-run with op rdma-write
 * or rdma-read): no RPC at all. The benchmark listens on a local address
 * of the RDMA device and connects queue pairs of its own to itself over
 * rdma_cm, loopback through the device. Each connection's target end
 * registers one buffer with a fast registration, as the NFS client
 * registers a chunk; its initiator end moves messages of the asked size
 * into that buffer with RDMA Writes or out of it with RDMA Reads, as the
 * NFS server moves an NFS READ's or WRITE's payload, keeping a number of
 * messages in flight and posting the next one from the completion of the
 * last, in the completion queue's work item as the transports complete
 * theirs. At the end the buffer that was written is compared with the
 * data sent.
 *
 * Everything here runs in the benchmark's work item (bench.c), except
 * the rdma_cm event handler and the completion handlers; every wait is
 * bounded, and the device's removal ends the benchmark with -ENODEV.
 */
#include <linux/highmem.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#include "bench.h"

#define XR_RB_CM_TIMEOUT_MS	2000	/* address and route resolution */
#define XR_RB_WAIT		(10 * HZ) /* a setup step; messages stalled */
#define XR_RB_MAX_SGE		32	/* SGEs per Write or Read, at most */
#define XR_RB_RD_ATOM		16	/* RDMA Reads outstanding per QP */
#define XR_RB_COOKIE_LEN	16	/* private data of its own connects */

struct xr_rb;
struct xr_rb_qp;

/**
 * struct xr_rb_end - one rdma_cm id and its last event
 * @re_rb: the benchmark
 * @re_id: the id (a target's is set by the connect request)
 * @re_done: completed at each event
 * @re_event: the last event
 * @re_status: its status
 */
struct xr_rb_end {
	struct xr_rb		*re_rb;
	struct rdma_cm_id	*re_id;
	struct completion	re_done;
	int			re_event;
	int			re_status;
};

/**
 * struct xr_rb_buf - a message's buffer: pages, their table, their mapping
 * @rf_pages: the pages
 * @rf_npages: how many
 * @rf_sgt: a table entry per page
 * @rf_nents: DMA-mapped entries, 0 while unmapped
 * @rf_dir: the mapping's direction
 */
struct xr_rb_buf {
	struct page		**rf_pages;
	unsigned int		rf_npages;
	struct sg_table		rf_sgt;
	int			rf_nents;
	enum dma_data_direction	rf_dir;
};

/**
 * struct xr_rb_qp - one connection, both of its ends
 * @q_rb: the benchmark
 * @q_index: its number, from 0
 * @q_init: the initiator's id: it posts the Writes or Reads
 * @q_tgt: the target's id: it registers the buffer
 * @q_init_cq: the initiator's completion queue
 * @q_tgt_cq: the target's
 * @q_src: the initiator's buffer (the data of Writes, the sink of Reads)
 * @q_dst: the target's registered buffer
 * @q_mr: its memory region
 * @q_reg_cqe: completes the registration
 * @q_reg_done: the registration completed
 * @q_reg_status: with this status
 * @q_cqe: completes a message (its last work request, signaled)
 * @q_part_cqe: the other work requests, which complete only on errors
 * @q_wrs: the work requests of one message, chained
 * @q_sges: their scatter/gather entries
 * @q_nwrs: entries in @q_wrs
 * @q_rd_init: initiator depth the target accepts with
 * @q_rd_resp: responder resources the target accepts with
 * @q_connected: both ends were established
 * @q_lock: the fields below, taken in the completion work item and in
 *	the benchmark's
 * @q_count: messages this connection moves
 * @q_posted: messages posted
 * @q_completed: messages completed
 * @q_starts: the post times of the messages in flight, a ring
 * @q_failed: a work request failed: post no more
 * @q_finished: this connection counted itself out of rb_active
 */
struct xr_rb_qp {
	struct xr_rb		*q_rb;
	u32			q_index;
	struct xr_rb_end	q_init;
	struct xr_rb_end	q_tgt;
	struct ib_cq		*q_init_cq;
	struct ib_cq		*q_tgt_cq;
	struct xr_rb_buf	q_src;
	struct xr_rb_buf	q_dst;
	struct ib_mr		*q_mr;
	struct ib_cqe		q_reg_cqe;
	struct completion	q_reg_done;
	int			q_reg_status;
	struct ib_cqe		q_cqe;
	struct ib_cqe		q_part_cqe;
	struct ib_rdma_wr	*q_wrs;
	struct ib_sge		*q_sges;
	u32			q_nwrs;
	u8			q_rd_init;
	u8			q_rd_resp;
	bool			q_connected;

	spinlock_t		q_lock;	/* see above */
	u32			q_count;
	u32			q_posted;
	u32			q_completed;
	u64			*q_starts;
	bool			q_failed;
	bool			q_finished;
};

/**
 * struct xr_rb - one RDMA benchmark
 * @rb_bench: the benchmark it records into
 * @rb_params: what it runs
 * @rb_write: RDMA Writes, else RDMA Reads
 * @rb_listen: the listener
 * @rb_pd: the protection domain of every QP
 * @rb_sges: SGEs per work request
 * @rb_qps: the connections
 * @rb_nqps: connections set up, or being set up
 * @rb_lock: @rb_expect, and the targets' ids
 * @rb_expect: the connection whose connect request is awaited
 * @rb_cookie: what its connects carry, to tell them from anyone else's
 * @rb_wq: woken by events, by the last completion of a connection
 * @rb_active: connections still moving messages
 * @rb_removed: the device is going away
 * @rb_stop: post no more messages
 */
struct xr_rb {
	struct xr_bench			*rb_bench;
	const struct xr_bench_params	*rb_params;
	bool				rb_write;
	struct xr_rb_end		rb_listen;
	struct ib_pd			*rb_pd;
	u32				rb_sges;
	struct xr_rb_qp			*rb_qps;
	u32				rb_nqps;
	spinlock_t			rb_lock;	/* @rb_expect, targets' ids */
	struct xr_rb_qp			*rb_expect;
	u8				rb_cookie[XR_RB_COOKIE_LEN];
	wait_queue_head_t		rb_wq;
	atomic_t			rb_active;
	bool				rb_removed;
	bool				rb_stop;
};

/* ---- rdma_cm events ---- */

/* A connect request on the listener: ours, and the one awaited, or none. */
static int xr_rb_connect_request(struct xr_rb *rb, struct rdma_cm_id *id,
				 const struct rdma_conn_param *cp)
{
	struct xr_rb_qp *q;

	if (cp->private_data_len < XR_RB_COOKIE_LEN ||
	    memcmp(cp->private_data, rb->rb_cookie, XR_RB_COOKIE_LEN))
		return -ECONNREFUSED;
	spin_lock(&rb->rb_lock);
	q = rb->rb_expect;
	rb->rb_expect = NULL;
	if (q) {
		id->context = &q->q_tgt;
		q->q_tgt.re_id = id;
		/* The rdma_cm gives them from this (the target's) side. */
		q->q_rd_resp = cp->responder_resources;
		q->q_rd_init = cp->initiator_depth;
	}
	spin_unlock(&rb->rb_lock);
	/* Not awaited: the rdma_cm rejects it and destroys the id. */
	if (!q)
		return -ECONNREFUSED;
	q->q_tgt.re_event = RDMA_CM_EVENT_CONNECT_REQUEST;
	q->q_tgt.re_status = 0;
	complete(&q->q_tgt.re_done);
	wake_up(&rb->rb_wq);
	return 0;
}

static int xr_rb_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct xr_rb_end *end = id->context;
	struct xr_rb *rb = end->re_rb;

	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST)
		return xr_rb_connect_request(rb, id, &ev->param.conn);
	if (ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL)
		WRITE_ONCE(rb->rb_removed, true);
	end->re_event = ev->event;
	end->re_status = ev->status;
	complete(&end->re_done);
	wake_up(&rb->rb_wq);
	return 0;
}

static int xr_rb_event_errno(const struct xr_rb_end *end)
{
	switch (end->re_event) {
	case RDMA_CM_EVENT_REJECTED:
		return -ECONNREFUSED;
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
		return end->re_status < 0 ? end->re_status : -EHOSTUNREACH;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		return -ENODEV;
	default:
		return -ECONNABORTED;
	}
}

/* Waits for @end's next event, which must be @event. */
static int xr_rb_wait(struct xr_rb *rb, struct xr_rb_end *end, int event)
{
	if (!wait_event_timeout(rb->rb_wq, completion_done(&end->re_done) ||
				READ_ONCE(rb->rb_removed), XR_RB_WAIT))
		return -ETIMEDOUT;
	if (READ_ONCE(rb->rb_removed) || !try_wait_for_completion(&end->re_done))
		return -ENODEV;
	return end->re_event == event ? 0 : xr_rb_event_errno(end);
}

static void xr_rb_end_init(struct xr_rb *rb, struct xr_rb_end *end)
{
	end->re_rb = rb;
	init_completion(&end->re_done);
}

static struct rdma_cm_id *xr_rb_create_id(struct net *net,
					  struct xr_rb_end *end)
{
	return rdma_create_id(net, xr_rb_cm_handler, end, RDMA_PS_TCP,
			      IB_QPT_RC);
}

/* Listens on the asked address and port; the port it got goes to bench.c. */
static int xr_rb_listen(struct xr_rb *rb, struct net *net)
{
	struct rdma_cm_id *id;
	struct sockaddr *sa;
	int err;

	id = xr_rb_create_id(net, &rb->rb_listen);
	if (IS_ERR(id))
		return PTR_ERR(id);
	rb->rb_listen.re_id = id;
	err = rdma_bind_addr(id, (struct sockaddr *)&rb->rb_params->addr);
	if (err)
		return err;
	if (!id->device)
		return -ENODEV;
	err = rdma_listen(id, XRPCRDMA_BENCH_MAX_QPS);
	if (err)
		return err;
	sa = (struct sockaddr *)&id->route.addr.src_addr;
	xr_bench_set_port(rb->rb_bench, sa->sa_family == AF_INET6 ?
			  ntohs(((struct sockaddr_in6 *)sa)->sin6_port) :
			  ntohs(((struct sockaddr_in *)sa)->sin_port));
	return 0;
}

/* ---- buffers ---- */

/* The data of connection @qp at word @i: different in every word and QP. */
static u32 xr_rb_pattern(u32 qp, size_t i)
{
	return (u32)(i * 2654435761u) ^ (qp << 24) ^ 0x5a5a5a5a;
}

/*
 * Fills the @len bytes at @v, word @w0 of the buffer on, with the pattern
 * of connection @qp (@fill), or checks they hold it: false if not. A
 * last partial word takes the first bytes of its pattern word.
 */
static bool xr_rb_pattern_span(u8 *v, size_t len, size_t w0, u32 qp,
			       bool fill)
{
	size_t off, n;
	u32 word;

	for (off = 0; off < len; off += sizeof(word)) {
		word = xr_rb_pattern(qp, w0 + off / sizeof(word));
		n = min(len - off, sizeof(word));
		if (fill)
			memcpy(v + off, &word, n);
		else if (memcmp(v + off, &word, n))
			return false;
	}
	return true;
}

/*
 * Fills the first @size bytes of @buf with the pattern of connection @qp
 * (@fill), or checks they hold it (!@fill): false when a byte differs.
 */
static bool xr_rb_buf_pattern(struct xr_rb_buf *buf, u32 qp, u32 size,
			      bool fill)
{
	size_t per = PAGE_SIZE / sizeof(u32), len;
	bool same = true;
	unsigned int p;
	void *v;

	for (p = 0; p < buf->rf_npages && same; p++) {
		len = min_t(size_t, size - (size_t)p * PAGE_SIZE, PAGE_SIZE);
		v = kmap_local_page(buf->rf_pages[p]);
		same = xr_rb_pattern_span(v, len, p * per, qp, fill);
		kunmap_local(v);
	}
	return same;
}

static void xr_rb_buf_free(struct ib_device *dev, struct xr_rb_buf *buf)
{
	unsigned int i;

	if (buf->rf_nents)
		ib_dma_unmap_sg(dev, buf->rf_sgt.sgl, buf->rf_sgt.orig_nents,
				buf->rf_dir);
	buf->rf_nents = 0;
	sg_free_table(&buf->rf_sgt);
	for (i = 0; buf->rf_pages && i < buf->rf_npages; i++)
		if (buf->rf_pages[i])
			__free_page(buf->rf_pages[i]);
	kfree(buf->rf_pages);
	buf->rf_pages = NULL;
}

/* Zeroed pages for @size bytes, in a table, mapped for @dev. */
static int xr_rb_buf_alloc(struct ib_device *dev, struct xr_rb_buf *buf,
			   u32 size, enum dma_data_direction dir)
{
	struct scatterlist *sg;
	unsigned int i;
	u32 left = size;

	buf->rf_npages = DIV_ROUND_UP(size, PAGE_SIZE);
	buf->rf_dir = dir;
	buf->rf_pages = kcalloc(buf->rf_npages, sizeof(*buf->rf_pages),
				GFP_KERNEL);
	if (!buf->rf_pages)
		return -ENOMEM;
	if (sg_alloc_table(&buf->rf_sgt, buf->rf_npages, GFP_KERNEL))
		return -ENOMEM;
	for_each_sg(buf->rf_sgt.sgl, sg, buf->rf_npages, i) {
		buf->rf_pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!buf->rf_pages[i])
			return -ENOMEM;
		sg_set_page(sg, buf->rf_pages[i], min_t(u32, left, PAGE_SIZE),
			    0);
		left -= sg->length;
	}
	return 0;
}

static int xr_rb_buf_map(struct ib_device *dev, struct xr_rb_buf *buf)
{
	buf->rf_nents = ib_dma_map_sg(dev, buf->rf_sgt.sgl,
				      buf->rf_sgt.orig_nents, buf->rf_dir);
	return buf->rf_nents ? 0 : -EIO;
}

/* ---- messages ---- */

static void xr_rb_finish_locked(struct xr_rb_qp *q)
{
	struct xr_rb *rb = q->q_rb;

	if (q->q_finished || q->q_completed != q->q_posted)
		return;
	if (!q->q_failed && !READ_ONCE(rb->rb_stop) && q->q_posted < q->q_count)
		return;
	q->q_finished = true;
	if (atomic_dec_and_test(&rb->rb_active))
		wake_up(&rb->rb_wq);
}

/* Posts messages until @q has its number in flight, or all of them. */
static void xr_rb_fill_locked(struct xr_rb_qp *q)
{
	const struct xr_bench_params *p = q->q_rb->rb_params;
	struct ib_qp *qp = q->q_init.re_id->qp;

	while (!q->q_failed && !READ_ONCE(q->q_rb->rb_stop) &&
	       q->q_posted < q->q_count &&
	       q->q_posted - q->q_completed < p->concurrency) {
		q->q_starts[q->q_posted % p->concurrency] = ktime_get_ns();
		if (ib_post_send(qp, &q->q_wrs[0].wr, NULL)) {
			q->q_failed = true;
			xr_bench_record_error(q->q_rb->rb_bench);
			break;
		}
		q->q_posted++;
	}
	xr_rb_finish_locked(q);
}

static void xr_rb_msg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct xr_rb_qp *q = container_of(wc->wr_cqe, struct xr_rb_qp, q_cqe);
	const struct xr_bench_params *p = q->q_rb->rb_params;
	u64 now = ktime_get_ns(), start;
	bool stopped;

	spin_lock_bh(&q->q_lock);
	start = q->q_starts[q->q_completed % p->concurrency];
	q->q_completed++;
	stopped = q->q_failed || READ_ONCE(q->q_rb->rb_stop);
	if (wc->status != IB_WC_SUCCESS)
		q->q_failed = true;
	xr_rb_fill_locked(q);
	spin_unlock_bh(&q->q_lock);

	if (wc->status == IB_WC_SUCCESS)
		xr_bench_record(q->q_rb->rb_bench, now - start);
	/* What a stop or an earlier failure flushed is no error of its own. */
	else if (wc->status != IB_WC_WR_FLUSH_ERR || !stopped)
		xr_bench_record_error(q->q_rb->rb_bench);
}

/*
 * Only a failed work request completes here. Its message's last one then
 * completes flushed, which counts nothing: the first failure is counted
 * here, as that message's error.
 */
static void xr_rb_part_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct xr_rb_qp *q = container_of(wc->wr_cqe, struct xr_rb_qp,
					  q_part_cqe);
	bool first;

	spin_lock_bh(&q->q_lock);
	first = !q->q_failed && !READ_ONCE(q->q_rb->rb_stop);
	q->q_failed = true;
	spin_unlock_bh(&q->q_lock);
	if (first && wc->status != IB_WC_WR_FLUSH_ERR)
		xr_bench_record_error(q->q_rb->rb_bench);
}

static void xr_rb_reg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct xr_rb_qp *q = container_of(wc->wr_cqe, struct xr_rb_qp,
					  q_reg_cqe);

	q->q_reg_status = wc->status;
	complete(&q->q_reg_done);
	wake_up(&q->q_rb->rb_wq);
}

/* One message: Writes (or Reads) of @q_src's entries, @rb_sges a request. */
static int xr_rb_build_wrs(struct xr_rb *rb, struct xr_rb_qp *q)
{
	int nents = q->q_src.rf_nents;
	u64 remote = q->q_mr->iova;
	struct scatterlist *sg;
	struct ib_rdma_wr *wr;
	u32 w, k, first;
	int i;

	q->q_nwrs = DIV_ROUND_UP(nents, rb->rb_sges);
	q->q_wrs = kcalloc(q->q_nwrs, sizeof(*q->q_wrs), GFP_KERNEL);
	q->q_sges = kcalloc(nents, sizeof(*q->q_sges), GFP_KERNEL);
	if (!q->q_wrs || !q->q_sges)
		return -ENOMEM;
	for_each_sg(q->q_src.rf_sgt.sgl, sg, nents, i) {
		q->q_sges[i].addr = sg_dma_address(sg);
		q->q_sges[i].length = sg_dma_len(sg);
		q->q_sges[i].lkey = rb->rb_pd->local_dma_lkey;
	}
	for (w = 0; w < q->q_nwrs; w++) {
		wr = &q->q_wrs[w];
		first = w * rb->rb_sges;
		wr->wr.sg_list = &q->q_sges[first];
		wr->wr.num_sge = min_t(u32, rb->rb_sges, nents - first);
		wr->wr.opcode = rb->rb_write ? IB_WR_RDMA_WRITE :
					       IB_WR_RDMA_READ;
		wr->remote_addr = remote;
		wr->rkey = q->q_mr->rkey;
		for (k = 0; k < wr->wr.num_sge; k++)
			remote += wr->wr.sg_list[k].length;
		if (w + 1 < q->q_nwrs) {
			wr->wr.next = &q->q_wrs[w + 1].wr;
			wr->wr.wr_cqe = &q->q_part_cqe;
		} else {
			wr->wr.wr_cqe = &q->q_cqe;
			wr->wr.send_flags = IB_SEND_SIGNALED;
		}
	}
	return 0;
}

/* ---- connections ---- */

static struct ib_qp_init_attr xr_rb_qp_attr(struct xr_rb_qp *q,
					    struct ib_cq *cq, u32 send_wr,
					    u32 sges, u32 port)
{
	struct ib_qp_init_attr attr = {
		.qp_context	= q,
		.send_cq	= cq,
		.recv_cq	= cq,
		.cap = {
			.max_send_wr	= send_wr,
			.max_recv_wr	= 1,
			.max_send_sge	= sges,
			.max_recv_sge	= 1,
		},
		.sq_sig_type	= IB_SIGNAL_REQ_WR,
		.qp_type	= IB_QPT_RC,
		.port_num	= port,
	};

	return attr;
}

/* The device's limits for what was asked; the first connection takes it. */
static int xr_rb_device(struct xr_rb *rb, struct ib_device *dev, u32 port)
{
	const struct xr_bench_params *p = rb->rb_params;
	const struct ib_device_attr *a = &dev->attrs;
	u32 npages = DIV_ROUND_UP(p->size, PAGE_SIZE), nwrs;

	if (rb->rb_pd)
		return rb->rb_pd->device == dev ? 0 : -EXDEV;
	/* On iWARP the sink of an RDMA Read must be a registered region. */
	if (!rb->rb_write && rdma_protocol_iwarp(dev, port))
		return -EOPNOTSUPP;
	rb->rb_sges = min_t(u32, a->max_send_sge, XR_RB_MAX_SGE);
	if (!rb->rb_write)
		rb->rb_sges = min_t(u32, rb->rb_sges, a->max_sge_rd);
	if (!rb->rb_sges)
		return -EOPNOTSUPP;
	nwrs = DIV_ROUND_UP(npages, rb->rb_sges);
	/* One region per buffer; every message in flight, and a drain. */
	if (npages > a->max_fast_reg_page_list_len || p->size > a->max_mr_size ||
	    nwrs * p->concurrency + 1 > a->max_qp_wr ||
	    nwrs * p->concurrency + 2 > a->max_cqe)
		return -EMSGSIZE;
	rb->rb_pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(rb->rb_pd)) {
		int err = PTR_ERR(rb->rb_pd);

		rb->rb_pd = NULL;
		return err;
	}
	return 0;
}

/* The initiator's id, resolved to the listener, with its CQ and QP. */
static int xr_rb_initiator(struct xr_rb *rb, struct xr_rb_qp *q,
			   struct net *net)
{
	struct sockaddr *dst = (struct sockaddr *)&rb->rb_listen.re_id->route.addr.src_addr;
	u32 npages = DIV_ROUND_UP(rb->rb_params->size, PAGE_SIZE);
	struct ib_qp_init_attr attr;
	struct rdma_cm_id *id;
	u32 depth;
	int err;

	id = xr_rb_create_id(net, &q->q_init);
	if (IS_ERR(id))
		return PTR_ERR(id);
	q->q_init.re_id = id;
	err = rdma_resolve_addr(id, NULL, dst, XR_RB_CM_TIMEOUT_MS);
	if (!err)
		err = xr_rb_wait(rb, &q->q_init, RDMA_CM_EVENT_ADDR_RESOLVED);
	if (!err) {
		reinit_completion(&q->q_init.re_done);
		err = rdma_resolve_route(id, XR_RB_CM_TIMEOUT_MS);
	}
	if (!err)
		err = xr_rb_wait(rb, &q->q_init, RDMA_CM_EVENT_ROUTE_RESOLVED);
	if (!err)
		err = xr_rb_device(rb, id->device, id->port_num);
	if (err)
		return err;

	depth = DIV_ROUND_UP(npages, rb->rb_sges) * rb->rb_params->concurrency + 1;
	q->q_init_cq = ib_alloc_cq_any(id->device, q, depth + 1,
				       IB_POLL_WORKQUEUE);
	if (IS_ERR(q->q_init_cq)) {
		err = PTR_ERR(q->q_init_cq);
		q->q_init_cq = NULL;
		return err;
	}
	attr = xr_rb_qp_attr(q, q->q_init_cq, depth, rb->rb_sges, id->port_num);
	return rdma_create_qp(id, rb->rb_pd, &attr);
}

/* Accepts the target end of @q, whose connect request came. */
static int xr_rb_accept(struct xr_rb *rb, struct xr_rb_qp *q)
{
	struct rdma_cm_id *id = q->q_tgt.re_id;
	const struct ib_device_attr *a = &id->device->attrs;
	struct rdma_conn_param param = {
		.responder_resources = min_t(u32, q->q_rd_resp, a->max_qp_rd_atom),
		.initiator_depth = min_t(u32, q->q_rd_init, a->max_qp_init_rd_atom),
	};
	struct ib_qp_init_attr attr;
	int err;

	if (id->device != rb->rb_pd->device)
		return -EXDEV;
	/* The registration, and a drain. */
	q->q_tgt_cq = ib_alloc_cq_any(id->device, q, 4, IB_POLL_WORKQUEUE);
	if (IS_ERR(q->q_tgt_cq)) {
		err = PTR_ERR(q->q_tgt_cq);
		q->q_tgt_cq = NULL;
		return err;
	}
	attr = xr_rb_qp_attr(q, q->q_tgt_cq, 2, 1, id->port_num);
	err = rdma_create_qp(id, rb->rb_pd, &attr);
	if (err)
		return err;
	reinit_completion(&q->q_tgt.re_done);
	/* Outside the handler, the rdma_cm wants its lock held to accept. */
	rdma_lock_handler(id);
	err = rdma_accept(id, &param);
	rdma_unlock_handler(id);
	return err;
}

/* Connects @q's initiator to the listener and accepts it at the target. */
static int xr_rb_connect(struct xr_rb *rb, struct xr_rb_qp *q)
{
	const struct ib_device_attr *a = &q->q_init.re_id->device->attrs;
	struct rdma_conn_param param = {
		.private_data		= rb->rb_cookie,
		.private_data_len	= XR_RB_COOKIE_LEN,
		.responder_resources	= min_t(u32, a->max_qp_rd_atom,
						XR_RB_RD_ATOM),
		.initiator_depth	= min_t(u32, a->max_qp_init_rd_atom,
						XR_RB_RD_ATOM),
		.retry_count		= 7,
		.rnr_retry_count	= 7,
	};
	int err;

	spin_lock(&rb->rb_lock);
	rb->rb_expect = q;
	spin_unlock(&rb->rb_lock);
	reinit_completion(&q->q_init.re_done);
	err = rdma_connect(q->q_init.re_id, &param);
	if (!err)
		err = xr_rb_wait(rb, &q->q_tgt, RDMA_CM_EVENT_CONNECT_REQUEST);
	spin_lock(&rb->rb_lock);
	rb->rb_expect = NULL;
	spin_unlock(&rb->rb_lock);
	if (!err)
		err = xr_rb_accept(rb, q);
	if (!err)
		err = xr_rb_wait(rb, &q->q_init, RDMA_CM_EVENT_ESTABLISHED);
	if (!err)
		err = xr_rb_wait(rb, &q->q_tgt, RDMA_CM_EVENT_ESTABLISHED);
	q->q_connected = !err;
	return err;
}

/* Registers the target's buffer with remote access, as a client's chunk. */
static int xr_rb_register(struct xr_rb *rb, struct xr_rb_qp *q)
{
	struct ib_device *dev = rb->rb_pd->device;
	struct ib_reg_wr reg = {};
	int n, err;

	err = xr_rb_buf_alloc(dev, &q->q_dst, rb->rb_params->size,
			      DMA_BIDIRECTIONAL);
	if (err)
		return err;
	if (!rb->rb_write)
		xr_rb_buf_pattern(&q->q_dst, q->q_index, rb->rb_params->size,
				  true);
	err = xr_rb_buf_map(dev, &q->q_dst);
	if (err)
		return err;
	q->q_mr = ib_alloc_mr(rb->rb_pd, IB_MR_TYPE_MEM_REG, q->q_dst.rf_npages);
	if (IS_ERR(q->q_mr)) {
		err = PTR_ERR(q->q_mr);
		q->q_mr = NULL;
		return err;
	}
	n = ib_map_mr_sg(q->q_mr, q->q_dst.rf_sgt.sgl, q->q_dst.rf_nents, NULL,
			 PAGE_SIZE);
	if (n != q->q_dst.rf_nents)
		return n < 0 ? n : -EIO;
	reg.wr.opcode = IB_WR_REG_MR;
	reg.wr.wr_cqe = &q->q_reg_cqe;
	reg.wr.send_flags = IB_SEND_SIGNALED;
	reg.mr = q->q_mr;
	reg.key = q->q_mr->rkey;
	reg.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
		     IB_ACCESS_REMOTE_READ;
	err = ib_post_send(q->q_tgt.re_id->qp, &reg.wr, NULL);
	if (err)
		return err;
	if (!wait_event_timeout(rb->rb_wq, completion_done(&q->q_reg_done) ||
				READ_ONCE(rb->rb_removed), XR_RB_WAIT))
		return -ETIMEDOUT;
	if (!completion_done(&q->q_reg_done))
		return -ENODEV;
	return q->q_reg_status == IB_WC_SUCCESS ? 0 : -EIO;
}

/* The initiator's buffer: the data of Writes, or zeroes Reads fill. */
static int xr_rb_source(struct xr_rb *rb, struct xr_rb_qp *q)
{
	struct ib_device *dev = rb->rb_pd->device;
	int err;

	err = xr_rb_buf_alloc(dev, &q->q_src, rb->rb_params->size,
			      rb->rb_write ? DMA_TO_DEVICE : DMA_FROM_DEVICE);
	if (err)
		return err;
	if (rb->rb_write)
		xr_rb_buf_pattern(&q->q_src, q->q_index, rb->rb_params->size,
				  true);
	err = xr_rb_buf_map(dev, &q->q_src);
	if (err)
		return err;
	q->q_starts = kcalloc(rb->rb_params->concurrency, sizeof(u64),
			      GFP_KERNEL);
	return q->q_starts ? xr_rb_build_wrs(rb, q) : -ENOMEM;
}

static int xr_rb_qp_setup(struct xr_rb *rb, struct xr_rb_qp *q, u32 index,
			  struct net *net)
{
	const struct xr_bench_params *p = rb->rb_params;
	int err;

	q->q_rb = rb;
	q->q_index = index;
	q->q_count = p->count / p->qps + (index < p->count % p->qps);
	spin_lock_init(&q->q_lock);
	xr_rb_end_init(rb, &q->q_init);
	xr_rb_end_init(rb, &q->q_tgt);
	init_completion(&q->q_reg_done);
	q->q_cqe.done = xr_rb_msg_done;
	q->q_part_cqe.done = xr_rb_part_done;
	q->q_reg_cqe.done = xr_rb_reg_done;

	err = xr_rb_initiator(rb, q, net);
	if (!err)
		err = xr_rb_connect(rb, q);
	if (!err)
		err = xr_rb_register(rb, q);
	if (!err)
		err = xr_rb_source(rb, q);
	return err;
}

/* Tears @q down: the data's check is the caller's, before the buffers go. */
static void xr_rb_qp_close(struct xr_rb_qp *q)
{
	struct rdma_cm_id *init = q->q_init.re_id, *tgt = q->q_tgt.re_id;

	if (q->q_connected) {
		rdma_disconnect(init);
		ib_drain_qp(init->qp);
		ib_drain_qp(tgt->qp);
	}
	if (init && init->qp)
		rdma_destroy_qp(init);
	if (tgt && tgt->qp)
		rdma_destroy_qp(tgt);
	if (q->q_mr)
		ib_dereg_mr(q->q_mr);
	q->q_mr = NULL;
	if (q->q_init_cq)
		ib_free_cq(q->q_init_cq);
	if (q->q_tgt_cq)
		ib_free_cq(q->q_tgt_cq);
	q->q_init_cq = NULL;
	q->q_tgt_cq = NULL;
}

static void xr_rb_qp_free(struct xr_rb *rb, struct xr_rb_qp *q)
{
	struct ib_device *dev = rb->rb_pd ? rb->rb_pd->device : NULL;

	xr_rb_buf_free(dev, &q->q_src);
	xr_rb_buf_free(dev, &q->q_dst);
	if (q->q_init.re_id)
		rdma_destroy_id(q->q_init.re_id);
	if (q->q_tgt.re_id)
		rdma_destroy_id(q->q_tgt.re_id);
	kfree(q->q_starts);
	kfree(q->q_wrs);
	kfree(q->q_sges);
}

/* ---- the run ---- */

/* Posts every connection's first messages and waits for their last. */
static int xr_rb_move(struct xr_rb *rb)
{
	unsigned long stalled = jiffies + XR_RB_WAIT;
	u32 i, done, last = 0;
	struct xr_rb_qp *q;

	atomic_set(&rb->rb_active, rb->rb_nqps);
	for (i = 0; i < rb->rb_nqps; i++) {
		q = &rb->rb_qps[i];
		spin_lock_bh(&q->q_lock);
		xr_rb_fill_locked(q);
		spin_unlock_bh(&q->q_lock);
	}
	while (atomic_read(&rb->rb_active)) {
		wait_event_timeout(rb->rb_wq, !atomic_read(&rb->rb_active) ||
				   READ_ONCE(rb->rb_removed), HZ);
		if (READ_ONCE(rb->rb_removed))
			return -ENODEV;
		done = xr_bench_progress_tick(rb->rb_bench);
		if (done != last) {
			last = done;
			stalled = jiffies + XR_RB_WAIT;
		} else if (time_after(jiffies, stalled)) {
			return -ETIMEDOUT;
		}
	}
	for (i = 0; i < rb->rb_nqps; i++)
		if (rb->rb_qps[i].q_failed)
			return -ECOMM;
	return 0;
}

/* Closes every connection, checks the data moved, frees everything. */
static int xr_rb_close(struct xr_rb *rb, int err)
{
	const struct xr_bench_params *p = rb->rb_params;
	struct xr_rb_buf *data;
	struct xr_rb_qp *q;
	u32 i;

	/*
	 * A completion that found rb_stop clear posts under its QP's lock:
	 * once each lock was free after this, none posts behind a drain.
	 */
	WRITE_ONCE(rb->rb_stop, true);
	for (i = 0; i < rb->rb_nqps; i++) {
		spin_lock_bh(&rb->rb_qps[i].q_lock);
		spin_unlock_bh(&rb->rb_qps[i].q_lock);
	}
	for (i = 0; i < rb->rb_nqps; i++)
		xr_rb_qp_close(&rb->rb_qps[i]);
	for (i = 0; i < rb->rb_nqps; i++) {
		q = &rb->rb_qps[i];
		data = rb->rb_write ? &q->q_dst : &q->q_src;
		if (!err && q->q_posted && data->rf_nents) {
			ib_dma_unmap_sg(rb->rb_pd->device, data->rf_sgt.sgl,
					data->rf_sgt.orig_nents, data->rf_dir);
			data->rf_nents = 0;
			if (!xr_rb_buf_pattern(data, q->q_index, p->size, false))
				err = -EIO;
		}
		xr_rb_qp_free(rb, q);
	}
	if (rb->rb_pd)
		ib_dealloc_pd(rb->rb_pd);
	if (rb->rb_listen.re_id)
		rdma_destroy_id(rb->rb_listen.re_id);
	return err;
}

/**
 * xr_bench_rdma_run - run an rdma-write or rdma-read benchmark
 * @b: the benchmark, which records each message (xr_bench_record())
 * @net: the namespace of its rdma_cm ids
 * @p: what it runs: op, a local address of the device, the listener's
 *	port (0: any), count, concurrency (on each QP), size, qps
 * @elapsed: the time from the first message posted to the last completed
 *
 * Sleeps; runs in the benchmark's work item.
 *
 * Return: 0; -ENODEV when the address is not an RDMA device's, or the
 * device went away; -EMSGSIZE when the device cannot register or post
 * @p->size bytes that way; -ETIMEDOUT when a connection step or the
 * messages stalled; -ECOMM when a message failed; -EIO when the data
 * that arrived differs from the data sent; another errno from rdma_cm
 * or the verbs.
 */
int xr_bench_rdma_run(struct xr_bench *b, struct net *net,
		      const struct xr_bench_params *p, u64 *elapsed)
{
	struct xr_rb *rb;
	u64 start;
	int err;

	*elapsed = 0;
	rb = kzalloc(sizeof(*rb), GFP_KERNEL);
	if (!rb)
		return -ENOMEM;
	rb->rb_qps = kcalloc(p->qps, sizeof(*rb->rb_qps), GFP_KERNEL);
	if (!rb->rb_qps) {
		kfree(rb);
		return -ENOMEM;
	}
	rb->rb_bench = b;
	rb->rb_params = p;
	rb->rb_write = p->op == XRPCRDMA_BENCH_OP_RDMA_WRITE;
	spin_lock_init(&rb->rb_lock);
	init_waitqueue_head(&rb->rb_wq);
	xr_rb_end_init(rb, &rb->rb_listen);
	get_random_bytes(rb->rb_cookie, sizeof(rb->rb_cookie));

	err = xr_rb_listen(rb, net);
	while (!err && rb->rb_nqps < p->qps) {
		err = xr_rb_qp_setup(rb, &rb->rb_qps[rb->rb_nqps],
				     rb->rb_nqps, net);
		rb->rb_nqps++;
	}
	if (!err) {
		start = ktime_get_ns();
		err = xr_rb_move(rb);
		*elapsed = ktime_get_ns() - start;
	}
	err = xr_rb_close(rb, err);
	kfree(rb->rb_qps);
	kfree(rb);
	return err;
}
