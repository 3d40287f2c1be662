// SPDX-License-Identifier: GPL-2.0
/*
 * bench_rdma_cm.c - the connections of the RDMA benchmark (bench_rdma.c):
 * its listener on a local address of the device, and for each queue pair
 * the initiator's id resolved to it, the target's id from the connect
 * request (recognised by a cookie in the private data; any other request
 * is refused), their completion queues and queue pairs, sized by the
 * device's limits. Every step waits for its rdma_cm event, bounded, and
 * the device's removal ends the wait with -ENODEV.
 */
#include <linux/jiffies.h>

#include "bench_rdma.h"

/* ---- rdma_cm events ---- */

/* A connect request on the listener: ours, and the one awaited, or none. */
static int xr_rb_connect_request(struct xr_rb *rb, struct rdma_cm_id *id,
				 const struct rdma_conn_param *cp)
{
	struct xr_rb_qp *q;

	if (cp->private_data_len < XR_RB_COOKIE_LEN ||
	    memcmp(cp->private_data, rb->rb_cookie, XR_RB_COOKIE_LEN))
		return -ECONNREFUSED;
	spin_lock(&rb->rb_lock);
	q = rb->rb_expect;
	rb->rb_expect = NULL;
	if (q) {
		id->context = &q->q_tgt;
		q->q_tgt.re_id = id;
		/* The rdma_cm gives them from this (the target's) side. */
		q->q_rd_resp = cp->responder_resources;
		q->q_rd_init = cp->initiator_depth;
	}
	spin_unlock(&rb->rb_lock);
	/* Not awaited: the rdma_cm rejects it and destroys the id. */
	if (!q)
		return -ECONNREFUSED;
	q->q_tgt.re_event = RDMA_CM_EVENT_CONNECT_REQUEST;
	q->q_tgt.re_status = 0;
	complete(&q->q_tgt.re_done);
	wake_up(&rb->rb_wq);
	return 0;
}

static int xr_rb_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	struct xr_rb_end *end = id->context;
	struct xr_rb *rb = end->re_rb;

	if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST)
		return xr_rb_connect_request(rb, id, &ev->param.conn);
	if (ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL)
		WRITE_ONCE(rb->rb_removed, true);
	end->re_event = ev->event;
	end->re_status = ev->status;
	complete(&end->re_done);
	wake_up(&rb->rb_wq);
	return 0;
}

static int xr_rb_event_errno(const struct xr_rb_end *end)
{
	switch (end->re_event) {
	case RDMA_CM_EVENT_REJECTED:
		return -ECONNREFUSED;
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
		return end->re_status < 0 ? end->re_status : -EHOSTUNREACH;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		return -ENODEV;
	default:
		return -ECONNABORTED;
	}
}

/* Waits for @end's next event, which must be @event. */
static int xr_rb_wait(struct xr_rb *rb, struct xr_rb_end *end, int event)
{
	if (!wait_event_timeout(rb->rb_wq, completion_done(&end->re_done) ||
				READ_ONCE(rb->rb_removed), XR_RB_WAIT))
		return -ETIMEDOUT;
	if (READ_ONCE(rb->rb_removed) || !try_wait_for_completion(&end->re_done))
		return -ENODEV;
	return end->re_event == event ? 0 : xr_rb_event_errno(end);
}

/**
 * xr_rb_end_init - prepare one rdma_cm id's event record
 * @rb: the benchmark
 * @end: the record, zeroed
 */
void xr_rb_end_init(struct xr_rb *rb, struct xr_rb_end *end)
{
	end->re_rb = rb;
	init_completion(&end->re_done);
}

static struct rdma_cm_id *xr_rb_create_id(struct net *net,
					  struct xr_rb_end *end)
{
	return rdma_create_id(net, xr_rb_cm_handler, end, RDMA_PS_TCP,
			      IB_QPT_RC);
}

/**
 * xr_rb_listen - listen on the asked address and port
 * @rb: the benchmark; its listener's id goes to rb_listen
 * @net: the namespace of the id
 *
 * The port it got goes to bench.c (xr_bench_set_port()).
 *
 * Return: 0; -ENODEV when the address is no RDMA device's; another
 * errno from rdma_cm.
 */
int xr_rb_listen(struct xr_rb *rb, struct net *net)
{
	struct rdma_cm_id *id;
	struct sockaddr *sa;
	int err;

	id = xr_rb_create_id(net, &rb->rb_listen);
	if (IS_ERR(id))
		return PTR_ERR(id);
	rb->rb_listen.re_id = id;
	err = rdma_bind_addr(id, (struct sockaddr *)&rb->rb_params->addr);
	if (err)
		return err;
	if (!id->device)
		return -ENODEV;
	err = rdma_listen(id, XRPCRDMA_BENCH_MAX_QPS);
	if (err)
		return err;
	sa = (struct sockaddr *)&id->route.addr.src_addr;
	xr_bench_set_port(rb->rb_bench, sa->sa_family == AF_INET6 ?
			  ntohs(((struct sockaddr_in6 *)sa)->sin6_port) :
			  ntohs(((struct sockaddr_in *)sa)->sin_port));
	return 0;
}

/* ---- connections ---- */

static struct ib_qp_init_attr xr_rb_qp_attr(struct xr_rb_qp *q,
					    struct ib_cq *cq, u32 send_wr,
					    u32 sges, u32 port)
{
	struct ib_qp_init_attr attr = {
		.qp_context	= q,
		.send_cq	= cq,
		.recv_cq	= cq,
		.cap = {
			.max_send_wr	= send_wr,
			.max_recv_wr	= 1,
			.max_send_sge	= sges,
			.max_recv_sge	= 1,
		},
		.sq_sig_type	= IB_SIGNAL_REQ_WR,
		.qp_type	= IB_QPT_RC,
		.port_num	= port,
	};

	return attr;
}

/* The device's limits for what was asked; the first connection takes it. */
static int xr_rb_device(struct xr_rb *rb, struct ib_device *dev, u32 port)
{
	const struct xr_bench_params *p = rb->rb_params;
	const struct ib_device_attr *a = &dev->attrs;
	u32 npages = DIV_ROUND_UP(p->size, PAGE_SIZE), nwrs;

	if (rb->rb_pd)
		return rb->rb_pd->device == dev ? 0 : -EXDEV;
	/* On iWARP the sink of an RDMA Read must be a registered region. */
	if (!rb->rb_write && rdma_protocol_iwarp(dev, port))
		return -EOPNOTSUPP;
	rb->rb_sges = min_t(u32, a->max_send_sge, XR_RB_MAX_SGE);
	if (!rb->rb_write)
		rb->rb_sges = min_t(u32, rb->rb_sges, a->max_sge_rd);
	if (!rb->rb_sges)
		return -EOPNOTSUPP;
	nwrs = DIV_ROUND_UP(npages, rb->rb_sges);
	/* One region per buffer; every message in flight, and a drain. */
	if (npages > a->max_fast_reg_page_list_len || p->size > a->max_mr_size ||
	    nwrs * p->concurrency + 1 > a->max_qp_wr ||
	    nwrs * p->concurrency + 2 > a->max_cqe)
		return -EMSGSIZE;
	rb->rb_pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(rb->rb_pd)) {
		int err = PTR_ERR(rb->rb_pd);

		rb->rb_pd = NULL;
		return err;
	}
	return 0;
}

/**
 * xr_rb_initiator - the initiator's id, resolved to the listener, with
 *	its completion queue and queue pair
 * @rb: the benchmark, listening
 * @q: the connection; the first also takes the device's limits and the PD
 * @net: the namespace of the id
 *
 * Return: 0; -EMSGSIZE when the device cannot register or post the
 * messages asked for; -ETIMEDOUT, -ENODEV or another errno from rdma_cm
 * or the verbs.
 */
int xr_rb_initiator(struct xr_rb *rb, struct xr_rb_qp *q, struct net *net)
{
	struct sockaddr *dst = (struct sockaddr *)&rb->rb_listen.re_id->route.addr.src_addr;
	u32 npages = DIV_ROUND_UP(rb->rb_params->size, PAGE_SIZE);
	struct ib_qp_init_attr attr;
	struct rdma_cm_id *id;
	u32 depth;
	int err;

	id = xr_rb_create_id(net, &q->q_init);
	if (IS_ERR(id))
		return PTR_ERR(id);
	q->q_init.re_id = id;
	err = rdma_resolve_addr(id, NULL, dst, XR_RB_CM_TIMEOUT_MS);
	if (!err)
		err = xr_rb_wait(rb, &q->q_init, RDMA_CM_EVENT_ADDR_RESOLVED);
	if (!err) {
		reinit_completion(&q->q_init.re_done);
		err = rdma_resolve_route(id, XR_RB_CM_TIMEOUT_MS);
	}
	if (!err)
		err = xr_rb_wait(rb, &q->q_init, RDMA_CM_EVENT_ROUTE_RESOLVED);
	if (!err)
		err = xr_rb_device(rb, id->device, id->port_num);
	if (err)
		return err;

	depth = DIV_ROUND_UP(npages, rb->rb_sges) * rb->rb_params->concurrency + 1;
	q->q_init_cq = ib_alloc_cq_any(id->device, q, depth + 1,
				       IB_POLL_WORKQUEUE);
	if (IS_ERR(q->q_init_cq)) {
		err = PTR_ERR(q->q_init_cq);
		q->q_init_cq = NULL;
		return err;
	}
	attr = xr_rb_qp_attr(q, q->q_init_cq, depth, rb->rb_sges, id->port_num);
	return rdma_create_qp(id, rb->rb_pd, &attr);
}

/* Accepts the target end of @q, whose connect request came. */
static int xr_rb_accept(struct xr_rb *rb, struct xr_rb_qp *q)
{
	struct rdma_cm_id *id = q->q_tgt.re_id;
	const struct ib_device_attr *a = &id->device->attrs;
	struct rdma_conn_param param = {
		.responder_resources = min_t(u32, q->q_rd_resp, a->max_qp_rd_atom),
		.initiator_depth = min_t(u32, q->q_rd_init, a->max_qp_init_rd_atom),
	};
	struct ib_qp_init_attr attr;
	int err;

	if (id->device != rb->rb_pd->device)
		return -EXDEV;
	/* The registration, and a drain. */
	q->q_tgt_cq = ib_alloc_cq_any(id->device, q, 4, IB_POLL_WORKQUEUE);
	if (IS_ERR(q->q_tgt_cq)) {
		err = PTR_ERR(q->q_tgt_cq);
		q->q_tgt_cq = NULL;
		return err;
	}
	attr = xr_rb_qp_attr(q, q->q_tgt_cq, 2, 1, id->port_num);
	err = rdma_create_qp(id, rb->rb_pd, &attr);
	if (err)
		return err;
	reinit_completion(&q->q_tgt.re_done);
	/* Outside the handler, the rdma_cm wants its lock held to accept. */
	rdma_lock_handler(id);
	err = rdma_accept(id, &param);
	rdma_unlock_handler(id);
	return err;
}

/**
 * xr_rb_connect - connect @q's initiator to the listener and accept it
 *	at the target
 * @rb: the benchmark
 * @q: the connection, its initiator set up (xr_rb_initiator())
 *
 * Return: 0 once both ends are established; -ETIMEDOUT, -ENODEV,
 * -ECONNREFUSED or another errno from rdma_cm.
 */
int xr_rb_connect(struct xr_rb *rb, struct xr_rb_qp *q)
{
	const struct ib_device_attr *a = &q->q_init.re_id->device->attrs;
	struct rdma_conn_param param = {
		.private_data		= rb->rb_cookie,
		.private_data_len	= XR_RB_COOKIE_LEN,
		.responder_resources	= min_t(u32, a->max_qp_rd_atom,
						XR_RB_RD_ATOM),
		.initiator_depth	= min_t(u32, a->max_qp_init_rd_atom,
						XR_RB_RD_ATOM),
		.retry_count		= 7,
		.rnr_retry_count	= 7,
	};
	int err;

	spin_lock(&rb->rb_lock);
	rb->rb_expect = q;
	spin_unlock(&rb->rb_lock);
	reinit_completion(&q->q_init.re_done);
	err = rdma_connect(q->q_init.re_id, &param);
	if (!err)
		err = xr_rb_wait(rb, &q->q_tgt, RDMA_CM_EVENT_CONNECT_REQUEST);
	spin_lock(&rb->rb_lock);
	rb->rb_expect = NULL;
	spin_unlock(&rb->rb_lock);
	if (!err)
		err = xr_rb_accept(rb, q);
	if (!err)
		err = xr_rb_wait(rb, &q->q_init, RDMA_CM_EVENT_ESTABLISHED);
	if (!err)
		err = xr_rb_wait(rb, &q->q_tgt, RDMA_CM_EVENT_ESTABLISHED);
	q->q_connected = !err;
	return err;
}
