// SPDX-License-Identifier: GPL-2.0
/*
 * svc_backchannel.c - NFSv4.1 callbacks on a server connection (RFC 8167):
 * an rpc_xprt class whose "connection" is one nfsd already accepted.
 * nfsd finds it by the server class ident | XPRT_TRANSPORT_BC and passes
 * the svc_xprt as bc_xprt. Backward-direction calls go out inline as
 * RDMA_MSG on the connection's Send path; the client's replies arrive
 * among its calls, and svc_recv.c hands them to xr_svc_bc_reply().
 *
 * Lifetimes. svc holds a reference on the rpc_xprt in xpt_bc_xprt and
 * drops it when it frees the svc_xprt. The rpc_xprt points back at the
 * connection without a reference: xr_svc_bc_detach(), called from xpo_detach
 * before svc can free the connection, clears the pointer under
 * xr_svc_bc_lock, and a sender pins the connection under the same lock. The
 * rpc_xprt may outlive the connection (nfsd's callback client holds it);
 * it keeps the module loaded until its destroy.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sunrpc/addr.h>
#include <linux/sunrpc/clnt.h>
#include <linux/sunrpc/svc_xprt.h>
#include <linux/sunrpc/xprt.h>

#include "core.h"
#include "proto.h"
#include "sendq.h"
#include "stats.h"
#include "svc.h"
#include "trace_msg.h"

/* The smallest RPC reply: xid, direction, reply_stat. */
#define XR_BC_MIN_REPLY		12

/**
 * struct xr_svc_bc_xprt - the backchannel of one server connection
 * @bx_xprt: the RPC transport; first, as xprt_alloc() wants
 * @bx_sx: the connection, or NULL once it was detached
 */
struct xr_svc_bc_xprt {
	struct rpc_xprt		bx_xprt;
	struct xr_svc_xprt	*bx_sx;
};

/* Protects every xr_svc_bc_xprt.bx_sx and the detach of a connection. */
static DEFINE_SPINLOCK(xr_svc_bc_lock);

static const struct rpc_timeout xr_svc_bc_timeout = {
	.to_initval	= 30 * HZ,
	.to_maxval	= 30 * HZ,
	.to_retries	= 2,
};

static inline struct xr_svc_bc_xprt *xr_svc_bc_of(struct rpc_xprt *xprt)
{
	return container_of(xprt, struct xr_svc_bc_xprt, bx_xprt);
}

/* The connection with a reference, or NULL when it is gone or closing. */
static struct xr_svc_xprt *xr_svc_bc_pin(struct xr_svc_bc_xprt *bx)
{
	struct xr_svc_xprt *sx;

	spin_lock(&xr_svc_bc_lock);
	sx = bx->bx_sx;
	if (sx && !test_bit(XPT_CLOSE, &sx->sx_xprt.xpt_flags))
		svc_xprt_get(&sx->sx_xprt);
	else
		sx = NULL;
	spin_unlock(&xr_svc_bc_lock);
	return sx;
}

/*
 * Post one call, inline. Returns 0, -EIO when it cannot go inline (it
 * never will), or -ENOTCONN when the connection cannot carry it.
 */
static int xr_svc_bc_post_call(struct xr_svc_xprt *sx, struct rpc_rqst *rqst)
{
	const struct xdr_buf *snd = &rqst->rq_snd_buf;
	struct xr_sendctx *sc;
	int len, err;

	sc = xr_sendctx_get(&sx->sx_sq);
	if (!sc)
		return -ENOTCONN;
	len = xr_hdr_encode_msg(sc->sc_buf, sc->sc_buf_size, rqst->rq_xid,
				rqst->rq_xprt->max_reqs);
	if (len < 0 || snd->len > sc->sc_buf_size - len ||
	    read_bytes_from_xdr_buf(snd, 0, sc->sc_buf + len, snd->len)) {
		err = -EIO;
		goto out_put;
	}
	rqst->rq_xtime = ktime_get();
	trace_xrpcrdma_bc_call(&sx->sx_ep, rqst->rq_xid, snd->len);
	err = xr_sendctx_post(sc, len + snd->len);
	if (err) {
		err = -ENOTCONN;
		goto out_put;
	}
	xr_svc_count(sx, XR_SVC_STAT_BC_CALLS_SENT, 1);
	return 0;

out_put:
	xr_sendctx_put(sc);
	return err;
}

/*
 * ->send_request: 0 when posted; -EBADSLT while the client's backward
 * credits are all in use (the RPC layer sends again later); -ENOTCONN
 * when the connection is gone or closing; -EIO when the call does not
 * fit inline.
 *
 * Callbacks never reconnect: nfsd probes again on another connection.
 * So on -ENOTCONN the rpc_xprt stops saying it is connected, and the
 * call (nfsd's are RPC_TASK_NOCONNECT) ends with that error, instead of
 * being sent again at once, and again, until svc deletes the connection.
 */
static int xr_svc_bc_send_request(struct rpc_rqst *rqst)
{
	struct rpc_xprt *xprt = rqst->rq_xprt;
	struct xr_svc_xprt *sx;
	int err;

	if (!xprt_request_get_cong(xprt, rqst))
		return -EBADSLT;
	sx = xr_svc_bc_pin(xr_svc_bc_of(xprt));
	if (!sx) {
		err = -ENOTCONN;
		goto out_disconnected;
	}
	err = xr_svc_bc_post_call(sx, rqst);
	if (err == -ENOTCONN)
		xr_svc_close(sx);
	svc_xprt_put(&sx->sx_xprt);
	if (err != -ENOTCONN)
		return err;
out_disconnected:
	xprt_disconnect_done(xprt);
	return err;
}

/* A callback transport cannot connect: only its connection carries it. */
static void xr_svc_bc_connect(struct rpc_xprt *xprt, struct rpc_task *task)
{
	xprt_clear_connecting(xprt);
	xprt_wake_pending_tasks(xprt, -ENOTCONN);
}

static int xr_svc_bc_buf_alloc(struct rpc_task *task)
{
	struct rpc_rqst *rqst = task->tk_rqstp;

	rqst->rq_buffer = kmalloc(rqst->rq_callsize, GFP_NOIO | __GFP_NOWARN);
	if (!rqst->rq_buffer)
		return -ENOMEM;
	rqst->rq_rbuffer = kmalloc(rqst->rq_rcvsize, GFP_NOIO | __GFP_NOWARN);
	if (!rqst->rq_rbuffer) {
		kfree(rqst->rq_buffer);
		rqst->rq_buffer = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void xr_svc_bc_buf_free(struct rpc_task *task)
{
	struct rpc_rqst *rqst = task->tk_rqstp;

	kfree(rqst->rq_buffer);
	kfree(rqst->rq_rbuffer);
}

static void xr_svc_bc_close(struct rpc_xprt *xprt)
{
	xprt_disconnect_done(xprt);
}

static void xr_svc_bc_free_addresses(struct rpc_xprt *xprt)
{
	kfree(xprt->address_strings[RPC_DISPLAY_ADDR]);
	kfree(xprt->address_strings[RPC_DISPLAY_PORT]);
}

static void xr_svc_bc_destroy(struct rpc_xprt *xprt)
{
	xr_svc_bc_free_addresses(xprt);
	xprt_free(xprt);
	module_put(THIS_MODULE);
}

static void xr_svc_bc_print_stats(struct rpc_xprt *xprt, struct seq_file *seq)
{
	seq_printf(seq, "\txprt:\trdma-bc %lu %lu %lu %llu %llu\n",
		   xprt->stat.sends, xprt->stat.recvs, xprt->stat.bad_xids,
		   xprt->stat.req_u, xprt->stat.bklog_u);
}

static const struct rpc_xprt_ops xr_svc_bc_ops = {
	.reserve_xprt		= xprt_reserve_xprt_cong,
	.release_xprt		= xprt_release_xprt_cong,
	.alloc_slot		= xprt_alloc_slot,
	.free_slot		= xprt_free_slot,
	.release_request	= xprt_release_rqst_cong,
	.connect		= xr_svc_bc_connect,
	.buf_alloc		= xr_svc_bc_buf_alloc,
	.buf_free		= xr_svc_bc_buf_free,
	.send_request		= xr_svc_bc_send_request,
	.wait_for_reply_request	= xprt_wait_for_reply_request_def,
	.close			= xr_svc_bc_close,
	.destroy		= xr_svc_bc_destroy,
	.print_stats		= xr_svc_bc_print_stats,
};

static int xr_svc_bc_format_addresses(struct rpc_xprt *xprt)
{
	struct sockaddr *sa = (struct sockaddr *)&xprt->addr;

	xprt->address_strings[RPC_DISPLAY_ADDR] = kasprintf(GFP_KERNEL, "%pISc",
							    sa);
	xprt->address_strings[RPC_DISPLAY_PORT] = kasprintf(GFP_KERNEL, "%u",
							    rpc_get_port(sa));
	xprt->address_strings[RPC_DISPLAY_PROTO] = "rdma";
	xprt->address_strings[RPC_DISPLAY_NETID] =
		sa->sa_family == AF_INET6 ? "rdma6" : "rdma";
	if (!xprt->address_strings[RPC_DISPLAY_ADDR] ||
	    !xprt->address_strings[RPC_DISPLAY_PORT]) {
		xr_svc_bc_free_addresses(xprt);
		return -ENOMEM;
	}
	return 0;
}

/* Tie @bx to its connection, unless that is closing or detached. */
static int xr_svc_bc_attach(struct xr_svc_bc_xprt *bx, struct xr_svc_xprt *sx)
{
	struct svc_xprt *svc = &sx->sx_xprt;
	int err = 0;

	spin_lock(&xr_svc_bc_lock);
	if (test_bit(XPT_CLOSE, &svc->xpt_flags) ||
	    test_bit(XPT_DEAD, &svc->xpt_flags))
		err = -ENOTCONN;
	else if (svc->xpt_bc_xprt)
		err = -EEXIST;
	if (!err) {
		bx->bx_sx = sx;
		bx->bx_xprt.bc_xprt = svc;
		/* svc's reference, dropped when it frees the connection */
		svc->xpt_bc_xprt = xprt_get(&bx->bx_xprt);
	}
	spin_unlock(&xr_svc_bc_lock);
	return err;
}

static struct rpc_xprt *xr_svc_bc_setup(struct xprt_create *args)
{
	struct xr_svc_xprt *sx = xr_svc_of_bc(args->bc_xprt);
	struct rpc_xprt *xprt;
	int err;

	if (!sx)
		return ERR_PTR(-EINVAL);
	if (args->addrlen > sizeof(xprt->addr))
		return ERR_PTR(-EBADF);
	xprt = xprt_alloc(args->net, sizeof(struct xr_svc_bc_xprt),
			  XR_BC_MAX_REQUESTS, XR_BC_MAX_REQUESTS);
	if (!xprt)
		return ERR_PTR(-ENOMEM);

	xprt->timeout = &xr_svc_bc_timeout;
	xprt->bind_timeout = 0;
	xprt->reestablish_timeout = 0;
	xprt->idle_timeout = 0;
	xprt->prot = args->ident;
	xprt->ops = &xr_svc_bc_ops;
	xprt->resvport = 0;
	xprt->max_payload = sx->sx_inline_send - XR_HDR_MIN_SIZE;
	memcpy(&xprt->addr, args->dstaddr, args->addrlen);
	xprt->addrlen = args->addrlen;
	err = xr_svc_bc_format_addresses(xprt);
	if (err)
		goto out_free;
	xprt_set_bound(xprt);
	xprt_set_connected(xprt);

	err = xr_svc_bc_attach(xr_svc_bc_of(xprt), sx);
	if (err)
		goto out_addresses;
	/* Released by xr_svc_bc_destroy(). */
	__module_get(THIS_MODULE);
	return xprt;

out_addresses:
	xr_svc_bc_free_addresses(xprt);
out_free:
	xprt_free(xprt);
	return ERR_PTR(err);
}

/**
 * xr_svc_bc_detach - a server connection is going: its backchannel stops
 * @sx: the connection; svc is detaching it (xpo_detach)
 *
 * Calls sent from now on fail with -ENOTCONN; svc closes the rpc_xprt
 * right after and drops its reference when it frees the connection.
 */
void xr_svc_bc_detach(struct xr_svc_xprt *sx)
{
	struct rpc_xprt *xprt;

	spin_lock(&xr_svc_bc_lock);
	xprt = sx->sx_xprt.xpt_bc_xprt;
	if (xprt)
		xr_svc_bc_of(xprt)->bx_sx = NULL;
	spin_unlock(&xr_svc_bc_lock);
}

/**
 * xr_svc_bc_is_reply - whether a received RPC message is a backward reply
 * @msg: the RPC message, after the transport header
 * @len: its length in bytes
 *
 * Return: true when the message's direction field says REPLY.
 */
bool xr_svc_bc_is_reply(const void *msg, u32 len)
{
	const __be32 *p = msg;

	return len >= 2 * XR_XDR_UNIT && p[1] == cpu_to_be32(RPC_REPLY);
}

/*
 * Let the client's rdma_credit bound the callbacks in flight: each takes
 * a share of cwnd when it is sent (xprt_request_get_cong()).
 */
static void xr_svc_bc_update_cwnd(struct rpc_xprt *xprt, u32 credits)
{
	credits = clamp_t(u32, credits, 1, xprt->max_reqs);
	spin_lock(&xprt->transport_lock);
	xprt->cwnd = credits << RPC_CWNDSHIFT;
	spin_unlock(&xprt->transport_lock);
}

/**
 * xr_svc_bc_reply - complete a callback with the client's reply
 * @sx: the connection the reply arrived on
 * @msg: the RPC reply, after the transport header
 * @len: its length in bytes
 * @credits: the rdma_credit of its transport header
 *
 * Context: an svc thread (xpo_recvfrom).
 *
 * Return: 0 when a waiting call was completed, -ENOENT when no call
 * waits for that XID or the connection has no backchannel, -EMSGSIZE
 * when the reply is too short or larger than the call's reply buffer.
 */
int xr_svc_bc_reply(struct xr_svc_xprt *sx, const void *msg, u32 len, u32 credits)
{
	struct rpc_xprt *xprt = READ_ONCE(sx->sx_xprt.xpt_bc_xprt);
	struct xdr_buf *buf;
	struct rpc_rqst *req;

	if (!xprt)
		return -ENOENT;
	if (len < XR_BC_MIN_REPLY)
		return -EMSGSIZE;
	spin_lock(&xprt->queue_lock);
	req = xprt_lookup_rqst(xprt, *(const __be32 *)msg);
	if (!req) {
		spin_unlock(&xprt->queue_lock);
		return -ENOENT;
	}
	buf = &req->rq_private_buf;
	memcpy(buf, &req->rq_rcv_buf, sizeof(*buf));
	if (len > buf->head[0].iov_len) {
		spin_unlock(&xprt->queue_lock);
		return -EMSGSIZE;
	}
	memcpy(buf->head[0].iov_base, msg, len);
	xprt_pin_rqst(req);
	spin_unlock(&xprt->queue_lock);
	trace_xrpcrdma_bc_reply(&sx->sx_ep, req->rq_xid, len);

	xr_svc_bc_update_cwnd(xprt, credits);

	spin_lock(&xprt->queue_lock);
	xprt_complete_rqst(req->rq_task, len);
	xprt_unpin_rqst(req);
	spin_unlock(&xprt->queue_lock);
	xr_svc_count(sx, XR_SVC_STAT_BC_REPLIES_RECEIVED, 1);
	return 0;
}

static struct xprt_class xr_svc_bc_class = {
	.list		= LIST_HEAD_INIT(xr_svc_bc_class.list),
	.owner		= THIS_MODULE,
	.setup		= xr_svc_bc_setup,
	.netid		= { "" },
};

/**
 * xr_svc_bc_init - register the backchannel class of the server class
 * @svc_ident: the server class's ident (drop-in or side-by-side)
 *
 * Return: 0, or the error of xprt_register_transport() (-EEXIST when a
 * class with that ident is already registered).
 */
int xr_svc_bc_init(int svc_ident)
{
	xr_svc_bc_class.ident = svc_ident | XPRT_TRANSPORT_BC;
	strscpy(xr_svc_bc_class.name,
		svc_ident == XPRT_TRANSPORT_RDMA ? "rdma backchannel" :
						   "xrdma backchannel",
		sizeof(xr_svc_bc_class.name));
	return xprt_register_transport(&xr_svc_bc_class);
}

/**
 * xr_svc_bc_exit - unregister the backchannel class
 *
 * Every callback transport holds the module, so none is left here.
 */
void xr_svc_bc_exit(void)
{
	xprt_unregister_transport(&xr_svc_bc_class);
}
