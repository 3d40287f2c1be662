/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rw.h - RDMA Reads and Writes of chunks (rw.c), on the kernel's rdma_rw
 * API, posted as one chain on a connection's send queue.
 */
#ifndef _XRPCRDMA_RW_H
#define _XRPCRDMA_RW_H

#include <linux/completion.h>
#include <linux/dma-direction.h>
#include <linux/sunrpc/xdr.h>
#include <rdma/rw.h>

#include "sendq.h"

/**
 * struct xr_rw_op - the RDMA Read or Write of one remote segment
 * @ro_ctx: the rdma_rw context
 * @ro_sgl: local memory
 * @ro_nents: entries in @ro_sgl
 */
struct xr_rw_op {
	struct rdma_rw_ctx	ro_ctx;
	struct scatterlist	*ro_sgl;
	u32			ro_nents;
};

/**
 * struct xr_rw_set - the rdma_rw contexts of one request, in one
 *	allocation that outlives the request when its Writes go ahead of
 *	a Send (xr_rw_post_send()) or its chain failed to post
 * @rs_entry: on the send queue's @sq_rw_failed, or a list of sets to
 *	release
 * @rs_sq: the send queue the transfers take slots of
 * @rs_dir: the direction they were mapped for
 * @rs_nops: entries used in @rs_ops
 * @rs_cqe: completion entry of Writes posted ahead of a Send
 * @rs_cid: their completion ID (trace events)
 * @rs_pages: pages the transfers read from, held until they are
 *	released (room for @rs_max_pages, after @rs_ops)
 * @rs_npages: entries used in @rs_pages
 * @rs_max_pages: room in @rs_pages
 * @rs_ops: one per remote segment
 */
struct xr_rw_set {
	struct list_head	rs_entry;
	struct xr_sendq		*rs_sq;
	enum dma_data_direction	rs_dir;
	u32			rs_nops;
	struct ib_cqe		rs_cqe;
	struct xr_cid		rs_cid;
	struct page		**rs_pages;
	u32			rs_npages;
	u32			rs_max_pages;
	struct xr_rw_op		rs_ops[];
};

/**
 * struct xr_rw - the RDMA Reads or Writes of one request
 * @rw_sq: the send queue whose slots they take
 * @rw_dir: %DMA_FROM_DEVICE (Read) or %DMA_TO_DEVICE (Write)
 * @rw_set: the contexts; NULL once handed to the send queue
 * @rw_ops: @rw_set's, one per remote segment
 * @rw_nops: entries used in @rw_ops
 * @rw_max_ops: entries in @rw_ops
 * @rw_nwrs: work requests the transfers need
 * @rw_cqe: completion entry of the chain's last work request
 * @rw_done: completed by the chain's completion
 * @rw_status: the work completion status
 * @rw_cid: completion ID of the chain (trace events)
 */
struct xr_rw {
	struct xr_sendq		*rw_sq;
	enum dma_data_direction	rw_dir;
	struct xr_rw_set	*rw_set;
	struct xr_rw_op		*rw_ops;
	u32			rw_nops;
	u32			rw_max_ops;
	u32			rw_nwrs;
	struct ib_cqe		rw_cqe;
	struct completion	rw_done;
	int			rw_status;
	struct xr_cid		rw_cid;
};

int xr_rw_init(struct xr_rw *rw, struct xr_sendq *sq,
	       enum dma_data_direction dir, u32 max_ops, u32 max_pages);
int xr_rw_add_xdr(struct xr_rw *rw, const struct xr_seg *seg,
		  const struct xdr_buf *buf, u32 off, u32 len);
int xr_rw_hold_pages(struct xr_rw *rw, struct page **pages, u32 n);
int xr_rw_run(struct xr_rw *rw);
int xr_rw_post_send(struct xr_rw *rw, struct xr_sendctx *sc, u32 len);
void xr_rw_destroy(struct xr_rw *rw);
void xr_rw_set_release(struct xr_rw_set *set);

/**
 * xr_rw_nops - the transfers added to @rw, one per xr_rw_add_xdr() of
 *	a non-empty range
 * @rw: the set, before xr_rw_destroy()
 *
 * Return: the count.
 */
static inline u32 xr_rw_nops(const struct xr_rw *rw)
{
	return rw->rw_nops;
}

void xr_rw_reap(struct xr_sendq *sq);

#endif /* _XRPCRDMA_RW_H */
