// SPDX-License-Identifier: GPL-2.0
/*
 * svc_send.c - the server's reply path (xpo_sendto): build the transport
 * header, echoing the call's Write list and Reply chunk, pull the reply
 * into the send context's buffer and post it; and RDMA_ERROR replies.
 *
 * This slice sends inline replies only. A reply that does not fit inline
 * is answered with ERR_CHUNK until rw.c lands.
 */
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/xdr.h>

#include "xrpcrdma.h"

/*
 * Turn the call's decoded header into the reply's: same xid, our credits,
 * no Read list, and the Write list and Reply chunk echoed with nothing
 * written into them.
 */
static int xr_svc_reply_hdr(struct xr_svc_xprt *sx, struct xr_hdr *hdr)
{
	u32 i;
	int err;

	hdr->hd_vers = XR_VERSION;
	hdr->hd_credits = sx->sx_credits;
	hdr->hd_proc = XR_RDMA_MSG;
	hdr->hd_nreads = 0;
	for (i = 0; i < hdr->hd_nwrites; i++) {
		err = xr_chunk_fill(&hdr->hd_segs[hdr->hd_writes[i].wc_first],
				    hdr->hd_writes[i].wc_nsegs, 0);
		if (err)
			return err;
	}
	if (hdr->hd_flags & XR_HDR_REPLY_CHUNK)
		return xr_chunk_fill(&hdr->hd_segs[hdr->hd_reply.wc_first],
				     hdr->hd_reply.wc_nsegs, 0);
	return 0;
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
	struct xdr_buf *res = &rqstp->rq_res;
	struct xr_sendctx *sc;
	int hdr_len, err;

	if (test_bit(XPT_CLOSE, &xprt->xpt_flags) || !rc)
		return -ENOTCONN;
	sc = xr_sendctx_get(&sx->sx_sq);
	if (!sc) {
		xr_svc_close(sx);
		return -ENOMEM;
	}

	err = xr_svc_reply_hdr(sx, &rc->rc_hdr);
	hdr_len = err ? err : xr_hdr_encode(sc->sc_buf, sc->sc_buf_size,
					    &rc->rc_hdr);
	if (hdr_len >= 0 && res->len <= sc->sc_buf_size - hdr_len &&
	    !read_bytes_from_xdr_buf(res, 0, sc->sc_buf + hdr_len, res->len)) {
		err = xr_sendctx_post(sc, hdr_len + res->len);
		if (!err)
			xr_svc_count(sx, XR_SVC_STAT_REPLIES_INLINE, 1);
	} else {
		err = xr_svc_post_error(sx, sc, rc->rc_hdr.hd_xid,
					XR_ERR_CHUNK);
	}
	if (err) {
		xr_sendctx_put(sc);
		xr_svc_close(sx);
		return -ENOTCONN;
	}
	return 0;
}
