// SPDX-License-Identifier: GPL-2.0
/*
 * bench.c - the kernel-side benchmarks (bench-run). An RPC client of
 * the module's own (rpc_create) sends NULL calls to a server over TCP or
 * over the transport registered as "rdma", with a bounded number in
 * flight, and records each round trip; or bench_rdma.c moves RDMA Writes
 * or Reads between queue pairs of its own and records each message. One
 * benchmark runs at a time, in a work item; the newest few are kept for
 * bench-get. nl_bench.c parses and fills the netlink side; this file
 * owns the benchmarks.
 *
 * A running benchmark holds a reference on the module: rmmod is refused
 * until it ends (each call ends within its timeout, so it does).
 */
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/net.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/sunrpc/addr.h>
#include <linux/sunrpc/clnt.h>
#include <net/net_namespace.h>

#include "bench.h"
#include "compat.h"

#define XR_BENCH_KEEP		8	/* finished benchmarks kept */
#define XR_BENCH_TIMEOUT	(10 * HZ)	/* one RPC, and one slot wait */
#define XR_BENCH_DRAIN		(60 * HZ)	/* the last calls to finish */

/**
 * struct xr_bench - one benchmark
 * @xb_node: on xr_benches, newest last
 * @xb_params: what was asked
 * @xb_id: its number
 * @xb_net: the namespace the request came from (a reference while it
 *	runs)
 * @xb_net_cookie: that namespace's cookie: only its callers see the
 *	benchmark, also once it is over and @xb_net is let go
 * @xb_work: runs it
 * @xb_wq: woken as calls complete
 * @xb_in_flight: calls started and not yet released
 * @xb_done: calls completed
 * @xb_errors: calls completed with an error
 * @xb_nlat: entries used in @xb_lat
 * @xb_lat: round trips of the successful calls, ns
 * @xb_running: until the result is final (under xr_bench_lock)
 * @xb_status: 0 or the errno that ended it early
 * @xb_elapsed: first call to last completion, ns
 * @xb_p50: median round trip, ns (and the other percentiles)
 * @xb_p99: 99th percentile
 * @xb_p999: 99.9th percentile
 * @xb_max: longest
 * @xb_stats: the RPC client's statistics (rpc_create wants them)
 * @xb_counts: per-procedure call counts of the version
 * @xb_proc: the NULL procedure, with room for @xb_params.reply_size bytes
 *	of reply
 * @xb_version: the one procedure table
 * @xb_versions: the program's version table (only @xb_params.version set)
 * @xb_program: the RPC program
 */
struct xr_bench {
	struct list_head	xb_node;
	struct xr_bench_params	xb_params;
	u32			xb_id;
	struct net		*xb_net;
	u64			xb_net_cookie;
	struct work_struct	xb_work;
	wait_queue_head_t	xb_wq;
	atomic_t		xb_in_flight;
	atomic_t		xb_done;
	atomic_t		xb_errors;
	atomic_t		xb_nlat;
	u64			*xb_lat;
	bool			xb_running;
	int			xb_status;
	u64			xb_elapsed;
	u64			xb_p50;
	u64			xb_p99;
	u64			xb_p999;
	u64			xb_max;
	struct rpc_stat		xb_stats;
	unsigned int		xb_counts[1];
	struct rpc_procinfo	xb_proc;
	struct rpc_version	xb_version;
	const struct rpc_version *xb_versions[XR_BENCH_MAX_VERSION + 1];
	struct rpc_program	xb_program;
};

/* One call in flight. */
struct xr_bench_call {
	struct xr_bench		*bc_bench;
	u64			bc_start;
};

static DEFINE_MUTEX(xr_bench_lock);	/* xr_benches, xb_running */
static LIST_HEAD(xr_benches);
static u32 xr_bench_last_id;

static void xr_bench_encode_void(struct rpc_rqst *req, struct xdr_stream *xdr,
				 const void *obj)
{
}

static int xr_bench_decode_void(struct rpc_rqst *req, struct xdr_stream *xdr,
				void *obj)
{
	return 0;
}

static const struct rpc_procinfo xr_bench_null = {
	.p_proc		= 0,
	.p_encode	= xr_bench_encode_void,
	.p_decode	= xr_bench_decode_void,
	.p_statidx	= 0,
	.p_name		= "NULL",
};

/**
 * xr_bench_record - one call or message completed
 * @b: its benchmark
 * @ns: its round trip
 */
void xr_bench_record(struct xr_bench *b, u64 ns)
{
	int i = atomic_inc_return(&b->xb_nlat) - 1;

	if (i < b->xb_params.count)
		b->xb_lat[i] = ns;
	atomic_inc(&b->xb_done);
}

/**
 * xr_bench_record_error - one call or message failed
 * @b: its benchmark
 */
void xr_bench_record_error(struct xr_bench *b)
{
	atomic_inc(&b->xb_errors);
	atomic_inc(&b->xb_done);
}

static void xr_bench_call_done(struct rpc_task *task, void *calldata)
{
	struct xr_bench_call *call = calldata;
	struct xr_bench *b = call->bc_bench;

	if (task->tk_status)
		xr_bench_record_error(b);
	else
		xr_bench_record(b, ktime_get_ns() - call->bc_start);
}

/* Also called when the task could not be created at all. */
static void xr_bench_call_release(void *calldata)
{
	struct xr_bench_call *call = calldata;
	struct xr_bench *b = call->bc_bench;
	unsigned long flags;

	kfree(call);
	/*
	 * Under the wait queue's lock: the run, once it has seen the last
	 * call go, takes the lock before it lets @b be freed, so this is
	 * done with @b by then (rpciod may release a call after
	 * rpc_shutdown_client() has returned).
	 */
	spin_lock_irqsave(&b->xb_wq.lock, flags);
	if (atomic_dec_return(&b->xb_in_flight) < (int)b->xb_params.concurrency)
		wake_up_locked(&b->xb_wq);
	spin_unlock_irqrestore(&b->xb_wq.lock, flags);
}

static const struct rpc_call_ops xr_bench_call_ops = {
	.rpc_call_done	= xr_bench_call_done,
	.rpc_release	= xr_bench_call_release,
};

static struct rpc_clnt *xr_bench_client(struct xr_bench *b)
{
	const struct xr_bench_params *p = &b->xb_params;
	struct rpc_timeout timeout = {
		.to_initval	= XR_BENCH_TIMEOUT,
		.to_maxval	= XR_BENCH_TIMEOUT,
		.to_retries	= 0,
	};
	struct rpc_create_args args = {
		.net		= b->xb_net,
		.protocol	= p->transport == XRPCRDMA_BENCH_TRANSPORT_RDMA ?
				  XPRT_TRANSPORT_RDMA : XPRT_TRANSPORT_TCP,
		.address	= (struct sockaddr *)&p->addr,
		.addrsize	= p->addrlen,
		.timeout	= &timeout,
		.servername	= "xrpcrdma-bench",
		.program	= &b->xb_program,
		.version	= p->version,
		.authflavor	= RPC_AUTH_NULL,
		.cred		= current_cred(),
		.flags		= RPC_CLNT_CREATE_NOPING |
				  RPC_CLNT_CREATE_NONPRIVPORT,
	};

	/* The reply buffer's room, in XDR words (p_replen's unit). */
	b->xb_proc = xr_bench_null;
	b->xb_proc.p_replen = DIV_ROUND_UP(p->reply_size, 4);
	b->xb_version.number = p->version;
	b->xb_version.nrprocs = 1;
	b->xb_version.procs = &b->xb_proc;
	b->xb_version.counts = b->xb_counts;
	b->xb_versions[p->version] = &b->xb_version;
	b->xb_program.name = "xrpcrdma-bench";
	b->xb_program.number = p->program;
	b->xb_program.nrvers = p->version + 1;
	b->xb_program.version = b->xb_versions;
	b->xb_program.stats = &b->xb_stats;
	b->xb_stats.program = &b->xb_program;
	return rpc_create(&args);
}

/* Waits for a free slot; false when the benchmark must end. */
static bool xr_bench_wait_slot(struct xr_bench *b)
{
	long left;

	left = wait_event_timeout(b->xb_wq,
				  atomic_read(&b->xb_in_flight) <
				  (int)b->xb_params.concurrency,
				  XR_BENCH_TIMEOUT);
	if (!left) {
		b->xb_status = -ETIMEDOUT;
		return false;
	}
	return true;
}

static void xr_bench_start_call(struct xr_bench *b, struct rpc_clnt *clnt)
{
	struct rpc_message msg = { .rpc_proc = &b->xb_proc };
	struct rpc_task_setup setup = {
		.rpc_client	= clnt,
		.rpc_message	= &msg,
		.callback_ops	= &xr_bench_call_ops,
		/* No retrying: a refused connection fails the call at once. */
		.flags		= RPC_TASK_ASYNC | RPC_TASK_SOFT |
				  RPC_TASK_SOFTCONN | RPC_TASK_NULLCREDS,
	};
	struct xr_bench_call *call;
	struct rpc_task *task;

	call = kmalloc(sizeof(*call), GFP_KERNEL);
	if (!call) {
		xr_bench_record_error(b);
		return;
	}
	call->bc_bench = b;
	call->bc_start = ktime_get_ns();
	setup.callback_data = call;
	atomic_inc(&b->xb_in_flight);
	/* On failure the task's release has already run. */
	task = rpc_run_task(&setup);
	if (IS_ERR(task)) {
		xr_bench_record_error(b);
		return;
	}
	rpc_put_task(task);
}

static int xr_bench_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 xr_bench_pct(const u64 *sorted, u32 n, u32 per_mille)
{
	u64 i = div_u64((u64)n * per_mille, 1000);

	return n ? sorted[min_t(u64, i, n - 1)] : 0;
}

/* Sorts the round trips and takes the figures (no lock: not running yet). */
static void xr_bench_figures(struct xr_bench *b)
{
	u32 n = min_t(u32, atomic_read(&b->xb_nlat), b->xb_params.count);

	sort(b->xb_lat, n, sizeof(u64), xr_bench_cmp_u64, NULL);
	b->xb_p50 = xr_bench_pct(b->xb_lat, n, 500);
	b->xb_p99 = xr_bench_pct(b->xb_lat, n, 990);
	b->xb_p999 = xr_bench_pct(b->xb_lat, n, 999);
	b->xb_max = n ? b->xb_lat[n - 1] : 0;
}

static void xr_bench_snapshot(struct xr_bench *b, struct xr_bench_result *r)
{
	u32 ok;

	memset(r, 0, sizeof(*r));
	r->params = b->xb_params;
	r->id = b->xb_id;
	r->running = b->xb_running;
	r->done = atomic_read(&b->xb_done);
	r->errors = atomic_read(&b->xb_errors);
	if (r->running)
		return;
	ok = min_t(u32, atomic_read(&b->xb_nlat), b->xb_params.count);
	r->status = b->xb_status;
	r->elapsed_ns = b->xb_elapsed;
	r->ops_per_sec = b->xb_elapsed ?
			 div64_u64((u64)ok * NSEC_PER_SEC, b->xb_elapsed) : 0;
	r->p50_ns = b->xb_p50;
	r->p99_ns = b->xb_p99;
	r->p999_ns = b->xb_p999;
	r->max_ns = b->xb_max;
	if (b->xb_params.op != XRPCRDMA_BENCH_OP_RPC_NULL && b->xb_elapsed)
		r->bytes_per_sec = mul_u64_u64_div_u64((u64)ok * b->xb_params.size,
						       NSEC_PER_SEC,
						       b->xb_elapsed);
}

static void xr_bench_progress(struct xr_bench *b)
{
	struct xr_bench_result r;

	mutex_lock(&xr_bench_lock);
	xr_bench_snapshot(b, &r);
	mutex_unlock(&xr_bench_lock);
	xr_nl_notify_bench(b->xb_net, &r, false);
}

/**
 * xr_bench_progress_tick - notify a benchmark's progress
 * @b: the benchmark, running
 *
 * Return: the calls or messages completed so far.
 */
u32 xr_bench_progress_tick(struct xr_bench *b)
{
	xr_bench_progress(b);
	return atomic_read(&b->xb_done);
}

/**
 * xr_bench_set_port - the port a benchmark's listener got
 * @b: the benchmark, running
 * @port: the port
 */
void xr_bench_set_port(struct xr_bench *b, u16 port)
{
	mutex_lock(&xr_bench_lock);
	rpc_set_port((struct sockaddr *)&b->xb_params.addr, port);
	mutex_unlock(&xr_bench_lock);
}

/* NULL calls: 0, or the errno that ended them early. */
static int xr_bench_rpc_run(struct xr_bench *b)
{
	unsigned long next_progress = jiffies + HZ;
	struct rpc_clnt *clnt;
	u64 start;
	u32 i;

	clnt = xr_bench_client(b);
	if (IS_ERR(clnt))
		return PTR_ERR(clnt);
	start = ktime_get_ns();
	for (i = 0; i < b->xb_params.count; i++) {
		if (!xr_bench_wait_slot(b))
			break;
		xr_bench_start_call(b, clnt);
		if (time_after(jiffies, next_progress)) {
			xr_bench_progress(b);
			next_progress = jiffies + HZ;
		}
	}
	/* Soft tasks end by their timeout; shutdown kills any left. */
	wait_event_timeout(b->xb_wq, !atomic_read(&b->xb_in_flight),
			   XR_BENCH_DRAIN);
	b->xb_elapsed = ktime_get_ns() - start;
	rpc_shutdown_client(clnt);
	wait_event(b->xb_wq, !atomic_read(&b->xb_in_flight));
	/* The last release has left its critical section. */
	spin_lock_irq(&b->xb_wq.lock);
	spin_unlock_irq(&b->xb_wq.lock);
	return b->xb_status;
}

static void xr_bench_work(struct work_struct *work)
{
	struct xr_bench *b = container_of(work, struct xr_bench, xb_work);
	struct xr_bench_params p = b->xb_params;
	struct xr_bench_result r;
	struct net *net;
	u64 *lat;

	if (p.op == XRPCRDMA_BENCH_OP_RPC_NULL)
		b->xb_status = xr_bench_rpc_run(b);
	else
		b->xb_status = xr_bench_rdma_run(b, b->xb_net, &p,
						 &b->xb_elapsed);
	xr_bench_figures(b);
	mutex_lock(&xr_bench_lock);
	b->xb_running = false;
	xr_bench_snapshot(b, &r);
	lat = b->xb_lat;
	b->xb_lat = NULL;
	net = b->xb_net;
	b->xb_net = NULL;
	mutex_unlock(&xr_bench_lock);
	/*
	 * Finished, @b may be trimmed away by the next start at once: only
	 * the copies are used from here. The namespace is let go: a
	 * finished benchmark must not keep a container's alive.
	 */
	kvfree(lat);
	xr_nl_notify_bench(net, &r, true);
	put_net(net);
	module_put(THIS_MODULE);
}

static void xr_bench_free(struct xr_bench *b)
{
	kvfree(b->xb_lat);
	if (b->xb_net)
		put_net(b->xb_net);
	kfree(b);
}

/* Drops the oldest finished benchmarks beyond XR_BENCH_KEEP. */
static void xr_bench_trim(void)
{
	struct xr_bench *b, *tmp;
	size_t n = 0;

	list_for_each_entry(b, &xr_benches, xb_node)
		n++;
	list_for_each_entry_safe(b, tmp, &xr_benches, xb_node) {
		if (n <= XR_BENCH_KEEP)
			break;
		if (b->xb_running)
			continue;
		list_del(&b->xb_node);
		xr_bench_free(b);
		n--;
	}
}

static bool xr_bench_any_running(void)
{
	struct xr_bench *b;

	list_for_each_entry(b, &xr_benches, xb_node)
		if (b->xb_running)
			return true;
	return false;
}

/**
 * xr_bench_start - start a benchmark in the background
 * @net: the namespace whose RPC client runs it
 * @p: what to run (validated by the caller)
 * @id: its id, on success
 *
 * Return: 0, -EBUSY when one runs already, -ENODEV while the module
 * unloads, -ENOMEM.
 */
int xr_bench_start(struct net *net, const struct xr_bench_params *p, u32 *id)
{
	struct xr_bench *b;
	int err;

	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	b->xb_lat = kvcalloc(p->count, sizeof(u64), GFP_KERNEL);
	if (!b->xb_lat) {
		kfree(b);
		return -ENOMEM;
	}
	b->xb_params = *p;
	b->xb_running = true;
	init_waitqueue_head(&b->xb_wq);
	INIT_WORK(&b->xb_work, xr_bench_work);
	b->xb_net = get_net(net);
	b->xb_net_cookie = net->net_cookie;

	mutex_lock(&xr_bench_lock);
	err = xr_bench_any_running() ? -EBUSY : 0;
	if (!err && !try_module_get(THIS_MODULE))
		err = -ENODEV;
	if (err) {
		mutex_unlock(&xr_bench_lock);
		xr_bench_free(b);
		return err;
	}
	b->xb_id = ++xr_bench_last_id ?: ++xr_bench_last_id;
	*id = b->xb_id;
	list_add_tail(&b->xb_node, &xr_benches);
	xr_bench_trim();
	queue_work(xr_dfl_wq, &b->xb_work);
	mutex_unlock(&xr_bench_lock);
	return 0;
}

/**
 * xr_bench_get - the state of one benchmark, or of the next one
 * @net: the caller's namespace: benchmarks started from others are not
 *	there for it
 * @id: its id, or with @next the lowest id to look at
 * @next: find the benchmark with the lowest id >= @id
 * @r: filled on success
 *
 * Return: 0, or -ENOENT when there is none.
 */
int xr_bench_get(struct net *net, u32 id, bool next,
		 struct xr_bench_result *r)
{
	u64 cookie = net->net_cookie;
	struct xr_bench *b, *found = NULL;

	mutex_lock(&xr_bench_lock);
	list_for_each_entry(b, &xr_benches, xb_node) {
		if (b->xb_net_cookie != cookie)
			continue;
		if (b->xb_id == id) {
			found = b;
			break;
		}
		if (next && b->xb_id > id && (!found || b->xb_id < found->xb_id))
			found = b;
	}
	if (found)
		xr_bench_snapshot(found, r);
	mutex_unlock(&xr_bench_lock);
	return found ? 0 : -ENOENT;
}

/**
 * xr_bench_exit - free the finished benchmarks (module unload)
 *
 * None runs: each holds a module reference until its work item's end,
 * which is waited for here in case its last instructions still run.
 */
void xr_bench_exit(void)
{
	struct xr_bench *b, *tmp;

	list_for_each_entry_safe(b, tmp, &xr_benches, xb_node) {
		flush_work(&b->xb_work);
		list_del(&b->xb_node);
		xr_bench_free(b);
	}
}
