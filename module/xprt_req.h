/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xprt_req.h - the client's part of one RPC: its buffers, the chunks it
 * offers and the FRWR memory regions registered for them (xprt_frwr.c).
 */
#ifndef _XRPCRDMA_XPRT_REQ_H
#define _XRPCRDMA_XPRT_REQ_H

#include <linux/dma-direction.h>
#include <linux/mutex.h>
#include <linux/scatterlist.h>

#include "xprt.h"

/**
 * struct xr_mr - one FRWR memory region of a connection
 * @mr_list: on the connection's free list, or its request's list
 * @mr_all: on the connection's list of every region
 * @mr_conn: the connection whose PD it belongs to
 * @mr_ibmr: the verbs memory region
 * @mr_sg: scatterlist, xc_max_pages entries
 * @mr_nents: entries DMA-mapped; 0 when not mapped
 * @mr_dir: direction of the mapping
 * @mr_reg_wr: the registration work request
 * @mr_inv_wr: the LOCAL_INV work request
 * @mr_reg_cqe: completion entry of the registration (errors only)
 * @mr_inv_cqe: completion entry of the invalidation
 * @mr_remote_inv: the server invalidated it with the reply (Send With
 *	Invalidate): no LOCAL_INV is posted for it
 * @mr_unposted: mapped with a new key whose registration was not posted
 *	(yet): the device does not know the key, nothing is invalidated
 * @mr_old_key: the key byte of the last registration posted, put back
 *	when an unposted one is let go
 * @mr_reg_cid: completion ID of the last registration posted (trace events)
 * @mr_inv_cid: completion ID of the last LOCAL_INV posted (trace events)
 */
struct xr_mr {
	struct list_head	mr_list;
	struct list_head	mr_all;
	struct xr_xconn		*mr_conn;
	struct ib_mr		*mr_ibmr;
	struct scatterlist	*mr_sg;
	int			mr_nents;
	enum dma_data_direction	mr_dir;
	struct ib_reg_wr	mr_reg_wr;
	struct ib_send_wr	mr_inv_wr;
	struct ib_cqe		mr_reg_cqe;
	struct ib_cqe		mr_inv_cqe;
	bool			mr_remote_inv;
	bool			mr_unposted;
	u8			mr_old_key;
	struct xr_cid		mr_reg_cid;
	struct xr_cid		mr_inv_cid;
};

/* How a request's reply comes back. */
enum xr_reply_kind {
	XR_REPLY_INLINE,	/* inline only */
	XR_REPLY_WRITE,		/* READ payload into a Write chunk */
	XR_REPLY_CHUNK,		/* the whole reply into a Reply chunk */
};

/**
 * struct xr_req - the transport's part of one RPC request: the send and
 *	receive buffers (rq_buffer and rq_rbuffer point into @rr_buf) and the
 *	memory regions registered for its chunks
 * @rr_mutex: serialises registration, invalidation and reply handling
 * @rr_conn: the connection @rr_mrs belong to (a reference), or NULL
 * @rr_mrs: memory regions registered for the current transmission
 * @rr_nmrs: entries on @rr_mrs
 * @rr_reply_kind: how the reply was asked to come back
 * @rr_wsegs: the Write chunk or Reply chunk offered
 * @rr_nwsegs: entries in @rr_wsegs
 * @rr_answered: no message may complete the request: a reply or
 *	RDMA_ERROR completed its current transmission, or it was never
 *	sent; another message with its XID is dropped
 * @rr_buf: the buffers
 */
struct xr_req {
	struct mutex		rr_mutex;	/* see above */
	struct xr_xconn		*rr_conn;
	struct list_head	rr_mrs;
	u32			rr_nmrs;
	enum xr_reply_kind	rr_reply_kind;
	struct xr_seg		rr_wsegs[XR_REQ_MAX_WSEGS];
	u32			rr_nwsegs;
	bool			rr_answered;
	u8			rr_buf[] __aligned(8);
};

/* xprt_frwr.c */
u32 xr_frwr_max_payload(u32 pages);
int xr_frwr_pool_init(struct xr_xconn *c, u32 count, u32 max);
void xr_frwr_pool_orphan(struct xr_xconn *c);
void xr_frwr_pool_destroy(struct xr_xconn *c);
int xr_frwr_map_buf(struct xr_xconn *c, struct xr_req *req, void *kva,
		    u32 len, bool remote_write, struct xr_seg *seg);
int xr_frwr_map_pages(struct xr_xconn *c, struct xr_req *req,
		      struct xdr_buf *buf, bool remote_write,
		      struct xr_seg *segs, u32 max_segs);
struct ib_send_wr *xr_frwr_reg_chain(struct xr_req *req, u32 *count);
bool xr_frwr_release_invalidated(struct xr_req *req, struct xr_xconn *c,
				 u32 rkey);
void xr_frwr_remote_inv(struct xr_req *req, u32 rkey);
void xr_frwr_release(struct xr_req *req);
int xr_frwr_release_sending(struct xr_req *req);

#endif /* _XRPCRDMA_XPRT_REQ_H */
