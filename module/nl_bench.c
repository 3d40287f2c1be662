// SPDX-License-Identifier: GPL-2.0
/*
 * nl_bench.c - the benchmark objects of the xrpcrdma family: bench-run,
 * bench-get and the benchmark events. bench.c runs them and hands out
 * copies of their state (struct xr_bench_result).
 */
#include <linux/sunrpc/addr.h>

#include "nl.h"

#define XR_BENCH_DEFAULT_PROGRAM	100003	/* NFS */
#define XR_BENCH_DEFAULT_VERSION	3
#define XR_BENCH_DEFAULT_COUNT		10000

/* The server's address: exactly one of addr4 and addr6, and a port. */
static int xr_nl_bench_addr(struct genl_info *info, struct xr_bench_params *p)
{
	struct nlattr *a4 = info->attrs[XRPCRDMA_A_BENCH_ADDR4];
	struct nlattr *a6 = info->attrs[XRPCRDMA_A_BENCH_ADDR6];
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&p->addr;
	struct sockaddr_in *sin = (struct sockaddr_in *)&p->addr;
	u16 port;

	if (!!a4 == !!a6) {
		NL_SET_ERR_MSG(info->extack,
			       "give the server's address as addr4 or addr6, one of them");
		return -EINVAL;
	}
	if (p->op != XRPCRDMA_BENCH_OP_RPC_NULL)
		port = 0;	/* the benchmark's own listener: any free port */
	else if (p->transport == XRPCRDMA_BENCH_TRANSPORT_RDMA)
		port = 20049;
	else
		port = 2049;
	if (info->attrs[XRPCRDMA_A_BENCH_PORT])
		port = nla_get_u16(info->attrs[XRPCRDMA_A_BENCH_PORT]);
	if (!port && p->op == XRPCRDMA_BENCH_OP_RPC_NULL) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[XRPCRDMA_A_BENCH_PORT],
				    "port 0 is not a server's port");
		return -EINVAL;
	}
	memset(&p->addr, 0, sizeof(p->addr));
	if (a4) {
		sin->sin_family = AF_INET;
		sin->sin_addr.s_addr = nla_get_in_addr(a4);
		sin->sin_port = htons(port);
		p->addrlen = sizeof(*sin);
	} else {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = nla_get_in6_addr(a6);
		sin6->sin6_port = htons(port);
		p->addrlen = sizeof(*sin6);
	}
	return 0;
}

static int xr_nl_fill_bench_id(struct sk_buff *msg, struct genl_info *info,
			       void *arg)
{
	return nla_put_u32(msg, XRPCRDMA_A_BENCH_ID, *(u32 *)arg);
}

/* The attributes of one op only, given with the other: which, or 0. */
static int xr_nl_bench_misplaced(struct genl_info *info, u32 op)
{
	static const int rpc_only[] = { XRPCRDMA_A_BENCH_TRANSPORT,
					XRPCRDMA_A_BENCH_PROGRAM,
					XRPCRDMA_A_BENCH_VERSION,
					XRPCRDMA_A_BENCH_REPLY_SIZE };
	static const int rdma_only[] = { XRPCRDMA_A_BENCH_SIZE,
					 XRPCRDMA_A_BENCH_QPS };
	bool rpc = op == XRPCRDMA_BENCH_OP_RPC_NULL;
	const int *types = rpc ? rdma_only : rpc_only;
	size_t i, n = rpc ? ARRAY_SIZE(rdma_only) : ARRAY_SIZE(rpc_only);

	for (i = 0; i < n; i++)
		if (info->attrs[types[i]])
			return types[i];
	return 0;
}

/* op, and the attributes that apply to it; defaults for the others. */
static int xr_nl_bench_op(struct genl_info *info, struct xr_bench_params *p)
{
	int misplaced;

	p->op = xr_nl_u32_or(info, XRPCRDMA_A_BENCH_OP,
			     XRPCRDMA_BENCH_OP_RPC_NULL);
	if (p->op > XRPCRDMA_BENCH_OP_RDMA_READ) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[XRPCRDMA_A_BENCH_OP],
				    "unknown op: rpc-null (0), rdma-write (1) or rdma-read (2)");
		return -EINVAL;
	}
	misplaced = xr_nl_bench_misplaced(info, p->op);
	if (misplaced && p->op == XRPCRDMA_BENCH_OP_RPC_NULL)
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[misplaced],
				    "size and qps apply to rdma-write and rdma-read only");
	else if (misplaced)
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[misplaced],
				    "transport, program, version and reply-size apply to rpc-null only");
	if (misplaced)
		return -EINVAL;
	if (p->op == XRPCRDMA_BENCH_OP_RPC_NULL) {
		p->reply_size = xr_nl_u32_or(info, XRPCRDMA_A_BENCH_REPLY_SIZE, 0);
		/* As for size: Linux 6.1 has no policy form for this range. */
		if (p->reply_size > XRPCRDMA_BENCH_MAX_REPLY_SIZE) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    info->attrs[XRPCRDMA_A_BENCH_REPLY_SIZE],
					    "reply-size: 0 to 64 KiB");
			return -ERANGE;
		}
		return 0;
	}
	p->transport = XRPCRDMA_BENCH_TRANSPORT_RDMA;
	p->size = xr_nl_u32_or(info, XRPCRDMA_A_BENCH_SIZE, SZ_1M);
	p->qps = xr_nl_u32_or(info, XRPCRDMA_A_BENCH_QPS, 1);
	/* A policy range this wide needs a form Linux 6.1 lacks: here. */
	if (!p->size || p->size > XRPCRDMA_BENCH_MAX_SIZE) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[XRPCRDMA_A_BENCH_SIZE],
				    "size: 1 byte to 4 MiB");
		return -ERANGE;
	}
	/* The policy checks this; the module relies on it, so again. */
	if (!p->qps || p->qps > XRPCRDMA_BENCH_MAX_QPS)
		return -EINVAL;
	return 0;
}

/**
 * xrpcrdma_nl_bench_run_doit - start a kernel-side benchmark
 * @skb: the request
 * @info: the request's attributes and extended ack
 *
 * Requires CAP_NET_ADMIN. The policy bounds version, count,
 * concurrency, size and qps; the op, the transport, the address, the
 * port, reply-size and which attributes go with the op are checked here.
 *
 * Return values:
 *   %0: started; the reply carries its id
 *   %-EINVAL: no address, both addresses, port 0 for NULL calls, unknown
 *	transport or op, an attribute given with an op it does not apply to
 *   %-ERANGE: count, size or reply-size out of range
 *   %-EBUSY: another benchmark runs
 *   %-ENOMEM: no memory for it
 */
int xrpcrdma_nl_bench_run_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct xr_bench_params p = {};
	u32 id;
	int err;

	err = xr_nl_bench_op(info, &p);
	if (err)
		return err;
	if (p.op == XRPCRDMA_BENCH_OP_RPC_NULL)
		p.transport = xr_nl_u32_or(info, XRPCRDMA_A_BENCH_TRANSPORT,
					   XRPCRDMA_BENCH_TRANSPORT_TCP);
	if (p.transport > XRPCRDMA_BENCH_TRANSPORT_RDMA) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[XRPCRDMA_A_BENCH_TRANSPORT],
				    "unknown transport: tcp (0) or rdma (1)");
		return -EINVAL;
	}
	err = xr_nl_bench_addr(info, &p);
	if (err)
		return err;
	p.program = xr_nl_u32_or(info, XRPCRDMA_A_BENCH_PROGRAM,
				 XR_BENCH_DEFAULT_PROGRAM);
	p.version = xr_nl_u32_or(info, XRPCRDMA_A_BENCH_VERSION,
				 XR_BENCH_DEFAULT_VERSION);
	p.count = xr_nl_u32_or(info, XRPCRDMA_A_BENCH_COUNT,
			       XR_BENCH_DEFAULT_COUNT);
	p.concurrency = xr_nl_u32_or(info, XRPCRDMA_A_BENCH_CONCURRENCY, 1);
	if (!p.count || p.count > XRPCRDMA_BENCH_MAX_COUNT) {
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[XRPCRDMA_A_BENCH_COUNT],
				    "count: 1 to 1000000 calls or messages");
		return -ERANGE;
	}
	/* The policy checks these; the module relies on them, so again. */
	if (!p.version || p.version > XR_BENCH_MAX_VERSION ||
	    !p.concurrency || p.concurrency > XRPCRDMA_BENCH_MAX_INFLIGHT)
		return -EINVAL;

	err = xr_bench_start(genl_info_net(info), &p, &id);
	if (err == -EBUSY)
		NL_SET_ERR_MSG(info->extack, "a benchmark is running already");
	if (err)
		return err;
	return xr_nl_reply(info, XRPCRDMA_CMD_BENCH_RUN, xr_nl_fill_bench_id,
			   &id);
}

static int xr_nl_fill_bench(struct sk_buff *msg,
			    const struct xr_bench_result *r)
{
	const struct xr_bench_params *p = &r->params;

	if (nla_put_u32(msg, XRPCRDMA_A_BENCH_ID, r->id) ||
	    nla_put_u32(msg, XRPCRDMA_A_BENCH_TRANSPORT, p->transport) ||
	    xr_nl_put_addr(msg, &p->addr, XRPCRDMA_A_BENCH_ADDR4,
			   XRPCRDMA_A_BENCH_ADDR6) ||
	    nla_put_u16(msg, XRPCRDMA_A_BENCH_PORT,
			rpc_get_port((const struct sockaddr *)&p->addr)) ||
	    nla_put_u32(msg, XRPCRDMA_A_BENCH_PROGRAM, p->program) ||
	    nla_put_u32(msg, XRPCRDMA_A_BENCH_VERSION, p->version) ||
	    nla_put_u32(msg, XRPCRDMA_A_BENCH_COUNT, p->count) ||
	    nla_put_u32(msg, XRPCRDMA_A_BENCH_CONCURRENCY, p->concurrency) ||
	    nla_put_u32(msg, XRPCRDMA_A_BENCH_OP, p->op) ||
	    nla_put_u8(msg, XRPCRDMA_A_BENCH_RUNNING, r->running) ||
	    nla_put_u32(msg, XRPCRDMA_A_BENCH_DONE, r->done) ||
	    nla_put_u32(msg, XRPCRDMA_A_BENCH_ERRORS, r->errors))
		return -EMSGSIZE;
	if (p->op != XRPCRDMA_BENCH_OP_RPC_NULL &&
	    (nla_put_u32(msg, XRPCRDMA_A_BENCH_SIZE, p->size) ||
	     nla_put_u32(msg, XRPCRDMA_A_BENCH_QPS, p->qps)))
		return -EMSGSIZE;
	if (p->reply_size &&
	    nla_put_u32(msg, XRPCRDMA_A_BENCH_REPLY_SIZE, p->reply_size))
		return -EMSGSIZE;
	if (r->running)
		return 0;
	if (nla_put_s32(msg, XRPCRDMA_A_BENCH_STATUS, r->status) ||
	    nla_put_u64_64bit(msg, XRPCRDMA_A_BENCH_ELAPSED_NS, r->elapsed_ns,
			      XRPCRDMA_A_BENCH_PAD) ||
	    nla_put_u64_64bit(msg, XRPCRDMA_A_BENCH_OPS_PER_SEC, r->ops_per_sec,
			      XRPCRDMA_A_BENCH_PAD) ||
	    nla_put_u64_64bit(msg, XRPCRDMA_A_BENCH_LAT_P50_NS, r->p50_ns,
			      XRPCRDMA_A_BENCH_PAD) ||
	    nla_put_u64_64bit(msg, XRPCRDMA_A_BENCH_LAT_P99_NS, r->p99_ns,
			      XRPCRDMA_A_BENCH_PAD) ||
	    nla_put_u64_64bit(msg, XRPCRDMA_A_BENCH_LAT_P999_NS, r->p999_ns,
			      XRPCRDMA_A_BENCH_PAD) ||
	    nla_put_u64_64bit(msg, XRPCRDMA_A_BENCH_LAT_MAX_NS, r->max_ns,
			      XRPCRDMA_A_BENCH_PAD))
		return -EMSGSIZE;
	if (p->op != XRPCRDMA_BENCH_OP_RPC_NULL &&
	    nla_put_u64_64bit(msg, XRPCRDMA_A_BENCH_BYTES_PER_SEC,
			      r->bytes_per_sec, XRPCRDMA_A_BENCH_PAD))
		return -EMSGSIZE;
	return 0;
}

static int xr_nl_fill_bench_reply(struct sk_buff *msg, struct genl_info *info,
				  void *arg)
{
	return xr_nl_fill_bench(msg, arg);
}

/**
 * xrpcrdma_nl_bench_get_doit - report one benchmark
 * @skb: the request
 * @info: the request's attributes and extended ack
 *
 * Return values:
 *   %0: the reply was sent
 *   %-EINVAL: the id attribute is missing
 *   %-ENOENT: no benchmark kept, started from the caller's network
 *	namespace, has that id
 */
int xrpcrdma_nl_bench_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct xr_bench_result r;

	if (XR_NL_REQUIRE(info, XRPCRDMA_A_BENCH_ID, "benchmark id"))
		return -EINVAL;
	if (xr_bench_get(genl_info_net(info),
			 nla_get_u32(info->attrs[XRPCRDMA_A_BENCH_ID]), false,
			 &r)) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[XRPCRDMA_A_BENCH_ID],
				    "no benchmark with that id");
		return -ENOENT;
	}
	return xr_nl_reply(info, XRPCRDMA_CMD_BENCH_GET, xr_nl_fill_bench_reply,
			   &r);
}

/**
 * xrpcrdma_nl_bench_get_dumpit - report every benchmark kept
 * @skb: the message to fill
 * @cb: the dump's state; args[0] is the next id to look at
 *
 * Return: the length filled, 0 at the end, or a negative errno.
 */
int xrpcrdma_nl_bench_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct xr_bench_result r;
	void *hdr;

	while (!xr_bench_get(sock_net(cb->skb->sk), cb->args[0], true, &r)) {
		hdr = xr_nl_dump_hdr(skb, cb, XRPCRDMA_CMD_BENCH_GET);
		if (!hdr)
			break;
		if (xr_nl_fill_bench(skb, &r)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		cb->args[0] = (unsigned long)r.id + 1;
	}
	return skb->len;
}

static int xr_nl_fill_bench_event(struct sk_buff *msg, const void *arg)
{
	return xr_nl_fill_bench(msg, arg);
}

/**
 * xr_nl_notify_bench - a benchmark's progress, or its result
 * @net: the namespace it runs in
 * @r: its state
 * @done: it finished (bench-done-ntf), else bench-progress-ntf
 */
void xr_nl_notify_bench(struct net *net, const struct xr_bench_result *r,
			bool done)
{
	if (!xr_nl_listening(net))
		return;
	xr_nl_event(net, done ? XRPCRDMA_CMD_BENCH_DONE_NTF :
		    XRPCRDMA_CMD_BENCH_PROGRESS_NTF, xr_nl_fill_bench_event,
		    r, GFP_KERNEL);
}
