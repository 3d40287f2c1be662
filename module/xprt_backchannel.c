// SPDX-License-Identifier: GPL-2.0
/*
 * xprt_backchannel.c - NFSv4.1 callbacks on a client connection (RFC
 * 8167): the server's backward-direction calls arrive among the replies on
 * the forward connection, go to the NFS client's callback service, and
 * their replies go back inline on the same connection.
 *
 * Requests. The NFS client asks for a backchannel per session (bc_setup)
 * and lets go of it with the session (bc_destroy). While any session uses
 * the transport it keeps XR_XBC_REQUESTS backchannel requests, each an
 * rpc_rqst with a page for the call and a page for the reply, allocated in
 * bc_setup: nothing is allocated on the receive path. Free requests wait
 * on the transport's bc_pa_list under its bc_pa_lock.
 *
 * That is twice the slots offered to the server: a request comes back
 * only after its reply was posted, when the callback service lets go of
 * it (bc_free_rqst), and by then the server may have had the reply, freed
 * the slot and sent its next call. With as many requests as slots, a
 * server that keeps every slot busy (nfsd since 6.14 does) would find
 * none free for that call.
 *
 * A call is copied out of its Receive buffer into a free request (the
 * Receive is posted again at once), which is queued to the callback
 * service with a reference on the transport. The service decodes and runs
 * it and sends the reply through the transport's send_request
 * (xr_xprt_bc_send_reply()), then gives the request back through bc_free_rqst,
 * which drops that reference. A call that is malformed, longer than a
 * page, finds no free request or no callback service is dropped and
 * counted: the server times out and retries, as after a lost message.
 *
 * Credits. The server keeps XR_BC_MAX_REQUESTS Receives for backward
 * traffic beyond the credits it grants, so a reply never takes a forward
 * credit; this side posts as many extra Receives for calls and keeps as
 * many extra send queue slots for replies (xprt_conn.c), and offers
 * XR_BC_MAX_REQUESTS slots to the server (bc_num_slots, and the credit
 * field of every reply).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gfp.h>
#include <linux/slab.h>
#include <linux/sunrpc/bc_xprt.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/xdr.h>
#include <linux/sunrpc/xprt.h>

#include "core.h"
#include "fault.h"
#include "proto.h"
#include "recvq.h"
#include "sendq.h"
#include "stats.h"
#include "xprt.h"
#include "trace_msg.h"

/*
 * The shortest call worth handing on: xid, direction, RPC version,
 * program, version, procedure, and empty credential and verifier.
 */
#define XR_XBC_MIN_CALL		(10 * XR_XDR_UNIT)

/*
 * Requests kept: a call in each slot offered, and as many more for the
 * calls that arrive while the callback service is done with a reply but
 * has not given its request back yet.
 */
#define XR_XBC_REQUESTS		(2 * XR_BC_MAX_REQUESTS)

/**
 * struct xr_xprt_bc_rqst - one backchannel request of a client transport
 * @br_rqst: what SUNRPC and the callback service see
 * @br_call: the call's page (rq_rcv_buf)
 * @br_reply: the reply's page (rq_snd_buf)
 * @br_cookie: the transport's connect_cookie when the call arrived: the
 *	reply goes out on that connection or not at all
 */
struct xr_xprt_bc_rqst {
	struct rpc_rqst		br_rqst;
	void			*br_call;
	void			*br_reply;
	unsigned int		br_cookie;
};

static struct xr_xprt *xr_xprt_bc_xprt(struct rpc_xprt *xprt)
{
	return container_of(xprt, struct xr_xprt, rx_xprt);
}

static struct xr_xprt_bc_rqst *xr_xprt_bc_of(struct rpc_rqst *rqst)
{
	return container_of(rqst, struct xr_xprt_bc_rqst, br_rqst);
}

static void xr_xprt_bc_free(struct xr_xprt_bc_rqst *br)
{
	free_page((unsigned long)br->br_call);
	free_page((unsigned long)br->br_reply);
	kfree(br);
	xr_obj_put(XR_OBJ_BC_RQST);
}

static struct xr_xprt_bc_rqst *xr_xprt_bc_alloc(struct rpc_xprt *xprt)
{
	struct xr_xprt_bc_rqst *br;

	br = kzalloc(sizeof(*br), GFP_KERNEL);
	if (!br)
		return NULL;
	xr_obj_get(XR_OBJ_BC_RQST);
	br->br_call = (void *)__get_free_page(GFP_KERNEL);
	br->br_reply = (void *)__get_free_page(GFP_KERNEL);
	if (!br->br_call || !br->br_reply) {
		xr_xprt_bc_free(br);
		return NULL;
	}
	br->br_rqst.rq_xprt = xprt;
	INIT_LIST_HEAD(&br->br_rqst.rq_bc_pa_list);
	return br;
}

/**
 * xr_xprt_bc_maxpayload - largest backchannel call or reply (bc_maxpayload)
 * @xprt: the client transport
 *
 * What the NFS client offers the server in CREATE_SESSION for its
 * backchannel, both ways. Context: may be called under rcu_read_lock().
 *
 * Return: bytes of RPC message: what fits inline after the transport
 * header (a call arrives in one of our Receive buffers, a reply leaves
 * inline, as large as we send and the server receives on the last
 * connection), and in the page the callback service encodes a reply
 * into.
 */
size_t xr_xprt_bc_maxpayload(struct rpc_xprt *xprt)
{
	struct xr_xprt *rx = xr_xprt_bc_xprt(xprt);
	const u32 *cfg = rx->rx_config.cf_val;
	u32 max = min3(xr_cm_size_carried(cfg[XR_CFG_INLINE_SEND]),
		       cfg[XR_CFG_INLINE_RECV], (u32)PAGE_SIZE);
	u32 conn = READ_ONCE(rx->rx_bc_inline);

	if (conn)
		max = min(max, conn);
	return max - XR_HDR_MIN_SIZE;
}

/**
 * xr_xprt_bc_num_slots - backchannel calls the server may have outstanding
 * @xprt: the client transport
 *
 * Return: XR_BC_MAX_REQUESTS (bc_num_slots).
 */
unsigned int xr_xprt_bc_num_slots(struct rpc_xprt *xprt)
{
	return XR_BC_MAX_REQUESTS;
}

/**
 * xr_xprt_bc_setup - a session uses the transport's backchannel (bc_setup)
 * @xprt: the client transport
 * @reqs: calls the session expects at once; the transport keeps
 *	XR_XBC_REQUESTS whatever is asked
 *
 * Context: process; allocates.
 *
 * Return: 0, or -ENOMEM when the requests could not all be allocated
 * (the session is then not counted as a user).
 */
int xr_xprt_bc_setup(struct rpc_xprt *xprt, unsigned int reqs)
{
	struct xr_xprt *rx = xr_xprt_bc_xprt(xprt);
	struct xr_xprt_bc_rqst *br;
	LIST_HEAD(fresh);
	u32 need, made;

	spin_lock_bh(&xprt->bc_pa_lock);
	rx->rx_bc_users++;
	rx->rx_bc_want = XR_XBC_REQUESTS;
	need = rx->rx_bc_want > rx->rx_bc_allocated ?
		rx->rx_bc_want - rx->rx_bc_allocated : 0;
	rx->rx_bc_allocated += need;
	spin_unlock_bh(&xprt->bc_pa_lock);

	for (made = 0; made < need; made++) {
		br = xr_xprt_bc_alloc(xprt);
		if (!br)
			break;
		list_add(&br->br_rqst.rq_bc_pa_list, &fresh);
	}

	spin_lock_bh(&xprt->bc_pa_lock);
	list_splice(&fresh, &xprt->bc_pa_list);
	rx->rx_bc_allocated -= need - made;
	if (made < need)
		rx->rx_bc_users--;
	spin_unlock_bh(&xprt->bc_pa_lock);
	return made < need ? -ENOMEM : 0;
}

/* With bc_pa_lock: move free requests the transport no longer keeps. */
static void xr_xprt_bc_trim(struct xr_xprt *rx, struct list_head *out)
{
	struct rpc_xprt *xprt = &rx->rx_xprt;
	struct rpc_rqst *rqst;

	while (rx->rx_bc_allocated > rx->rx_bc_want) {
		rqst = list_first_entry_or_null(&xprt->bc_pa_list,
						struct rpc_rqst, rq_bc_pa_list);
		if (!rqst)
			break;
		list_move(&rqst->rq_bc_pa_list, out);
		rx->rx_bc_allocated--;
	}
}

/**
 * xr_xprt_bc_destroy - a session lets go of the backchannel (bc_destroy)
 * @xprt: the client transport
 * @reqs: what the session asked for; UINT_MAX when the transport goes
 *
 * With the last user gone the free requests are freed; those the callback
 * service still holds are freed when it gives them back.
 */
void xr_xprt_bc_destroy(struct rpc_xprt *xprt, unsigned int reqs)
{
	struct xr_xprt *rx = xr_xprt_bc_xprt(xprt);
	struct rpc_rqst *rqst, *next;
	LIST_HEAD(gone);

	spin_lock_bh(&xprt->bc_pa_lock);
	if (reqs == UINT_MAX || rx->rx_bc_users <= 1)
		rx->rx_bc_users = 0;
	else
		rx->rx_bc_users--;
	if (!rx->rx_bc_users)
		rx->rx_bc_want = 0;
	xr_xprt_bc_trim(rx, &gone);
	spin_unlock_bh(&xprt->bc_pa_lock);

	list_for_each_entry_safe(rqst, next, &gone, rq_bc_pa_list) {
		list_del(&rqst->rq_bc_pa_list);
		xr_xprt_bc_free(xr_xprt_bc_of(rqst));
	}
}

/**
 * xr_xprt_bc_free_rqst - the callback service is done with a request
 *	(bc_free_rqst)
 * @rqst: a backchannel request of this transport
 *
 * Puts the request back on the free list, or frees it when the transport
 * no longer keeps that many, and drops the reference taken when it was
 * queued to the callback service (possibly the last one).
 *
 * Context: the callback service's thread; the bc-release-delay fault
 * point sleeps here first.
 */
void xr_xprt_bc_free_rqst(struct rpc_rqst *rqst)
{
	struct rpc_xprt *xprt = rqst->rq_xprt;
	struct xr_xprt *rx = xr_xprt_bc_xprt(xprt);
	bool keep;

	xr_fault_delay_id(XRPCRDMA_FAULT_POINT_BC_RELEASE_DELAY, rx->rx_id);
	clear_bit(RPC_BC_PA_IN_USE, &rqst->rq_bc_pa_state);
	spin_lock_bh(&xprt->bc_pa_lock);
	keep = rx->rx_bc_allocated <= rx->rx_bc_want;
	if (keep)
		list_add_tail(&rqst->rq_bc_pa_list, &xprt->bc_pa_list);
	else
		rx->rx_bc_allocated--;
	spin_unlock_bh(&xprt->bc_pa_lock);
	if (!keep)
		xr_xprt_bc_free(xr_xprt_bc_of(rqst));
	xprt_put(xprt);
}

/**
 * xr_xprt_bc_is_call - whether a received message is a backward-direction call
 * @rc: the Receive, its transport header decoded
 *
 * Return: true for an RDMA_MSG whose RPC message says CALL; forward
 * replies say REPLY.
 */
bool xr_xprt_bc_is_call(const struct xr_recvctx *rc)
{
	const struct xr_hdr *hdr = &rc->rctx_hdr;
	const __be32 *p = rc->rctx_buf + hdr->hd_hdr_len;

	if (hdr->hd_proc != XR_RDMA_MSG ||
	    rc->rctx_byte_len < hdr->hd_hdr_len + 2 * XR_XDR_UNIT)
		return false;
	return p[1] == cpu_to_be32(RPC_CALL);
}

/* With bc_pa_lock: a free request, or NULL (the server sent too many). */
static struct xr_xprt_bc_rqst *xr_xprt_bc_get_locked(struct rpc_xprt *xprt)
{
	struct rpc_rqst *rqst;

	rqst = list_first_entry_or_null(&xprt->bc_pa_list, struct rpc_rqst,
					rq_bc_pa_list);
	if (!rqst)
		return NULL;
	list_del_init(&rqst->rq_bc_pa_list);
	return xr_xprt_bc_of(rqst);
}

/* Only a plain inline call is accepted: no chunks, a sane length. */
static int xr_xprt_bc_check_call(const struct xr_hdr *hdr, u32 len)
{
	if (hdr->hd_nreads || hdr->hd_nwrites ||
	    (hdr->hd_flags & XR_HDR_REPLY_CHUNK))
		return -EBADMSG;
	if (len < XR_XBC_MIN_CALL)
		return -EBADMSG;
	if (len > PAGE_SIZE)
		return -EMSGSIZE;
	return 0;
}

/* Make @br carry the call @msg of @len bytes, ready for the service. */
static void xr_xprt_bc_fill(struct xr_xprt_bc_rqst *br, const void *msg, u32 len)
{
	struct rpc_rqst *rqst = &br->br_rqst;
	struct xdr_buf *call = &rqst->rq_rcv_buf;

	memcpy(br->br_call, msg, len);
	rqst->rq_xid = *(const __be32 *)msg;
	rqst->rq_reply_bytes_recvd = 0;
	memset(call, 0, sizeof(*call));
	call->head[0].iov_base = br->br_call;
	call->head[0].iov_len = len;
	call->buflen = PAGE_SIZE;
	call->len = len;
	/* The service takes the call's length from here. */
	rqst->rq_private_buf = *call;
	xdr_buf_init(&rqst->rq_snd_buf, br->br_reply, PAGE_SIZE);
	br->br_cookie = rqst->rq_xprt->connect_cookie;
}

/*
 * Queue the call @msg of @len bytes to the callback service. Under
 * bc_pa_lock, so that once the last session let go of the backchannel
 * (xr_xprt_bc_destroy(), before the NFS client stops its callback service)
 * nothing is queued any more. Returns 0, -ESRCH when no session or no
 * callback service uses the transport, -ENOBUFS when every request is in
 * use.
 */
static int xr_xprt_bc_queue(struct xr_xprt *rx, const void *msg, u32 len)
{
	struct rpc_xprt *xprt = &rx->rx_xprt;
	struct svc_serv *serv;
	struct xr_xprt_bc_rqst *br;
	int err = -ESRCH;

	spin_lock_bh(&xprt->bc_pa_lock);
	serv = READ_ONCE(xprt->bc_serv);
	if (!serv || !rx->rx_bc_users)
		goto out;
	err = -ENOBUFS;
	br = xr_xprt_bc_get_locked(xprt);
	if (!br)
		goto out;
	/*
	 * Dropped by xr_xprt_bc_free_rqst(). None is left once the transport
	 * is being destroyed (a session may still hold the backchannel of a
	 * transport its client switched away from): nobody is to process
	 * the call then.
	 */
	if (!xprt_get(xprt)) {
		list_add(&br->br_rqst.rq_bc_pa_list, &xprt->bc_pa_list);
		err = -ESRCH;
		goto out;
	}
	err = 0;
	xr_xprt_bc_fill(br, msg, len);
	set_bit(RPC_BC_PA_IN_USE, &br->br_rqst.rq_bc_pa_state);
	/* The service counts it down when it has processed it. */
	atomic_inc(&xprt->bc_slot_count);
	xr_compat_bc_queue(serv, &br->br_rqst);
out:
	spin_unlock_bh(&xprt->bc_pa_lock);
	return err;
}

/**
 * xr_xprt_bc_receive_call - hand a backward-direction call to the callback
 *	service
 * @c: the connection it arrived on
 * @rc: the Receive, for which xr_xprt_bc_is_call() is true; the caller posts
 *	it again afterwards, as the call is copied
 *
 * Context: the connection's reply worker.
 */
void xr_xprt_bc_receive_call(struct xr_xconn *c, struct xr_recvctx *rc)
{
	struct xr_xprt *rx = c->xc_xprt;
	const struct xr_hdr *hdr = &rc->rctx_hdr;
	u32 len = rc->rctx_byte_len - hdr->hd_hdr_len;
	int err;

	trace_xrpcrdma_cb_call(&c->xc_ep, hdr->hd_xid, len);
	err = xr_xprt_bc_check_call(hdr, len);
	if (!err)
		err = xr_xprt_bc_queue(rx, rc->rctx_buf + hdr->hd_hdr_len, len);
	if (!err) {
		xr_xprt_count(rx, XR_XPRT_STAT_BC_CALLS_RECEIVED, 1);
		return;
	}
	xr_xprt_count(rx, XR_XPRT_STAT_BC_CALLS_DROPPED, 1);
	pr_warn_ratelimited("backchannel call (xid %08x) dropped: %d\n",
			    be32_to_cpu(hdr->hd_xid), err);
}

/**
 * xr_xprt_bc_send_reply - send the callback service's reply to a backchannel
 *	call, inline
 * @rx: the transport; the caller holds its write lock
 * @c: its connected connection
 * @rqst: a backchannel request with the reply in rq_snd_buf
 *
 * Takes no forward credit: the server keeps Receives for these replies.
 *
 * Return values:
 *   %0: posted
 *   %-ECONNRESET: the call came on an earlier connection: nobody waits
 *	for the reply any more (dropped)
 *   %-ENOBUFS: no send context now: call again later
 *   %-ENOTCONN: the connection is going away
 *   %-EIO: the reply does not fit inline (dropped)
 */
int xr_xprt_bc_send_reply(struct xr_xprt *rx, struct xr_xconn *c,
			  struct rpc_rqst *rqst)
{
	const struct xdr_buf *snd = &rqst->rq_snd_buf;
	struct xr_sendctx *sc;
	int hlen;

	if (xr_xprt_bc_of(rqst)->br_cookie != rx->rx_xprt.connect_cookie)
		return -ECONNRESET;
	sc = xr_sendctx_get(&c->xc_sq);
	if (!sc && test_bit(XR_XC_DOWN, &c->xc_flags))
		return -ENOTCONN;
	if (!sc) {
		xr_xprt_count(rx, XR_XPRT_STAT_EMPTY_SENDCTX, 1);
		return -ENOBUFS;
	}
	hlen = xr_hdr_encode_msg(sc->sc_buf, sc->sc_buf_size, rqst->rq_xid,
				 XR_BC_MAX_REQUESTS);
	if (hlen < 0 || snd->len > sc->sc_buf_size - hlen ||
	    read_bytes_from_xdr_buf(snd, 0, sc->sc_buf + hlen, snd->len)) {
		xr_sendctx_put(sc);
		xr_xprt_count(rx, XR_XPRT_STAT_FAILED_MARSHAL, 1);
		return -EIO;
	}
	trace_xrpcrdma_cb_reply(&c->xc_ep, rqst->rq_xid, snd->len);
	if (xr_sendctx_post(sc, hlen + snd->len)) {
		xr_sendctx_put(sc);
		return -ENOTCONN;
	}
	xr_xprt_count(rx, XR_XPRT_STAT_BC_REPLIES_SENT, 1);
	return 0;
}
