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
#include <linux/slab.h>

#include "bench_rdma.h"

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
