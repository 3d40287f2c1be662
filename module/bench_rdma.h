/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_rdma.h - the RDMA benchmark's own objects, shared by its run
 * (bench_rdma.c: buffers, messages, the run) and its connections
 * (bench_rdma_cm.c: rdma_cm, queue pairs). Nothing else includes it.
 */
#ifndef _XRPCRDMA_BENCH_RDMA_H
#define _XRPCRDMA_BENCH_RDMA_H

#include <linux/completion.h>
#include <linux/scatterlist.h>
#include <linux/spinlock.h>
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

/* bench_rdma_cm.c */
void xr_rb_end_init(struct xr_rb *rb, struct xr_rb_end *end);
int xr_rb_listen(struct xr_rb *rb, struct net *net);
int xr_rb_initiator(struct xr_rb *rb, struct xr_rb_qp *q, struct net *net);
int xr_rb_connect(struct xr_rb *rb, struct xr_rb_qp *q);

#endif /* _XRPCRDMA_BENCH_RDMA_H */
