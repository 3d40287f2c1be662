// SPDX-License-Identifier: GPL-2.0
/*
 * svc_recv.c - the server's receive path (xpo_recvfrom): take a received
 * message, decode and check its transport header, answer bad headers with
 * RDMA_ERROR, and hand the RPC call to svc in place, in the receive
 * buffer, which the request holds until xpo_release_ctxt.
 *
 * This slice carries inline calls (RDMA_MSG without a Read list). Calls
 * that need RDMA Reads get ERR_CHUNK until rw.c lands.
 */
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/svc_xprt.h>

#include "xrpcrdma.h"

static const struct xr_limits xr_svc_call_limits = {
	.lm_max_read_segs	= 16,
	.lm_max_write_chunks	= 4,
	.lm_max_chunk_segs	= 16,
	.lm_max_segs		= 32,
	.lm_max_chunk_len	= 1024 * 1024,
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
 * value to answer with (0 < err), or -1 to drop it silently.
 */
static int xr_svc_check_call(struct xr_recvctx *rc)
{
	struct xr_hdr *hdr = &rc->rc_hdr;
	int err;

	err = xr_hdr_decode(rc->rc_buf, rc->rc_byte_len, &xr_svc_call_limits,
			    hdr);
	if (err == -EPROTONOSUPPORT)
		return XR_ERR_VERS;
	if (err)
		return (hdr->hd_flags & XR_HDR_XID) ? XR_ERR_CHUNK : -1;
	if (hdr->hd_proc != XR_RDMA_MSG || hdr->hd_nreads)
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
	struct xdr_buf *arg = &rqstp->rq_arg;
	struct xr_recvctx *rc;
	int verdict;

	/* Every page of rq_pages is free for the reply. */
	rqstp->rq_respages = rqstp->rq_pages;
	rqstp->rq_next_page = rqstp->rq_respages;
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

	verdict = xr_svc_check_call(rc);
	if (verdict) {
		xr_svc_count(sx, XR_SVC_STAT_BAD_HEADERS, 1);
		if (verdict > 0)
			xr_svc_send_error(sx, rc->rc_hdr.hd_xid, verdict);
		xr_recvctx_put(rc);
		return 0;
	}

	arg->head[0].iov_base = rc->rc_buf + rc->rc_hdr.hd_hdr_len;
	arg->head[0].iov_len = rc->rc_byte_len - rc->rc_hdr.hd_hdr_len;
	arg->tail[0].iov_base = NULL;
	arg->tail[0].iov_len = 0;
	arg->page_len = 0;
	arg->page_base = 0;
	arg->buflen = arg->head[0].iov_len;
	arg->len = arg->head[0].iov_len;

	rqstp->rq_xprt_ctxt = rc;
	rqstp->rq_prot = IPPROTO_MAX;
	svc_xprt_copy_addrs(rqstp, xprt);
	set_bit(RQ_SECURE, &rqstp->rq_flags);
	return arg->len;
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
