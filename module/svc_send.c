// SPDX-License-Identifier: GPL-2.0
/*
 * svc_send.c - the server's reply path (xpo_sendto): build the transport
 * header, echoing the call's Write list and Reply chunk, pull the reply
 * into the send context's buffer and post it; and RDMA_ERROR replies.
 *
 * Large replies: the result payload (the data of an NFS READ) goes by
 * RDMA Write into the call's first Write chunk and is left out of the
 * reply, with its XDR pad (RFC 8166, Section 3.5.4). What remains goes
 * inline when it fits the peer's inline threshold, else by RDMA Write into
 * the Reply chunk, announced by an RDMA_NOMSG header. A reply that fits
 * nowhere is answered with ERR_CHUNK.
 */
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/xdr.h>

#include "xrpcrdma.h"

/**
 * struct xr_svc_reply - the reply as it goes on the wire
 * @sr_res: the reply svc built
 * @sr_hole_off: start of the bytes sent by Write chunk (the payload)
 * @sr_hole_len: their length with the XDR pad; 0 when nothing was
 * @sr_len: bytes of the reply without the hole
 */
struct xr_svc_reply {
	const struct xdr_buf	*sr_res;
	u32			sr_hole_off;
	u32			sr_hole_len;
	u32			sr_len;
};

/*
 * Write @len bytes of the reduced reply, from @off on, into @segs: at most
 * two ranges of rq_res, around the hole.
 */
static int xr_svc_write_reply(struct xr_svc_xprt *sx,
			      const struct xr_svc_reply *sr,
			      const struct xr_seg *segs, u32 nsegs)
{
	u32 done = 0, i, n, from, part;
	struct xr_seg seg;
	struct xr_rw rw;
	int err;

	err = xr_rw_init(&rw, &sx->sx_sq, DMA_TO_DEVICE, nsegs * 2);
	if (err)
		return err;
	for (i = 0; i < nsegs && done < sr->sr_len && !err; i++) {
		seg = segs[i];
		n = min(seg.sg_length, sr->sr_len - done);
		while (n && !err) {
			/* Map a reduced-reply offset back into rq_res. */
			from = done;
			part = n;
			if (from >= sr->sr_hole_off)
				from += sr->sr_hole_len;
			else if (from + part > sr->sr_hole_off)
				part = sr->sr_hole_off - from;
			seg.sg_length = part;
			err = xr_rw_add_xdr(&rw, &seg, sr->sr_res, from, part);
			seg.sg_offset += part;
			done += part;
			n -= part;
		}
	}
	if (!err)
		err = xr_rw_run(&rw);
	xr_rw_destroy(&rw);
	return err;
}

/*
 * Send the result payload by RDMA Write into the first Write chunk, if
 * the call offered one, and record what was written in the header.
 */
static int xr_svc_write_payload(struct xr_svc_xprt *sx, struct xr_recvctx *rc,
				struct xr_svc_reply *sr)
{
	struct xr_hdr *hdr = &rc->rc_hdr;
	struct xr_write_chunk *wc = &hdr->hd_writes[0];
	struct xr_seg *segs = &hdr->hd_segs[wc->wc_first];
	u32 len = rc->rc_payload_len, room, done = 0, i, n;
	struct xr_rw rw;
	int err;

	if (!hdr->hd_nwrites || !len)
		return 0;
	if (xr_chunk_length(segs, wc->wc_nsegs, &room) || len > room ||
	    rc->rc_payload_off > sr->sr_res->len ||
	    len > sr->sr_res->len - rc->rc_payload_off)
		return -EMSGSIZE;

	err = xr_rw_init(&rw, &sx->sx_sq, DMA_TO_DEVICE, wc->wc_nsegs);
	if (err)
		return err;
	for (i = 0; i < wc->wc_nsegs && done < len && !err; i++) {
		n = min(segs[i].sg_length, len - done);
		err = xr_rw_add_xdr(&rw, &segs[i], sr->sr_res,
				    rc->rc_payload_off + done, n);
		done += n;
	}
	if (!err)
		err = xr_rw_run(&rw);
	xr_rw_destroy(&rw);
	if (err)
		return err;

	sr->sr_hole_off = rc->rc_payload_off;
	sr->sr_hole_len = min_t(u32, xdr_align_size(len),
				sr->sr_res->len - rc->rc_payload_off);
	sr->sr_len = sr->sr_res->len - sr->sr_hole_len;
	return xr_chunk_fill(segs, wc->wc_nsegs, len);
}

/*
 * Turn the call's decoded header into the reply's: same xid, our credits,
 * no Read list; Write chunks other than the one used are echoed with
 * nothing written into them. The Reply chunk is xr_svc_build_reply()'s.
 */
static int xr_svc_reply_hdr(struct xr_svc_xprt *sx, struct xr_hdr *hdr,
			    bool payload_sent)
{
	u32 i;
	int err;

	hdr->hd_vers = XR_VERSION;
	hdr->hd_credits = sx->sx_credits;
	hdr->hd_proc = XR_RDMA_MSG;
	hdr->hd_nreads = 0;
	for (i = payload_sent ? 1 : 0; i < hdr->hd_nwrites; i++) {
		err = xr_chunk_fill(&hdr->hd_segs[hdr->hd_writes[i].wc_first],
				    hdr->hd_writes[i].wc_nsegs, 0);
		if (err)
			return err;
	}
	return 0;
}

/* Copy the reduced reply into @dst, skipping the hole. */
static int xr_svc_copy_reply(const struct xr_svc_reply *sr, void *dst)
{
	const struct xdr_buf *res = sr->sr_res;
	u32 tail_off = sr->sr_hole_off + sr->sr_hole_len;

	if (!sr->sr_hole_len)
		return read_bytes_from_xdr_buf(res, 0, dst, res->len);
	if (read_bytes_from_xdr_buf(res, 0, dst, sr->sr_hole_off))
		return -EMSGSIZE;
	return read_bytes_from_xdr_buf(res, tail_off, dst + sr->sr_hole_off,
				       res->len - tail_off);
}

/*
 * Fill the send context with the reply's header and, when it fits, the
 * reduced reply; else write the reduced reply into the Reply chunk and
 * send an RDMA_NOMSG header. Returns the bytes to Send, or a negative
 * errno: -EMSGSIZE when the reply fits nowhere (answer ERR_CHUNK).
 */
static int xr_svc_build_reply(struct xr_svc_xprt *sx, struct xr_recvctx *rc,
			      const struct xr_svc_reply *sr,
			      struct xr_sendctx *sc)
{
	struct xr_hdr *hdr = &rc->rc_hdr;
	struct xr_seg *segs = &hdr->hd_segs[hdr->hd_reply.wc_first];
	bool has_reply = hdr->hd_flags & XR_HDR_REPLY_CHUNK;
	u32 nsegs = has_reply ? hdr->hd_reply.wc_nsegs : 0;
	u32 lengths[XR_MAX_SEGS];
	u32 room, i;
	int len, err;

	/* Inline: the Reply chunk goes back unused. Keep its lengths. */
	for (i = 0; i < nsegs; i++) {
		lengths[i] = segs[i].sg_length;
		segs[i].sg_length = 0;
	}
	len = xr_hdr_encode(sc->sc_buf, sc->sc_buf_size, hdr);
	if (len >= 0 && sr->sr_len <= sc->sc_buf_size - len) {
		err = xr_svc_copy_reply(sr, sc->sc_buf + len);
		return err ? -EMSGSIZE : len + sr->sr_len;
	}
	for (i = 0; i < nsegs; i++)
		segs[i].sg_length = lengths[i];

	if (!has_reply || xr_chunk_length(segs, nsegs, &room) ||
	    sr->sr_len > room)
		return -EMSGSIZE;
	err = xr_svc_write_reply(sx, sr, segs, hdr->hd_reply.wc_nsegs);
	if (err)
		return err;
	err = xr_chunk_fill(segs, hdr->hd_reply.wc_nsegs, sr->sr_len);
	if (err)
		return -EMSGSIZE;
	hdr->hd_proc = XR_RDMA_NOMSG;
	len = xr_hdr_encode(sc->sc_buf, sc->sc_buf_size, hdr);
	return len < 0 ? -EMSGSIZE : len;
}

static int xr_svc_post_error(struct xr_svc_xprt *sx, struct xr_sendctx *sc,
			     __be32 xid, u32 err)
{
	int len, ret;

	len = xr_hdr_encode_error(sc->sc_buf, sc->sc_buf_size, xid,
				  sx->sx_credits, err);
	if (len < 0)
		return len;
	ret = xr_sendctx_post(sc, len);
	if (!ret)
		xr_svc_count(sx, XR_SVC_STAT_RDMA_ERRORS_SENT, 1);
	return ret;
}

/**
 * xr_svc_send_error - answer a call with RDMA_ERROR
 * @sx: the connection
 * @xid: the call's xid, in wire order
 * @err: %XR_ERR_VERS or %XR_ERR_CHUNK
 *
 * Return values:
 *   %0: posted
 *   %-ENOMEM: no send context; the connection is closed
 *   %-ENOTCONN: posting failed; the connection is closed
 */
int xr_svc_send_error(struct xr_svc_xprt *sx, __be32 xid, u32 err)
{
	struct xr_sendctx *sc;
	int ret;

	sc = xr_sendctx_get(&sx->sx_sq);
	if (!sc) {
		xr_svc_close(sx);
		return -ENOMEM;
	}
	ret = xr_svc_post_error(sx, sc, xid, err);
	if (ret) {
		xr_sendctx_put(sc);
		xr_svc_close(sx);
		return -ENOTCONN;
	}
	return 0;
}

/*
 * Count a reply by how it went: inline, by Write chunk, by Reply chunk;
 * and whether it invalidated the client's region (@inv).
 */
static void xr_svc_count_reply(struct xr_svc_xprt *sx, struct xr_recvctx *rc,
			       const struct xr_svc_reply *sr, bool inv)
{
	if (inv)
		xr_svc_count(sx, XR_SVC_STAT_REMOTE_INVS, 1);
	if (sr->sr_hole_len) {
		xr_svc_count(sx, XR_SVC_STAT_REPLIES_WRITE_CHUNK, 1);
		xr_svc_count(sx, XR_SVC_STAT_RDMA_WRITE_BYTES,
			     rc->rc_payload_len);
	}
	if (rc->rc_hdr.hd_proc == XR_RDMA_NOMSG) {
		xr_svc_count(sx, XR_SVC_STAT_REPLIES_REPLY_CHUNK, 1);
		xr_svc_count(sx, XR_SVC_STAT_RDMA_WRITE_BYTES, sr->sr_len);
	} else if (!sr->sr_hole_len) {
		xr_svc_count(sx, XR_SVC_STAT_REPLIES_INLINE, 1);
	}
}

/*
 * A client that takes Send With Invalidate gets its region invalidated
 * by the reply when the call offered only one, in its Read list, Write
 * list or Reply chunk (RFC 8797, Section 4). Asked before the call's
 * header becomes the reply's, which has no Read list. Returns true, with
 * the handle in @rkey, when the reply is to invalidate.
 */
static bool xr_svc_reply_inv_rkey(struct xr_svc_xprt *sx,
				  struct xr_recvctx *rc, u32 *rkey)
{
	return sx->sx_remote_inv && xr_hdr_inv_rkey(&rc->rc_hdr, rkey);
}

/**
 * xr_svc_sendto - send the reply of a request
 * @rqstp: the request, with its reply in rq_res
 *
 * Return values:
 *   %0: the reply (or an RDMA_ERROR in its place) was posted
 *   %-ENOMEM: no send context; the connection is closed
 *   %-ENOTCONN: the connection is closing, or posting failed
 */
int xr_svc_sendto(struct svc_rqst *rqstp)
{
	struct svc_xprt *xprt = rqstp->rq_xprt;
	struct xr_svc_xprt *sx = container_of(xprt, struct xr_svc_xprt,
					      sx_xprt);
	struct xr_recvctx *rc = rqstp->rq_xprt_ctxt;
	struct xr_svc_reply sr = {
		.sr_res	= &rqstp->rq_res,
		.sr_len	= rqstp->rq_res.len,
	};
	struct xr_sendctx *sc;
	int len, err;
	u32 rkey;
	bool inv;

	if (test_bit(XPT_CLOSE, &xprt->xpt_flags) || !rc)
		return -ENOTCONN;
	sc = xr_sendctx_get(&sx->sx_sq);
	if (!sc) {
		xr_svc_close(sx);
		return -ENOMEM;
	}

	inv = xr_svc_reply_inv_rkey(sx, rc, &rkey);
	len = xr_svc_write_payload(sx, rc, &sr);
	if (!len)
		len = xr_svc_reply_hdr(sx, &rc->rc_hdr, sr.sr_hole_len != 0);
	if (!len)
		len = xr_svc_build_reply(sx, rc, &sr, sc);
	if (len >= 0) {
		if (inv)
			xr_sendctx_set_invalidate(sc, rkey);
		err = xr_sendctx_post(sc, len);
		if (!err)
			xr_svc_count_reply(sx, rc, &sr, inv);
	} else if (len == -EMSGSIZE || len == -EOVERFLOW || len == -EINVAL ||
		   len == -E2BIG) {
		err = xr_svc_post_error(sx, sc, rc->rc_hdr.hd_xid,
					XR_ERR_CHUNK);
	} else {
		err = len;
	}
	if (err) {
		xr_sendctx_put(sc);
		xr_svc_close(sx);
		return -ENOTCONN;
	}
	return 0;
}
