// SPDX-License-Identifier: GPL-2.0
/*
 * svc_send.c - the server's reply path (xpo_sendto): build the transport
 * header, echoing the call's Write list and Reply chunk, pull the reply
 * into the send context's buffer and post it; and RDMA_ERROR replies.
 *
 * Large replies: each result payload (the data of an NFS READ; a
 * COMPOUND may carry several) goes by RDMA Write into the call's Write
 * chunk of the same rank and is left out of the reply, with its XDR pad
 * (RFC 8166, Sections 3.4.6 and 3.5.4). What remains goes
 * inline when it fits the peer's inline threshold, else by RDMA Write into
 * the Reply chunk, announced by an RDMA_NOMSG header. A reply that fits
 * nowhere is answered with ERR_CHUNK.
 *
 * The RDMA Writes are posted ahead of the reply's Send, in one chain:
 * the svc thread does not wait for them. The reply's pages become the
 * Writes' (xr_rw_hold_pages()) and are let go when the Send completes.
 */
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/xdr.h>

#include "core.h"
#include "fault.h"
#include "proto.h"
#include "recvq.h"
#include "rw.h"
#include "sendq.h"
#include "stats.h"
#include "svc.h"
#include "trace_svc.h"

/**
 * struct xr_svc_reply - the reply as it goes on the wire
 * @sr_res: the reply svc built
 * @sr_nholes: entries of @sr_holes used
 * @sr_holes: the byte ranges of @sr_res sent by Write chunk (the result
 *	payloads with their XDR pad), in ascending order, not overlapping
 * @sr_len: bytes of the reply without the holes
 */
struct xr_svc_reply {
	const struct xdr_buf	*sr_res;
	u32			sr_nholes;
	struct xr_payload	sr_holes[XR_SVC_MAX_WRITE_CHUNKS];
	u32			sr_len;
};

/*
 * Where byte @off of the reduced reply (the reply without its holes) is
 * in rq_res; @room is set to how many bytes from there are contiguous.
 */
static u32 xr_svc_res_offset(const struct xr_svc_reply *sr, u32 off,
			     u32 *room)
{
	u32 i, at = off;

	for (i = 0; i < sr->sr_nholes; i++) {
		if (at < sr->sr_holes[i].pl_off) {
			*room = sr->sr_holes[i].pl_off - at;
			return at;
		}
		at += sr->sr_holes[i].pl_len;
	}
	*room = sr->sr_res->len - at;
	return at;
}

/*
 * Add the Writes of @sr_len bytes of the reduced reply into @segs (the
 * ranges of rq_res between the holes) to @rw.
 */
static int xr_svc_write_reply(struct xr_rw *rw, const struct xr_svc_reply *sr,
			      const struct xr_seg *segs, u32 nsegs)
{
	u32 done = 0, i, n, from, part;
	struct xr_seg seg;
	int err = 0;

	for (i = 0; i < nsegs && done < sr->sr_len && !err; i++) {
		seg = segs[i];
		n = min(seg.sg_length, sr->sr_len - done);
		while (n && !err) {
			from = xr_svc_res_offset(sr, done, &part);
			part = min(part, n);
			if (!part) {
				err = -EMSGSIZE;
				break;
			}
			seg.sg_length = part;
			err = xr_rw_add_xdr(rw, &seg, sr->sr_res, from, part);
			seg.sg_offset += part;
			done += part;
			n -= part;
		}
	}
	return err;
}

/*
 * Check the result payloads against the reply and the Write chunks they
 * go to: each inside rq_res, after the one before it and its pad, and no
 * longer than its chunk. Returns the segments they span, or -EMSGSIZE.
 */
static int xr_svc_check_payloads(const struct xr_recvctx *rc,
				 const struct xdr_buf *res)
{
	const struct xr_hdr *hdr = &rc->rctx_hdr;
	const struct xr_write_chunk *wc;
	const struct xr_payload *pl;
	u32 i, room, end = 0, nsegs = 0;

	for (i = 0; i < rc->rctx_npayloads; i++) {
		pl = &rc->rctx_payloads[i];
		wc = &hdr->hd_writes[i];
		if (xr_chunk_length(&hdr->hd_segs[wc->wc_first], wc->wc_nsegs,
				    &room) || pl->pl_len > room ||
		    pl->pl_off < end || pl->pl_off > res->len ||
		    pl->pl_len > res->len - pl->pl_off)
			return -EMSGSIZE;
		end = pl->pl_off + min_t(u32, xdr_align_size(pl->pl_len),
					 res->len - pl->pl_off);
		nsegs += wc->wc_nsegs;
	}
	return nsegs;
}

/* Add the RDMA Writes of payload @i into its Write chunk to @rw. */
static int xr_svc_add_payload(struct xr_rw *rw, const struct xr_recvctx *rc,
			      const struct xdr_buf *res, u32 i)
{
	const struct xr_write_chunk *wc = &rc->rctx_hdr.hd_writes[i];
	const struct xr_seg *segs = &rc->rctx_hdr.hd_segs[wc->wc_first];
	const struct xr_payload *pl = &rc->rctx_payloads[i];
	u32 done = 0, j, n;
	int err = 0;

	for (j = 0; j < wc->wc_nsegs && done < pl->pl_len && !err; j++) {
		n = min(segs[j].sg_length, pl->pl_len - done);
		err = xr_rw_add_xdr(rw, &segs[j], res, pl->pl_off + done, n);
		done += n;
	}
	return err;
}

/*
 * What the reply says a Write chunk received: @len, or with the
 * write-chunk-long fault point, half the room beyond @len more.
 */
static u32 xr_svc_written(const struct xr_rw *rw, const struct xr_hdr *hdr,
			  const struct xr_write_chunk *wc, u32 len)
{
	u32 room;

	if (!xr_fault_hit(XRPCRDMA_FAULT_POINT_WRITE_CHUNK_LONG,
			  rw->rw_sq->sq_ep) ||
	    xr_chunk_length(&hdr->hd_segs[wc->wc_first], wc->wc_nsegs, &room) ||
	    room < len)
		return len;
	return len + round_down((room - len) / 2, XR_XDR_UNIT);
}

/*
 * Add the RDMA Writes of each result payload into its Write chunk to
 * @rw, then cut the payloads (with their XDR pad) out of the reply and
 * record in the header what each chunk receives.
 */
static int xr_svc_write_payloads(struct xr_rw *rw, struct xr_recvctx *rc,
				 struct xr_svc_reply *sr)
{
	struct xr_hdr *hdr = &rc->rctx_hdr;
	const struct xdr_buf *res = sr->sr_res;
	const struct xr_payload *pl;
	struct xr_payload *hole;
	struct xr_write_chunk *wc;
	int nsegs, err = 0;
	u32 i;

	if (!rc->rctx_npayloads)
		return 0;
	nsegs = xr_svc_check_payloads(rc, res);
	if (nsegs < 0)
		return nsegs;
	for (i = 0; i < rc->rctx_npayloads && !err; i++)
		err = xr_svc_add_payload(rw, rc, res, i);
	if (err)
		return err;

	for (i = 0; i < rc->rctx_npayloads; i++) {
		pl = &rc->rctx_payloads[i];
		wc = &hdr->hd_writes[i];
		hole = &sr->sr_holes[i];
		hole->pl_off = pl->pl_off;
		hole->pl_len = min_t(u32, xdr_align_size(pl->pl_len),
				     res->len - pl->pl_off);
		sr->sr_len -= hole->pl_len;
		err = xr_chunk_fill(&hdr->hd_segs[wc->wc_first], wc->wc_nsegs,
				    xr_svc_written(rw, hdr, wc, pl->pl_len));
		if (err)
			return err;
	}
	sr->sr_nholes = rc->rctx_npayloads;
	return 0;
}

/*
 * Turn the call's decoded header into the reply's: same xid, our credits,
 * no Read list; the Write chunks after the @nused that received a payload
 * are echoed with nothing written into them. The Reply chunk is
 * xr_svc_build_reply()'s.
 */
static int xr_svc_reply_hdr(struct xr_svc_xprt *sx, struct xr_hdr *hdr,
			    u32 nused)
{
	u32 i;
	int err;

	hdr->hd_vers = XR_VERSION;
	hdr->hd_credits = sx->sx_credits;
	hdr->hd_proc = XR_RDMA_MSG;
	hdr->hd_nreads = 0;
	for (i = nused; i < hdr->hd_nwrites; i++) {
		err = xr_chunk_fill(&hdr->hd_segs[hdr->hd_writes[i].wc_first],
				    hdr->hd_writes[i].wc_nsegs, 0);
		if (err)
			return err;
	}
	return 0;
}

/* Copy the reduced reply into @dst, skipping the holes. */
static int xr_svc_copy_reply(const struct xr_svc_reply *sr, void *dst)
{
	u32 done = 0, from, room;

	while (done < sr->sr_len) {
		from = xr_svc_res_offset(sr, done, &room);
		room = min(room, sr->sr_len - done);
		if (!room ||
		    read_bytes_from_xdr_buf(sr->sr_res, from, dst + done, room))
			return -EMSGSIZE;
		done += room;
	}
	return 0;
}

/*
 * Fill the send context with the reply's header and, when it fits, the
 * reduced reply; else add the Writes of the reduced reply into the Reply
 * chunk to @rw and send an RDMA_NOMSG header. Returns the bytes to Send,
 * or a negative errno: -EMSGSIZE when the reply fits nowhere (answer
 * ERR_CHUNK).
 */
static int xr_svc_build_reply(struct xr_rw *rw, struct xr_recvctx *rc,
			      const struct xr_svc_reply *sr,
			      struct xr_sendctx *sc)
{
	struct xr_hdr *hdr = &rc->rctx_hdr;
	struct xr_seg *segs = &hdr->hd_segs[hdr->hd_reply.wc_first];
	bool has_reply = hdr->hd_flags & XR_HDR_REPLY_CHUNK;
	u32 nsegs = has_reply ? hdr->hd_reply.wc_nsegs : 0;
	u32 lengths[XR_SVC_MAX_CHUNK_SEGS];
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
	err = xr_svc_write_reply(rw, sr, segs, hdr->hd_reply.wc_nsegs);
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
	/* The reply it replaces may have been going to invalidate. */
	xr_sendctx_clear_invalidate(sc);
	trace_xrpcrdma_svc_send_error(&sx->sx_ep, xid, err);
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
	u32 i;

	if (inv)
		xr_svc_count(sx, XR_SVC_STAT_REMOTE_INVS, 1);
	if (sr->sr_nholes)
		xr_svc_count(sx, XR_SVC_STAT_REPLIES_WRITE_CHUNK, 1);
	for (i = 0; i < sr->sr_nholes; i++)
		xr_svc_count(sx, XR_SVC_STAT_RDMA_WRITE_BYTES,
			     rc->rctx_payloads[i].pl_len);
	if (rc->rctx_hdr.hd_proc == XR_RDMA_NOMSG) {
		xr_svc_count(sx, XR_SVC_STAT_REPLIES_REPLY_CHUNK, 1);
		xr_svc_count(sx, XR_SVC_STAT_RDMA_WRITE_BYTES, sr->sr_len);
	} else if (!sr->sr_nholes) {
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
	return sx->sx_remote_inv && xr_hdr_inv_rkey(&rc->rctx_hdr, rkey);
}

/*
 * The end of the reply's pages in rq_respages: past every page the reply
 * was encoded into. nfsd points rq_next_page past the page its last
 * operation ended in, but the RPC layer may encode after that: under
 * krb5i the checksum follows the results, and after a READ that filled
 * its last page it goes into the next one. The Writes read that page
 * too, so it goes with them. Pages outside the reply's array are not
 * svc's to reuse and are left alone.
 */
static struct page **xr_svc_reply_pages_end(struct svc_rqst *rqstp)
{
	const struct xdr_buf *res = &rqstp->rq_res;
	struct page **end = rqstp->rq_next_page;
	struct page **last[2] = { rqstp->rq_res_stream.page_ptr, NULL };
	u32 i;

	if (res->page_len)
		last[1] = res->pages +
			  ((res->page_base + res->page_len - 1) >> PAGE_SHIFT);
	for (i = 0; i < ARRAY_SIZE(last); i++) {
		if (last[i] && last[i] >= end &&
		    last[i] >= rqstp->rq_respages &&
		    last[i] < rqstp->rq_page_end)
			end = last[i] + 1;
	}
	return end;
}

/*
 * Ready @rw for the reply's RDMA Writes when the call offered chunks to
 * write: room for a transfer per segment of each Write chunk a payload
 * goes to, and per segment of the Reply chunk for each range between the
 * payloads; and for the reply's @npages pages. Else @rw stays empty.
 */
static int xr_svc_rw_init(struct xr_svc_xprt *sx, const struct xr_recvctx *rc,
			  struct xr_rw *rw, u32 npages)
{
	const struct xr_hdr *hdr = &rc->rctx_hdr;
	u32 i, nops = 0;

	memset(rw, 0, sizeof(*rw));
	for (i = 0; i < rc->rctx_npayloads; i++)
		nops += hdr->hd_writes[i].wc_nsegs;
	if (hdr->hd_flags & XR_HDR_REPLY_CHUNK)
		nops += hdr->hd_reply.wc_nsegs * (rc->rctx_npayloads + 1);
	if (!nops)
		return 0;
	return xr_rw_init(rw, &sx->sx_sq, DMA_TO_DEVICE, nops, npages);
}

/*
 * Post the reply's Send, with its Writes (if any) ahead of it. The
 * reply's pages, rq_respages up to @end, go with the Writes: svc reuses
 * or frees what is left in rq_respages once we return, and the Writes
 * may still be reading. svc allocates new pages for the NULL entries
 * left behind before the next call (xr_compat_reply_pages_taken() says
 * how, kernel by kernel).
 */
static int xr_svc_post_reply(struct svc_rqst *rqstp, struct xr_rw *rw,
			     struct xr_sendctx *sc, u32 len, struct page **end)
{
	int err;

	if (xr_rw_nops(rw)) {
		err = xr_rw_hold_pages(rw, rqstp->rq_respages,
				       end - rqstp->rq_respages);
		if (err)
			return err;
		xr_compat_reply_pages_taken(rqstp, end);
	}
	return xr_rw_post_send(rw, sc, len);
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
	struct page **end = xr_svc_reply_pages_end(rqstp);
	struct xr_sendctx *sc;
	struct xr_rw rw;
	int len, err;
	u32 rkey, nwrites;
	bool inv;

	if (test_bit(XPT_CLOSE, &xprt->xpt_flags) || !rc)
		return -ENOTCONN;
	sc = xr_sendctx_get(&sx->sx_sq);
	if (!sc) {
		xr_svc_close(sx);
		return -ENOMEM;
	}

	inv = xr_svc_reply_inv_rkey(sx, rc, &rkey);
	len = xr_svc_rw_init(sx, rc, &rw, end - rqstp->rq_respages);
	if (!len)
		len = xr_svc_write_payloads(&rw, rc, &sr);
	if (!len)
		len = xr_svc_reply_hdr(sx, &rc->rctx_hdr, sr.sr_nholes);
	if (!len)
		len = xr_svc_build_reply(&rw, rc, &sr, sc);
	if (len >= 0) {
		if (inv)
			xr_sendctx_set_invalidate(sc, rkey);
		trace_xrpcrdma_svc_reply(sc, rc, len, sr.sr_nholes);
		nwrites = xr_rw_nops(&rw);
		err = xr_svc_post_reply(rqstp, &rw, sc, len, end);
		if (!err) {
			xr_svc_count_reply(sx, rc, &sr, inv);
			xr_svc_count(sx, XR_SVC_STAT_RDMA_WRITE_SEGS, nwrites);
		} else if (err == -E2BIG) {
			/* More than the send queue holds; nothing was posted. */
			err = xr_svc_post_error(sx, sc, rc->rctx_hdr.hd_xid,
						XR_ERR_CHUNK);
		}
	} else if (len == -EMSGSIZE || len == -EOVERFLOW || len == -EINVAL ||
		   len == -E2BIG) {
		err = xr_svc_post_error(sx, sc, rc->rctx_hdr.hd_xid,
					XR_ERR_CHUNK);
	} else {
		err = len;
	}
	/* Writes not posted (an RDMA_ERROR went instead, or none at all). */
	xr_rw_destroy(&rw);
	if (err) {
		xr_sendctx_put(sc);
		xr_svc_close(sx);
		return -ENOTCONN;
	}
	return 0;
}
