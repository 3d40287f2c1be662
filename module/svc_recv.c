// SPDX-License-Identifier: GPL-2.0
/*
 * svc_recv.c - the server's receive path (xpo_recvfrom): take a received
 * message, decode and check its transport header, answer bad headers with
 * RDMA_ERROR, and hand the RPC call to svc in place, in the receive
 * buffer, which the request holds until xpo_release_ctxt.
 *
 * Calls with a Read list: the chunk is pulled with RDMA Read into the
 * request's pages before svc sees the call. Two shapes are carried: an
 * RDMA_MSG with one Read chunk at a position inside the call (the data of
 * an NFS WRITE), and an RDMA_NOMSG whose whole call is one position-zero
 * Read chunk. Other shapes get ERR_CHUNK.
 *
 * Replies to the server's NFSv4.1 callbacks (RFC 8167) arrive here too:
 * RDMA_MSG, no chunks, an RPC message whose direction is REPLY. They go
 * to the backchannel and never reach svc.
 */
#include <linux/sizes.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/svc_xprt.h>

#include "proto.h"
#include "recvq.h"
#include "rw.h"
#include "stats.h"
#include "svc.h"
#include "trace_msg.h"

/*
 * The longest chunk a call may offer or carry: the kernel's largest
 * payload (RPCSVC_MAXPAYLOAD: 1 MiB on 6.1 and 6.12, 4 MiB on 7.3) and room
 * for what surrounds it. Under RPCSEC_GSS integrity or privacy the whole
 * call or reply travels in one chunk: a full-size WRITE's position-zero
 * Read chunk is its payload plus the RPC and GSS headers, and a client
 * offers a Reply chunk over its whole receive buffer, whose head and
 * tail add pages of their own. A Read chunk must also fit the request's
 * pages (xr_svc_chunk_fits()); a Write or Reply chunk longer than the
 * reply is left partly unused.
 */
#define XR_SVC_MAX_CHUNK_LEN	(RPCSVC_MAXPAYLOAD + SZ_64K)

static const struct xr_limits xr_svc_call_limits = {
	.lm_max_read_segs	= XR_SVC_MAX_READ_SEGS,
	.lm_max_write_chunks	= XR_SVC_MAX_WRITE_CHUNKS,
	.lm_max_chunk_segs	= XR_SVC_MAX_CHUNK_SEGS,
	.lm_max_segs		= XR_SVC_MAX_SEGS,
	.lm_max_chunk_len	= XR_SVC_MAX_CHUNK_LEN,
};

/* The oldest received message; XPT_DATA cleared when there is none. */
static struct xr_recvctx *xr_svc_next_call(struct xr_svc_xprt *sx)
{
	struct svc_xprt *xprt = &sx->sx_xprt;
	struct xr_recvctx *rc;

	rc = xr_recvq_next_ready(&sx->sx_rq);
	if (rc)
		return rc;
	clear_bit(XPT_DATA, &xprt->xpt_flags);
	/* Order the clear before the second look; pairs with the list
	 * lock and set_bit() in the receive completion path.
	 */
	smp_mb__after_atomic();
	/* A completion may have queued one after the first look. */
	rc = xr_recvq_next_ready(&sx->sx_rq);
	if (rc)
		set_bit(XPT_DATA, &xprt->xpt_flags);
	return rc;
}

/*
 * Check the header of a call. Return 0 to process it, or the rdma_err
 * value to answer with (0 < err), or -1 to drop it silently, or
 * -ENOTCONN when there was no memory for its chunk lists: the connection
 * is then closing, and the client sends the call again on a new one.
 */
static int xr_svc_check_call(struct xr_svc_xprt *sx, struct xr_recvctx *rc)
{
	struct xr_hdr *hdr = &rc->rctx_hdr;
	int err;

	/*
	 * Shorter than the fixed part (XID, version, credits, procedure):
	 * no XID to answer to, so discard it. From there on, RFC 8166,
	 * Section 4.5: a version we do not speak gets ERR_VERS, and an XDR
	 * error in a version 1 header ERR_CHUNK, however short the rest.
	 */
	if (rc->rctx_byte_len < XR_HDR_FIXED_SIZE)
		return -1;
	err = xr_recvctx_decode(rc, &xr_svc_call_limits, true);
	if (err)
		trace_xrpcrdma_bad_hdr(rc, err);
	else
		trace_xrpcrdma_svc_recv(rc);
	if (err == -ENOMEM) {
		xr_svc_close(sx);
		return -ENOTCONN;
	}
	if (err == -EPROTONOSUPPORT)
		return XR_ERR_VERS;
	/*
	 * Only a responder sends RDMA_ERROR: one from a client answers
	 * nothing of ours, and an error in return could only go back and
	 * forth between two ends that both answer errors.
	 */
	if ((hdr->hd_flags & XR_HDR_XID) && hdr->hd_proc == XR_RDMA_ERROR)
		return -1;
	if (err)
		return (hdr->hd_flags & XR_HDR_XID) ? XR_ERR_CHUNK : -1;
	switch (hdr->hd_proc) {
	case XR_RDMA_MSG:
		if (hdr->hd_nreads && (xr_read_chunk_count(hdr) != 1 ||
				       xr_read_has_pos_zero(hdr)))
			return XR_ERR_CHUNK;
		return 0;
	case XR_RDMA_NOMSG:
		if (xr_read_chunk_count(hdr) != 1 || !xr_read_has_pos_zero(hdr))
			return XR_ERR_CHUNK;
		return 0;
	}
	return XR_ERR_CHUNK;
}

/*
 * Does a Read chunk of @padded bytes (XDR pad included) fit this request?
 * The invariant: svc gave the request pages for a call of sv_max_mesg
 * bytes, and the call may fill xr_compat_call_pages() of them; entries
 * past those are no pages of this request (or the reply's). So the whole
 * call (the inline part and the chunk) must be at most sv_max_mesg, and
 * the chunk's pages at most that many.
 */
static bool xr_svc_chunk_fits(const struct svc_rqst *rqstp, u32 inline_len,
			      u32 padded)
{
	u32 max_mesg = rqstp->rq_server->sv_max_mesg;

	if (padded > max_mesg || inline_len > max_mesg - padded)
		return false;
	return DIV_ROUND_UP(padded, PAGE_SIZE) <= xr_compat_call_pages(rqstp);
}

/*
 * Pull the call's one Read chunk into rq_pages, XDR-padded. Returns the
 * number of pages used, or a negative errno: -EINVAL when the chunk does
 * not fit the request (the caller answers ERR_CHUNK), others when the
 * transfer failed (the connection is closing).
 */
static int xr_svc_read_chunk(struct xr_svc_xprt *sx, struct svc_rqst *rqstp,
			     const struct xr_hdr *hdr,
			     const struct xr_read_chunk *chunk)
{
	u32 padded = chunk->rc_length + xdr_pad_size(chunk->rc_length);
	u32 npages = DIV_ROUND_UP(padded, PAGE_SIZE), off = 0, i;
	struct xdr_buf dst = {};
	struct xr_rw rw;
	int err;

	/* Only the pages the call may fill. */
	if (!chunk->rc_length || npages > xr_compat_call_pages(rqstp))
		return -EINVAL;
	dst.pages = rqstp->rq_pages;
	dst.page_len = padded;
	dst.buflen = padded;
	dst.len = padded;

	err = xr_rw_init(&rw, &sx->sx_sq, DMA_FROM_DEVICE, chunk->rc_nsegs, 0);
	if (err)
		return err;
	for (i = 0; i < chunk->rc_nsegs && !err; i++) {
		const struct xr_seg *seg = &hdr->hd_reads[chunk->rc_first + i].rs_seg;

		err = xr_rw_add_xdr(&rw, seg, &dst, off, seg->sg_length);
		off += seg->sg_length;
	}
	if (!err)
		err = xr_rw_run(&rw);
	if (!err)
		xr_svc_count(sx, XR_SVC_STAT_RDMA_READ_SEGS, xr_rw_nops(&rw));
	xr_rw_destroy(&rw);
	if (err)
		return err == -E2BIG ? -EINVAL : err;

	/* The XDR pad is not part of the chunk (RFC 8166, Section 3.5.3). */
	xr_svc_count(sx, XR_SVC_STAT_RDMA_READ_BYTES, chunk->rc_length);
	if (padded > chunk->rc_length)
		memzero_page(rqstp->rq_pages[chunk->rc_length >> PAGE_SHIFT],
			     offset_in_page(chunk->rc_length),
			     padded - chunk->rc_length);
	return npages;
}

/*
 * Build rq_arg around a Read chunk: the inline part before its position
 * in the head, the chunk's data in the pages, the inline rest in the tail.
 * A position-zero chunk is the whole call: head is its first page.
 */
static void xr_svc_arg_with_chunk(struct svc_rqst *rqstp,
				  struct xr_recvctx *rc,
				  const struct xr_read_chunk *chunk, u32 npages)
{
	struct xdr_buf *arg = &rqstp->rq_arg;
	u32 padded = chunk->rc_length + xdr_pad_size(chunk->rc_length);
	void *inline_start = rc->rctx_buf + rc->rctx_hdr.hd_hdr_len;
	u32 inline_len = rc->rctx_byte_len - rc->rctx_hdr.hd_hdr_len;

	if (!chunk->rc_position) {
		arg->head[0].iov_base = page_address(rqstp->rq_pages[0]);
		arg->head[0].iov_len = min_t(u32, padded, PAGE_SIZE);
		arg->pages = rqstp->rq_pages + 1;
		arg->page_len = padded - arg->head[0].iov_len;
		arg->tail[0].iov_base = NULL;
		arg->tail[0].iov_len = 0;
	} else {
		arg->head[0].iov_base = inline_start;
		arg->head[0].iov_len = chunk->rc_position;
		arg->pages = rqstp->rq_pages;
		arg->page_len = padded;
		arg->tail[0].iov_base = inline_start + chunk->rc_position;
		arg->tail[0].iov_len = inline_len - chunk->rc_position;
	}
	arg->page_base = 0;
	arg->len = arg->head[0].iov_len + arg->page_len + arg->tail[0].iov_len;
	arg->buflen = arg->len;
	xr_compat_reply_pages(rqstp, npages);
}

/* Build rq_arg for an inline call: all of it in the receive buffer. */
static void xr_svc_arg_inline(struct svc_rqst *rqstp, struct xr_recvctx *rc)
{
	struct xdr_buf *arg = &rqstp->rq_arg;

	arg->head[0].iov_base = rc->rctx_buf + rc->rctx_hdr.hd_hdr_len;
	arg->head[0].iov_len = rc->rctx_byte_len - rc->rctx_hdr.hd_hdr_len;
	arg->tail[0].iov_base = NULL;
	arg->tail[0].iov_len = 0;
	arg->pages = rqstp->rq_pages;
	arg->page_len = 0;
	arg->page_base = 0;
	arg->buflen = arg->head[0].iov_len;
	arg->len = arg->head[0].iov_len;
}

/*
 * A backward-direction reply: complete the callback waiting for it. One
 * that matches no callback (it timed out, or the connection has no
 * backchannel) is dropped.
 */
static bool xr_svc_take_bc_reply(struct xr_svc_xprt *sx, struct xr_recvctx *rc)
{
	const struct xr_hdr *hdr = &rc->rctx_hdr;
	void *msg = rc->rctx_buf + hdr->hd_hdr_len;
	u32 len = rc->rctx_byte_len - hdr->hd_hdr_len;

	if (hdr->hd_proc != XR_RDMA_MSG || hdr->hd_nreads || hdr->hd_nwrites ||
	    (hdr->hd_flags & XR_HDR_REPLY_CHUNK) || !xr_svc_bc_is_reply(msg, len))
		return false;
	xr_svc_bc_reply(sx, msg, len, hdr->hd_credits);
	return true;
}

/*
 * Make rq_arg: inline, or with the Read chunk pulled in. Returns 0, or
 * the rdma_err to answer with, or -ENOTCONN when the chunk could not be
 * pulled (the connection is then closing).
 */
static int xr_svc_build_arg(struct xr_svc_xprt *sx, struct svc_rqst *rqstp,
			    struct xr_recvctx *rc)
{
	struct xr_read_chunk chunk;
	u32 inline_len = rc->rctx_byte_len - rc->rctx_hdr.hd_hdr_len;
	int npages;

	if (!rc->rctx_hdr.hd_nreads) {
		xr_svc_arg_inline(rqstp, rc);
		return 0;
	}
	if (xr_read_chunk_get(&rc->rctx_hdr, 0, &chunk) ||
	    chunk.rc_position > inline_len ||
	    !xr_svc_chunk_fits(rqstp, inline_len,
			       chunk.rc_length + xdr_pad_size(chunk.rc_length)))
		return XR_ERR_CHUNK;
	npages = xr_svc_read_chunk(sx, rqstp, &rc->rctx_hdr, &chunk);
	if (npages == -EINVAL)
		return XR_ERR_CHUNK;
	if (npages < 0) {
		/*
		 * The data could not be pulled (no memory, no memory region
		 * left in the pool, no DMA mapping, or the transfer failed).
		 * No RPC-over-RDMA error says "try again", and dropping the
		 * call alone would leave the client waiting for its RPC
		 * timeout: close, and it retransmits on a new connection.
		 */
		xr_svc_close(sx);
		return -ENOTCONN;
	}
	xr_svc_arg_with_chunk(rqstp, rc, &chunk, npages);
	/*
	 * A position-zero chunk is the whole call: its XID is known only
	 * now, and must be the transport header's (RFC 8166, Section
	 * 4.2.1), which is what the reply will carry. RDMA_MSG calls are
	 * checked by the header decoder.
	 */
	if (!chunk.rc_position && (chunk.rc_length < sizeof(__be32) ||
				   *(__be32 *)rqstp->rq_arg.head[0].iov_base !=
				   rc->rctx_hdr.hd_xid))
		return XR_ERR_CHUNK;
	return 0;
}

/**
 * xr_svc_recvfrom - receive the next RPC call on a connection
 * @rqstp: the request to fill
 *
 * Return: the length of the RPC call in @rqstp->rq_arg, or 0 when there
 * is none to process now.
 */
int xr_svc_recvfrom(struct svc_rqst *rqstp)
{
	struct svc_xprt *xprt = rqstp->rq_xprt;
	struct xr_svc_xprt *sx = container_of(xprt, struct xr_svc_xprt,
					      sx_xprt);
	struct xr_recvctx *rc;
	int verdict;

	/* No call pages used (yet): all the request's are the reply's. */
	xr_compat_reply_pages(rqstp, 0);
	rqstp->rq_xprt_ctxt = NULL;

	rc = xr_svc_next_call(sx);
	svc_xprt_received(xprt);
	if (!rc)
		return 0;
	xr_svc_count(sx, XR_SVC_STAT_CALLS_RECEIVED, 1);

	/* Keep the credits we granted backed by posted Receives. */
	if (xr_recvq_post(&sx->sx_rq, 1)) {
		xr_recvctx_put(rc);
		xr_svc_close(sx);
		return 0;
	}

	if (xr_recvctx_drop(rc)) {
		xr_recvctx_put(rc);
		return 0;
	}

	verdict = xr_svc_check_call(sx, rc);
	if (!verdict && xr_svc_take_bc_reply(sx, rc)) {
		xr_recvctx_put(rc);
		return 0;
	}
	if (!verdict)
		verdict = xr_svc_build_arg(sx, rqstp, rc);
	if (verdict) {
		/* A Read that failed on a closing connection is no bad header. */
		if (verdict != -ENOTCONN)
			xr_svc_count(sx, XR_SVC_STAT_BAD_HEADERS, 1);
		if (verdict > 0)
			xr_svc_send_error(sx, rc->rctx_hdr.hd_xid, verdict);
		xr_recvctx_put(rc);
		return 0;
	}

	rc->rctx_npayloads = 0;
	rqstp->rq_xprt_ctxt = rc;
	rqstp->rq_prot = IPPROTO_MAX;
	svc_xprt_copy_addrs(rqstp, xprt);
	set_bit(RQ_SECURE, &rqstp->rq_flags);
	return rqstp->rq_arg.len;
}

/**
 * xr_svc_result_payload - svc tells where a bulk payload of the reply is
 * @rqstp: the request
 * @offset: where the payload begins in rq_res
 * @length: its length in bytes (0 for an empty result)
 *
 * svc reports each payload (the data of an NFS READ, a READLINK's link)
 * as it encodes it, so in the order of the reply. The n-th goes into the
 * call's n-th Write chunk when the reply is sent (RFC 8166, Section
 * 3.4.6), an empty one too: the chunk is then returned with nothing
 * written. A payload beyond the call's Write list stays in the reply.
 *
 * Return: 0.
 */
int xr_svc_result_payload(struct svc_rqst *rqstp, unsigned int offset,
			  unsigned int length)
{
	struct xr_recvctx *rc = rqstp->rq_xprt_ctxt;
	struct xr_payload *pl;

	if (!rc || rc->rctx_npayloads >= rc->rctx_hdr.hd_nwrites ||
	    rc->rctx_npayloads >= ARRAY_SIZE(rc->rctx_payloads))
		return 0;
	pl = &rc->rctx_payloads[rc->rctx_npayloads++];
	pl->pl_off = offset;
	pl->pl_len = length;
	return 0;
}

/**
 * xr_svc_release_ctxt - the request is done with its receive context
 * @xprt: the transport
 * @ctxt: the context xr_svc_recvfrom() left in rq_xprt_ctxt, or NULL
 */
void xr_svc_release_ctxt(struct svc_xprt *xprt, void *ctxt)
{
	if (ctxt)
		xr_recvctx_put(ctxt);
}
