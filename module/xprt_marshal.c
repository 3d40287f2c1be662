// SPDX-License-Identifier: GPL-2.0
/*
 * xprt_marshal.c - the client's RPC-over-RDMA marshaling: choosing how a
 * call goes out and how its reply comes back, building the transport
 * header, and taking replies apart again.
 *
 * Calls: RDMA_MSG inline when the whole call fits the server's receive
 * size; a Read list carrying the page data (NFS WRITE) when only the rest
 * fits; otherwise RDMA_NOMSG with the whole call in a position-zero Read
 * chunk. Replies: inline when the largest possible reply fits our receive
 * buffers; a Write chunk over the page list for a READ payload; otherwise
 * a Reply chunk over the whole receive buffer. When the call's auth
 * flavour touches the payload (RPCAUTH_AUTH_DATATOUCH: RPCSEC_GSS
 * integrity and privacy) neither Read lists nor Write chunks are used:
 * see xr_ddp_allowed(). The inline part is always
 * copied into a send context's buffer (sendctx.c), never mapped in place.
 *
 * Replies are hostile input: the header is decoded with proto.c's limits,
 * every chunk the server returns must be one we offered and no longer
 * than we registered, and the inline part must fit the receive buffer.
 * A bad reply is counted and dropped; its RPC times out and is retried on
 * a new connection. An RDMA_ERROR fails its RPC with -EIO.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/highmem.h>
#include <linux/sunrpc/auth.h>
#include <linux/sunrpc/xdr.h>
#include <linux/sunrpc/xprt.h>

#include "fault.h"
#include "proto.h"
#include "recvq.h"
#include "sendq.h"
#include "stats.h"
#include "xprt.h"
#include "xprt_req.h"
#include "trace_msg.h"
#include "trace_xprt.h"

static const struct xr_limits xr_reply_limits = {
	.lm_max_read_segs	= 0,
	.lm_max_write_chunks	= 1,
	.lm_max_chunk_segs	= XR_REQ_MAX_WSEGS,
	.lm_max_segs		= XR_REQ_MAX_WSEGS,
	.lm_max_chunk_len	= U32_MAX,
	.lm_flags		= XR_LIM_REPLY,
};

static struct xr_req *xr_req_of(struct rpc_rqst *rqst)
{
	return container_of(rqst->rq_buffer, struct xr_req, rr_buf);
}

/* Read list entries of one chunk at @pos. */
static int xr_add_read_segs(struct xr_hdr *hdr, const struct xr_seg *segs,
			    int nsegs, u32 pos)
{
	int i;

	if (nsegs < 0)
		return nsegs;
	for (i = 0; i < nsegs; i++) {
		if (hdr->hd_nreads >= XR_CALL_MAX_READ_SEGS)
			return -EIO;
		hdr->hd_reads[hdr->hd_nreads].rs_position = pos;
		hdr->hd_reads[hdr->hd_nreads].rs_seg = segs[i];
		hdr->hd_nreads++;
	}
	return 0;
}

/* The call's page data as a Read chunk at its XDR position. */
static int xr_offer_read_list(struct xr_xconn *c, struct xr_req *req,
			      struct xdr_buf *snd, struct xr_hdr *hdr)
{
	struct xr_seg segs[XR_CALL_MAX_READ_SEGS];

	return xr_add_read_segs(hdr, segs,
				xr_frwr_map_pages(c, req, snd, false, segs,
						  ARRAY_SIZE(segs)),
				snd->head[0].iov_len);
}

/* The whole call as one position-zero Read chunk (RDMA_NOMSG). */
static int xr_offer_pos_zero(struct xr_xconn *c, struct xr_req *req,
			     struct xdr_buf *snd, struct xr_hdr *hdr)
{
	struct xr_seg seg[XR_CALL_MAX_READ_SEGS];
	int err;

	err = xr_frwr_map_buf(c, req, snd->head[0].iov_base,
			      snd->head[0].iov_len, false, seg);
	if (!err)
		err = xr_add_read_segs(hdr, seg, 1, 0);
	if (!err && snd->page_len)
		err = xr_add_read_segs(hdr, seg,
				       xr_frwr_map_pages(c, req, snd, false,
							 seg, ARRAY_SIZE(seg)),
				       0);
	if (!err && snd->tail[0].iov_len) {
		err = xr_frwr_map_buf(c, req, snd->tail[0].iov_base,
				      snd->tail[0].iov_len, false, seg);
		if (!err)
			err = xr_add_read_segs(hdr, seg, 1, 0);
	}
	return err;
}

/* Record an offered Write or Reply chunk segment. */
static int xr_add_wseg(struct xr_req *req, struct xr_hdr *hdr,
		       const struct xr_seg *seg)
{
	if (req->rr_nwsegs >= XR_REQ_MAX_WSEGS)
		return -EIO;
	req->rr_wsegs[req->rr_nwsegs++] = *seg;
	hdr->hd_segs[hdr->hd_nsegs++] = *seg;
	return 0;
}

static int xr_add_wsegs(struct xr_req *req, struct xr_hdr *hdr,
			const struct xr_seg *segs, int nsegs)
{
	int i, err;

	if (nsegs < 0)
		return nsegs;
	for (i = 0; i < nsegs; i++) {
		err = xr_add_wseg(req, hdr, &segs[i]);
		if (err)
			return err;
	}
	return 0;
}

/* A Write chunk over the receive buffer's pages (the READ payload). */
static int xr_offer_write_chunk(struct xr_xconn *c, struct xr_req *req,
				struct xdr_buf *rcv, struct xr_hdr *hdr)
{
	struct xr_seg segs[XR_REQ_MAX_WSEGS];
	int err;

	err = xr_add_wsegs(req, hdr, segs,
			   xr_frwr_map_pages(c, req, rcv, true, segs,
					     ARRAY_SIZE(segs)));
	if (err)
		return err;
	hdr->hd_writes[0].wc_first = 0;
	hdr->hd_writes[0].wc_nsegs = hdr->hd_nsegs;
	hdr->hd_nwrites = 1;
	return 0;
}

/* A Reply chunk over the whole receive buffer: head, pages, tail. */
static int xr_offer_reply_chunk(struct xr_xconn *c, struct xr_req *req,
				struct xdr_buf *rcv, struct xr_hdr *hdr)
{
	struct xr_seg segs[XR_REQ_MAX_WSEGS];
	int err;

	err = xr_frwr_map_buf(c, req, rcv->head[0].iov_base,
			      rcv->head[0].iov_len, true, segs);
	if (!err)
		err = xr_add_wseg(req, hdr, segs);
	if (!err && rcv->page_len)
		err = xr_add_wsegs(req, hdr, segs,
				   xr_frwr_map_pages(c, req, rcv, true, segs,
						     ARRAY_SIZE(segs)));
	if (!err && rcv->tail[0].iov_len) {
		err = xr_frwr_map_buf(c, req, rcv->tail[0].iov_base,
				      rcv->tail[0].iov_len, true, segs);
		if (!err)
			err = xr_add_wseg(req, hdr, segs);
	}
	if (err)
		return err;
	hdr->hd_reply.wc_first = 0;
	hdr->hd_reply.wc_nsegs = hdr->hd_nsegs;
	hdr->hd_flags |= XR_HDR_REPLY_CHUNK;
	return 0;
}

/* Bytes of a Read list header entry for each segment. */
#define XR_READ_SEG_WIRE	(2 * XR_XDR_UNIT + XR_SEG_SIZE)
/* Room a Write chunk or Reply chunk takes in a reply header. */
#define XR_WCHUNK_WIRE		(3 * XR_XDR_UNIT + \
				 XR_REQ_MAX_WSEGS * XR_SEG_SIZE)

/* The inline part of a call with a Read list: head and tail, no pad. */
static u32 xr_tail_skip(const struct xdr_buf *snd)
{
	u32 pad = xdr_pad_size(snd->page_len);

	return min_t(u32, pad, snd->tail[0].iov_len);
}

/*
 * Direct placement of data items (a Read list for the call's pages, a
 * Write chunk for the reply's) is allowed unless the call's auth flavour
 * touches the payload: RPCSEC_GSS integrity checksums it, privacy
 * encrypts it, so the bytes in the pages are part of one token. Such a
 * call goes whole, inline or in a position-zero Read chunk, with its
 * pad, and its reply comes back inline or in a Reply chunk.
 */
static bool xr_ddp_allowed(const struct rpc_rqst *rqst)
{
	const struct rpc_cred *cred = rqst->rq_cred;

	return !(cred && cred->cr_auth &&
		 test_bit(RPCAUTH_AUTH_DATATOUCH, &cred->cr_auth->au_flags));
}

static enum xr_call_kind xr_call_kind(struct xr_xconn *c,
				      const struct xdr_buf *snd, bool ddp)
{
	u32 rest;

	if (XR_HDR_MIN_SIZE + XR_WCHUNK_WIRE + snd->len <= c->xc_inline_send)
		return XR_CALL_INLINE;
	if (!ddp)
		return XR_CALL_NOMSG;
	rest = snd->head[0].iov_len + snd->tail[0].iov_len - xr_tail_skip(snd);
	if (snd->page_len && (snd->flags & XDRBUF_WRITE) &&
	    XR_HDR_MIN_SIZE + XR_WCHUNK_WIRE +
	    XR_CALL_MAX_READ_SEGS * XR_READ_SEG_WIRE + rest <= c->xc_inline_send)
		return XR_CALL_READ_LIST;
	return XR_CALL_NOMSG;
}

static enum xr_reply_kind xr_reply_kind(struct xr_xconn *c,
					const struct xdr_buf *rcv, bool ddp)
{
	if (XR_HDR_MIN_SIZE + rcv->buflen <= c->xc_inline_recv)
		return XR_REPLY_INLINE;
	if (ddp && rcv->page_len && (rcv->flags & XDRBUF_READ))
		return XR_REPLY_WRITE;
	return XR_REPLY_CHUNK;
}

/* Register what the call and its reply need; fill the header's lists. */
static int xr_marshal_chunks(struct xr_xprt *rx, struct xr_xconn *c,
			     struct rpc_rqst *rqst, enum xr_call_kind call)
{
	struct xr_req *req = xr_req_of(rqst);
	struct xr_hdr *hdr = &rx->rx_hdr;
	int err = 0;

	switch (call) {
	case XR_CALL_READ_LIST:
		err = xr_offer_read_list(c, req, &rqst->rq_snd_buf, hdr);
		break;
	case XR_CALL_NOMSG:
		err = xr_offer_pos_zero(c, req, &rqst->rq_snd_buf, hdr);
		break;
	default:
		break;
	}
	if (err)
		return err;
	xr_xprt_count(rx, XR_XPRT_STAT_READ_SEGS, hdr->hd_nreads);

	req->rr_reply_kind = xr_reply_kind(c, &rqst->rq_rcv_buf,
					   xr_ddp_allowed(rqst));
	switch (req->rr_reply_kind) {
	case XR_REPLY_WRITE:
		err = xr_offer_write_chunk(c, req, &rqst->rq_rcv_buf, hdr);
		xr_xprt_count(rx, XR_XPRT_STAT_WRITE_SEGS, req->rr_nwsegs);
		break;
	case XR_REPLY_CHUNK:
		err = xr_offer_reply_chunk(c, req, &rqst->rq_rcv_buf, hdr);
		xr_xprt_count(rx, XR_XPRT_STAT_REPLY_SEGS, req->rr_nwsegs);
		break;
	default:
		break;
	}
	return err;
}

/* Copy the inline part of the call after the header; return its end. */
static int xr_pullup(struct xr_sendctx *sc, u32 off, struct xdr_buf *snd,
		     enum xr_call_kind call)
{
	u32 skip, n;

	switch (call) {
	case XR_CALL_INLINE:
		if (off + snd->len > sc->sc_buf_size ||
		    read_bytes_from_xdr_buf(snd, 0, sc->sc_buf + off, snd->len))
			return -EIO;
		return off + snd->len;
	case XR_CALL_READ_LIST:
		skip = xr_tail_skip(snd);
		n = snd->tail[0].iov_len - skip;
		if (off + snd->head[0].iov_len + n > sc->sc_buf_size)
			return -EIO;
		memcpy(sc->sc_buf + off, snd->head[0].iov_base,
		       snd->head[0].iov_len);
		off += snd->head[0].iov_len;
		memcpy(sc->sc_buf + off, snd->tail[0].iov_base + skip, n);
		return off + n;
	default:
		return off;
	}
}

static int xr_marshal_post(struct xr_xprt *rx, struct xr_xconn *c,
			   struct rpc_rqst *rqst, enum xr_call_kind call)
{
	struct xr_req *req = xr_req_of(rqst);
	struct ib_send_wr *first, *last = NULL;
	struct xr_sendctx *sc;
	struct xr_mr *mr;
	int hlen, len, err;
	u32 nregs;

	sc = xr_sendctx_get(&c->xc_sq);
	if (!sc) {
		xr_xprt_count(rx, XR_XPRT_STAT_EMPTY_SENDCTX, 1);
		return -ENOBUFS;
	}
	len = -EIO;
	hlen = xr_hdr_encode(sc->sc_buf, sc->sc_buf_size, &rx->rx_hdr);
	if (hlen > 0)
		len = xr_pullup(sc, hlen, &rqst->rq_snd_buf, call);
	if (len < 0) {
		xr_sendctx_put(sc);
		return -EIO;
	}
	trace_xrpcrdma_marshal(rqst, &rx->rx_hdr, call, req->rr_reply_kind,
			       hlen, len);
	first = xr_frwr_reg_chain(req, &nregs);
	if (first) {
		mr = list_last_entry(&req->rr_mrs, struct xr_mr, mr_list);
		last = &mr->mr_reg_wr.wr;
	}
	/* Sent now, for the RPC layer's queue and round-trip times. */
	rqst->rq_xtime = ktime_get();
	err = xr_sendctx_post_chain(sc, len, first, last, nregs);
	if (err) {
		xr_sendctx_put(sc);
		return -ENOTCONN;
	}
	xr_xprt_count(rx, XR_XPRT_STAT_PULLUP_BYTES, len - hlen);
	xr_xprt_count(rx, XR_XPRT_STAT_REGISTRATIONS, nregs);
	return 0;
}

/* A call was posted: count it by how its argument and reply travel. */
static void xr_marshal_count_sent(struct xr_xprt *rx, struct xr_req *req,
				  struct rpc_rqst *rqst, enum xr_call_kind call)
{
	xr_xprt_count(rx, XR_XPRT_STAT_RPCS_SENT, 1);
	if (call == XR_CALL_READ_LIST)
		xr_xprt_count(rx, XR_XPRT_STAT_READ_CHUNK_CALLS, 1);
	if (req->rr_reply_kind == XR_REPLY_WRITE)
		xr_xprt_count(rx, XR_XPRT_STAT_WRITE_CHUNK_CALLS, 1);
	else if (req->rr_reply_kind == XR_REPLY_CHUNK)
		xr_xprt_count(rx, XR_XPRT_STAT_REPLY_CHUNK_CALLS, 1);
	if (call != XR_CALL_INLINE)
		xr_xprt_count(rx, XR_XPRT_STAT_RDMA_REQ_BYTES,
			      call == XR_CALL_NOMSG ? rqst->rq_snd_buf.len :
			      rqst->rq_snd_buf.page_len);
}

/**
 * xr_marshal_send - marshal and send one call
 * @rx: the transport; the caller holds its write lock
 * @c: its connected connection
 * @rqst: the call
 *
 * Regions registered for an earlier transmission are invalidated first.
 * Nothing here waits for a connection to be drained: its close needs the
 * write lock (xr_frwr_release_sending()).
 *
 * Return values:
 *   %0: posted
 *   %-EAGAIN: more memory regions are being allocated: wait for write
 *	space (the worker wakes the call), then call again
 *   %-ENOBUFS: no send context or memory region now: call again later
 *   %-ENOTCONN: the connection is going away: reconnect, call again
 *   %-EIO: the call cannot be sent (too large, cannot be registered)
 */
int xr_marshal_send(struct xr_xprt *rx, struct xr_xconn *c,
		    struct rpc_rqst *rqst)
{
	struct xr_req *req = xr_req_of(rqst);
	struct xr_hdr *hdr = &rx->rx_hdr;
	enum xr_call_kind call;
	int err;

	mutex_lock(&req->rr_mutex);
	/* Never the drain's wait: the close needs our write lock. */
	err = xr_frwr_release_sending(req);
	if (err)
		goto out_unlock;
	req->rr_nwsegs = 0;
	req->rr_answered = false;
	memset(hdr, 0, offsetof(struct xr_hdr, hd_writes));
	hdr->hd_xid = rqst->rq_xid;
	hdr->hd_credits = rx->rx_max_reqs;

	call = xr_call_kind(c, &rqst->rq_snd_buf, xr_ddp_allowed(rqst));
	hdr->hd_proc = call == XR_CALL_NOMSG ? XR_RDMA_NOMSG : XR_RDMA_MSG;
	err = xr_marshal_chunks(rx, c, rqst, call);
	if (!err)
		err = xr_marshal_post(rx, c, rqst, call);
	if (err) {
		trace_xrpcrdma_marshal_failed(rqst, err);
		/* Regions of a connection going down stay until its close. */
		xr_frwr_release_sending(req);
		if (err == -ENOMEM)
			err = -ENOBUFS;
		if (err == -ENOBUFS)
			xr_xprt_count(rx, XR_XPRT_STAT_ENOBUFS, 1);
		else if (err != -ENOTCONN && err != -EAGAIN)
			xr_xprt_count(rx, XR_XPRT_STAT_FAILED_MARSHAL, 1);
	} else if (call == XR_CALL_NOMSG) {
		xr_xprt_count(rx, XR_XPRT_STAT_NOMSG_CALLS, 1);
	} else if (call == XR_CALL_INLINE) {
		xr_xprt_count(rx, XR_XPRT_STAT_INLINE_CALLS, 1);
	}
	if (!err)
		xr_marshal_count_sent(rx, req, rqst, call);
out_unlock:
	mutex_unlock(&req->rr_mutex);
	return err;
}

/*
 * The bytes the server wrote into the chunk we offered: every segment it
 * returns must be ours, no longer than offered, and filled in order.
 */
static int xr_chunk_written(struct xr_req *req, const struct xr_hdr *hdr,
			    const struct xr_write_chunk *wc, u32 *written)
{
	const struct xr_seg *seg;
	bool short_seg = false;
	u32 i, total = 0;

	if (wc->wc_nsegs > req->rr_nwsegs)
		return -EBADMSG;
	for (i = 0; i < wc->wc_nsegs; i++) {
		seg = &hdr->hd_segs[wc->wc_first + i];
		if (seg->sg_handle != req->rr_wsegs[i].sg_handle ||
		    seg->sg_length > req->rr_wsegs[i].sg_length ||
		    (short_seg && seg->sg_length))
			return -EBADMSG;
		short_seg = seg->sg_length < req->rr_wsegs[i].sg_length;
		total += seg->sg_length;
	}
	*written = total;
	return 0;
}

/*
 * Copy @len bytes into @buf as a stream: head, then pages, then tail.
 * Bytes past the tail are left out, as a TCP transport leaves out what
 * its reply buffer has no room for: a server may pad a reply beyond
 * what the call expects, and the XDR decoder fails the call only if it
 * needs what was left out. Returns the bytes copied, -EBADMSG for a
 * page the buffer lacks, -ENOMEM when a sparse page cannot be had.
 */
static int xr_fixup_stream(struct xdr_buf *buf, const u8 *src, u32 len)
{
	u32 n, left = len, off, index;

	n = min_t(u32, left, buf->head[0].iov_len);
	memcpy(buf->head[0].iov_base, src, n);
	src += n;
	left -= n;

	off = buf->page_base;
	n = min_t(u32, left, buf->page_len);
	while (n) {
		u32 chunk = min_t(u32, n, PAGE_SIZE - offset_in_page(off));

		index = off >> PAGE_SHIFT;
		if (!buf->pages[index]) {
			if (!(buf->flags & XDRBUF_SPARSE_PAGES))
				return -EBADMSG;
			buf->pages[index] = alloc_page(GFP_NOFS);
			if (!buf->pages[index])
				return -ENOMEM;
		}
		memcpy_to_page(buf->pages[index], offset_in_page(off), src,
			       chunk);
		src += chunk;
		off += chunk;
		n -= chunk;
		left -= chunk;
	}

	n = min_t(u32, left, buf->tail[0].iov_len);
	memcpy(buf->tail[0].iov_base, src, n);
	left -= n;
	return len - left;
}

/*
 * RDMA_MSG with the READ payload in the Write chunk: the inline part
 * before the payload fills the head, the payload is already in the pages,
 * and whatever follows it goes to the tail. The geometry shrinks to what
 * arrived, so the XDR decoder finds everything where it looks.
 *
 * The XDR pad of the payload is not sent, but the decoder skips it after
 * the payload: inside the pages when they have room for it, else the
 * missing pad bytes (a page list exactly as long as an unaligned
 * payload, as an O_DIRECT read of an odd length has) start the tail.
 *
 * The buffer's capacity shrinks with it: what the decoder may grow the
 * tail into when the reply counts less payload than the chunk received
 * (it moves the surplus there) is the tail's own room, never the pages
 * or head bytes the reply did not fill.
 */
static int xr_fixup_write(struct xdr_buf *buf, const u8 *src, u32 len,
			  u32 written)
{
	u32 head = min_t(u32, len, buf->head[0].iov_len);
	u32 tail_room = buf->tail[0].iov_len;
	u32 rest = len - head;
	u32 padded = round_up(written, XR_XDR_UNIT);
	u32 pad;

	if (written > buf->page_len)
		return -EBADMSG;
	pad = padded - min_t(u32, padded, buf->page_len);
	if (rest + pad > tail_room)
		return -EBADMSG;
	memcpy(buf->head[0].iov_base, src, head);
	buf->head[0].iov_len = head;
	buf->page_len = min_t(u32, padded, buf->page_len);
	memset(buf->tail[0].iov_base, 0, pad);
	memcpy(buf->tail[0].iov_base + pad, src + head, rest);
	buf->tail[0].iov_len = pad + rest;
	buf->buflen = head + buf->page_len + tail_room;
	buf->len = head + buf->page_len + pad + rest;
	return 0;
}

/*
 * RDMA_MSG carries the whole reply inline. A Reply chunk may come back in
 * it only unused, every segment's length 0 (a server returns the chunk it
 * did not need so): a server that claims to have written into one, ours
 * or not, sent a reply that cannot be placed.
 */
static bool xr_reply_chunk_unused(const struct xr_hdr *hdr)
{
	u32 i;

	if (!(hdr->hd_flags & XR_HDR_REPLY_CHUNK))
		return true;
	for (i = 0; i < hdr->hd_reply.wc_nsegs; i++)
		if (hdr->hd_segs[hdr->hd_reply.wc_first + i].sg_length)
			return false;
	return true;
}

/* Put the reply where the RPC layer decodes it; return its length. */
static int xr_reply_fixup(struct xr_req *req, struct xr_recvctx *rc,
			  struct rpc_rqst *rqst)
{
	const struct xr_hdr *hdr = &rc->rctx_hdr;
	struct xdr_buf *buf = &rqst->rq_rcv_buf;
	const u8 *src = (u8 *)rc->rctx_buf + hdr->hd_hdr_len;
	u32 len = rc->rctx_byte_len - hdr->hd_hdr_len, written = 0;
	int err;

	if (hdr->hd_proc == XR_RDMA_NOMSG) {
		if (req->rr_reply_kind != XR_REPLY_CHUNK)
			return -EBADMSG;
		err = xr_chunk_written(req, hdr, &hdr->hd_reply, &written);
		if (err || !written)
			return -EBADMSG;
		buf->len = written;
		return written;
	}
	if (!xr_reply_chunk_unused(hdr))
		return -EBADMSG;
	if (hdr->hd_nwrites) {
		if (req->rr_reply_kind != XR_REPLY_WRITE)
			return -EBADMSG;
		err = xr_chunk_written(req, hdr, &hdr->hd_writes[0], &written);
		if (!err)
			err = xr_fixup_write(buf, src, len, written);
		return err ? err : buf->len;
	}
	err = xr_fixup_stream(buf, src, len);
	if (err < 0)
		return err;
	buf->len = err;
	return err;
}

/* Credits granted: the congestion window, never above what we asked. */
static void xr_reply_credits(struct rpc_xprt *xprt, u32 credits,
			     struct rpc_rqst *rqst)
{
	credits = clamp_t(u32, credits, 1, xprt->max_reqs);
	spin_lock(&xprt->transport_lock);
	xprt->cwnd = credits << RPC_CWNDSHIFT;
	/* The server has a Receive for another call now. */
	if (rqst)
		xprt_release_rqst_cong(rqst->rq_task);
	trace_xrpcrdma_credits(xprt, credits);
	spin_unlock(&xprt->transport_lock);
}

static struct rpc_rqst *xr_reply_find(struct rpc_xprt *xprt, __be32 xid)
{
	struct rpc_rqst *rqst;

	spin_lock(&xprt->queue_lock);
	rqst = xprt_lookup_rqst(xprt, xid);
	if (rqst)
		xprt_pin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);
	return rqst;
}

static void xr_reply_bad(struct xr_xprt *rx, __be32 xid, int err)
{
	xr_xprt_count(rx, XR_XPRT_STAT_BAD_REPLIES, 1);
	pr_warn_ratelimited("bad reply (xid %08x): %d\n",
			    be32_to_cpu(xid), err);
}

/*
 * The reply in hand releases its call's slot (and applies the server's
 * credit grant): another call may go out now, and its reply will need a
 * Receive.
 */
static void xr_reply_release(struct xr_xconn *c, u32 credits,
			     struct rpc_rqst *rqst)
{
	atomic_dec(&c->xc_unsettled);
	xr_reply_credits(&c->xc_xprt->rx_xprt, credits, rqst);
}

/*
 * An RPC is about to be completed, its slot released: its task may send
 * another call at once, whose reply needs a Receive. Every Receive the
 * connection keeps must be posted, or be that of a message received for
 * a call whose slot is not released yet (which cannot have a successor
 * yet). Count the completion when that is not so.
 */
static void xr_reply_check_recvs(struct xr_xconn *c)
{
	int avail = xr_recvq_posted(&c->xc_rq) +
		    atomic_read(&c->xc_unsettled);

	if (avail < (int)c->xc_recvs)
		xr_xprt_count(c->xc_xprt, XR_XPRT_STAT_RECV_SHORT_COMPLETIONS,
			      1);
}

/*
 * Claim the completion of @req's current transmission, under rr_mutex.
 * Two messages with one XID (a broken or hostile server's) can each find
 * the request before either completes it, one in the Receive handler and
 * one in the reply worker: only the first to get here completes it.
 * Returns true when an earlier message has.
 */
static bool xr_reply_take(struct xr_req *req)
{
	bool answered = req->rr_answered;

	req->rr_answered = true;
	return answered;
}

/*
 * The reply worker takes the lock of the call a message answers. The
 * reply-delay fault point holds it back first, as a worker that was slow
 * to run would be, while the Receive handler may complete the call.
 */
static void xr_reply_lock(struct xr_xconn *c, struct xr_req *req)
{
	xr_fault_delay(XRPCRDMA_FAULT_POINT_REPLY_DELAY, &c->xc_ep);
	mutex_lock(&req->rr_mutex);
}

/*
 * RDMA_ERROR: the server could not take the call apart (ERR_CHUNK) or
 * speaks another version (ERR_VERS). Sending it again would fail again:
 * the RPC fails with -EIO, unless another message with its XID completed
 * it first. Returns true when @rc was handed back (its Receive posted
 * again before the RPC was completed).
 */
static bool xr_reply_error(struct xr_xconn *c, struct xr_recvctx *rc)
{
	struct xr_xprt *rx = c->xc_xprt;
	struct rpc_xprt *xprt = &rx->rx_xprt;
	__be32 xid = rc->rctx_hdr.hd_xid;
	u32 credits = rc->rctx_hdr.hd_credits;
	struct rpc_rqst *rqst;
	struct xr_req *req;
	bool answered;

	trace_xrpcrdma_reply_rdma_error(rc);
	xr_reply_bad(rx, xid, -EREMOTEIO);
	rqst = xr_reply_find(xprt, xid);
	if (!rqst) {
		xr_reply_credits(xprt, credits, NULL);
		return false;
	}
	req = xr_req_of(rqst);
	xr_reply_lock(c, req);
	answered = xr_reply_take(req);
	if (!answered && req->rr_conn == c)
		xr_frwr_release(req);
	mutex_unlock(&req->rr_mutex);
	trace_xrpcrdma_reply_done(rqst, req->rr_reply_kind,
				  answered ? -EALREADY : -EIO);

	xr_xconn_recv_replace(c, rc, false);
	/* A second message keeps the slot of a call sent again since. */
	xr_reply_release(c, credits, answered ? NULL : rqst);
	spin_lock(&xprt->queue_lock);
	if (!answered) {
		/* Seen by call_status() when the task wakes. */
		rqst->rq_task->tk_status = -EIO;
		xr_reply_check_recvs(c);
		xprt_complete_rqst(rqst->rq_task, 0);
	}
	xprt_unpin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);
	return true;
}

/*
 * The request @rqst is found, pinned, and its rr_mutex held: put the reply
 * where the RPC layer decodes it, hand @rc back, and complete the RPC, or
 * count the reply as bad. Unlocks and unpins. Sleeps if the request holds
 * memory regions.
 *
 * The Receive goes back before the call's congestion slot is released
 * and its task woken: the task, or another one given the slot, may send
 * the next call at once, and the server may answer it as soon as it
 * arrives. A Receive posted only afterwards leaves a window with one
 * Receive fewer than the calls the server may answer: an RNR NAK on
 * InfiniBand and RoCE (retried, slowly), a fatal error on iWARP.
 */
static void xr_reply_finish(struct xr_xconn *c, struct xr_recvctx *rc,
			    struct rpc_rqst *rqst)
{
	struct xr_xprt *rx = c->xc_xprt;
	struct rpc_xprt *xprt = &rx->rx_xprt;
	struct xr_req *req = xr_req_of(rqst);
	__be32 xid = rc->rctx_hdr.hd_xid;
	u32 credits = rc->rctx_hdr.hd_credits;
	u32 inline_len = rc->rctx_byte_len - rc->rctx_hdr.hd_hdr_len;
	int len;

	if (req->rr_answered) {
		len = -EALREADY;
	} else if (req->rr_conn && req->rr_conn != c) {
		len = -EBADMSG;
	} else {
		/* Nobody may reach the memory once the RPC layer has it. */
		if (rc->rctx_remote_inv)
			xr_frwr_remote_inv(req, rc->rctx_inv_rkey);
		xr_frwr_release(req);
		len = xr_reply_fixup(req, rc, rqst);
		if (len > 0)
			xr_reply_take(req);
	}
	mutex_unlock(&req->rr_mutex);
	trace_xrpcrdma_reply_done(rqst, req->rr_reply_kind, len);

	/* Everything is copied out of @rc: not to be touched again. */
	xr_xconn_recv_replace(c, rc, false);
	xr_reply_release(c, credits, len == -EALREADY ? NULL : rqst);
	spin_lock(&xprt->queue_lock);
	if (len > 0) {
		if (req->rr_reply_kind != XR_REPLY_INLINE)
			xr_xprt_count(rx, XR_XPRT_STAT_RDMA_REPLY_BYTES,
				      rqst->rq_rcv_buf.len);
		xr_xprt_count(rx, XR_XPRT_STAT_FIXUP_BYTES, inline_len);
		/* The RPC layer checks that the two agree. */
		rqst->rq_private_buf = rqst->rq_rcv_buf;
		xr_reply_check_recvs(c);
		xprt_complete_rqst(rqst->rq_task, len);
	}
	xprt_unpin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);
	if (len <= 0)
		xr_reply_bad(rx, xid, len);
}

/**
 * xr_reply_decode - decode the transport header of a received message
 * @c: the connection it arrived on
 * @rc: the receive context, synced for the CPU; rctx_hdr is filled
 *
 * A header that does not decode is counted and reported as a bad reply.
 *
 * Return: true when rctx_hdr holds the decoded header; false when the
 * message is to be dropped.
 */
bool xr_reply_decode(struct xr_xconn *c, struct xr_recvctx *rc)
{
	struct xr_hdr *hdr = &rc->rctx_hdr;
	int err;

	/* A reply's lists fit the context: nothing to allocate here. */
	BUILD_BUG_ON(ARRAY_SIZE(rc->rctx_segs) < XR_REQ_MAX_WSEGS ||
		     !ARRAY_SIZE(rc->rctx_writes));
	err = xr_recvctx_decode(rc, &xr_reply_limits, false);
	if (err) {
		trace_xrpcrdma_bad_hdr(rc, err);
		xr_reply_bad(c->xc_xprt, hdr->hd_xid, err);
	} else {
		trace_xrpcrdma_reply(rc);
	}
	return !err;
}

/**
 * xr_reply_handle - take apart one received reply and complete its RPC
 * @c: the connection it arrived on
 * @rc: the receive context the reply worker holds, its header decoded by
 *	xr_reply_decode()
 *
 * Sleeps (invalidation of the request's memory regions).
 *
 * Return: true when @rc was handed back with xr_xconn_recv_replace()
 * (a reply that completed an RPC); false when the caller still has to.
 */
bool xr_reply_handle(struct xr_xconn *c, struct xr_recvctx *rc)
{
	struct rpc_xprt *xprt = &c->xc_xprt->rx_xprt;
	struct xr_hdr *hdr = &rc->rctx_hdr;
	struct rpc_rqst *rqst;

	if (hdr->hd_proc == XR_RDMA_ERROR)
		return xr_reply_error(c, rc);
	/* The server's NFSv4.1 callbacks come the same way. */
	if (xr_xprt_bc_is_call(rc)) {
		xr_xprt_bc_receive_call(c, rc);
		return false;
	}
	rqst = xr_reply_find(xprt, hdr->hd_xid);
	if (!rqst) {
		xr_reply_credits(xprt, hdr->hd_credits, NULL);
		return false;
	}
	xr_reply_lock(c, xr_req_of(rqst));
	xr_reply_finish(c, rc, rqst);
	return true;
}

/**
 * xr_reply_try_direct - complete a reply at once if that needs no waiting
 * @c: the connection it arrived on
 * @rc: the receive context, its header decoded by xr_reply_decode()
 *
 * For the Receive completion handler: a well-formed reply to a request
 * that holds no memory region, or only the one the reply invalidated
 * (Send With Invalidate), and whose lock is free, is completed here.
 * Everything else (errors, backchannel calls, replies whose regions must
 * be invalidated with LOCAL_INV) is left for xr_reply_handle().
 *
 * Return: true if the reply was dealt with and @rc handed back with
 * xr_xconn_recv_replace(); false if nothing was done.
 */
bool xr_reply_try_direct(struct xr_xconn *c, struct xr_recvctx *rc)
{
	struct rpc_xprt *xprt = &c->xc_xprt->rx_xprt;
	struct xr_hdr *hdr = &rc->rctx_hdr;
	struct rpc_rqst *rqst;
	struct xr_req *req;

	if (hdr->hd_proc == XR_RDMA_ERROR || xr_xprt_bc_is_call(rc))
		return false;
	rqst = xr_reply_find(xprt, hdr->hd_xid);
	if (!rqst)
		return false;
	req = xr_req_of(rqst);
	/* The holder may be waiting for the drain this handler is part of. */
	if (!mutex_trylock(&req->rr_mutex))
		goto out_unpin;
	/* Regions left to invalidate mean waiting: not here. */
	if (req->rr_conn &&
	    !(rc->rctx_remote_inv &&
	      xr_frwr_release_invalidated(req, c, rc->rctx_inv_rkey))) {
		mutex_unlock(&req->rr_mutex);
		goto out_unpin;
	}
	xr_xprt_count(c->xc_xprt, XR_XPRT_STAT_DIRECT_REPLIES, 1);
	xr_reply_finish(c, rc, rqst);
	return true;

out_unpin:
	spin_lock(&xprt->queue_lock);
	xprt_unpin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);
	return false;
}
