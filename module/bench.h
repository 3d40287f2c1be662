/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench.h - the kernel-side benchmarks (bench.c): RPC calls from the
 * kernel's own client over any transport, with their round trips, or the
 * RDMA device's own ceiling (bench_rdma.c).
 */
#ifndef _XRPCRDMA_BENCH_H
#define _XRPCRDMA_BENCH_H

#include <linux/socket.h>
#include <linux/types.h>
#include <uapi/linux/xrpcrdma.h>

struct net;

#define XR_BENCH_MAX_VERSION	31

/**
 * struct xr_bench_params - what a benchmark runs
 * @transport: &enum xrpcrdma_bench_transport
 * @addr: the server's address and port
 * @addrlen: the length of @addr's family
 * @program: RPC program
 * @version: RPC version, 1 to %XR_BENCH_MAX_VERSION
 * @count: calls (or messages) to send
 * @concurrency: calls in flight at most (messages: on each queue pair)
 * @op: &enum xrpcrdma_bench_op
 * @size: bytes in each RDMA message (rdma-write, rdma-read)
 * @qps: queue pairs (rdma-write, rdma-read)
 * @reply_size: room for reply each call asks for beyond the RPC reply
 *	header, bytes (rpc-null)
 */
struct xr_bench_params {
	u32			transport;
	struct sockaddr_storage	addr;
	size_t			addrlen;
	u32			program;
	u32			version;
	u32			count;
	u32			concurrency;
	u32			op;
	u32			size;
	u32			qps;
	u32			reply_size;
};

/**
 * struct xr_bench_result - a benchmark as bench-get shows it
 * @params: what it runs
 * @id: its number
 * @running: not finished yet (the figures below @errors are 0)
 * @done: calls completed
 * @errors: calls completed with an error
 * @status: 0, or the errno that ended it early
 * @elapsed_ns: first call to last completion
 * @ops_per_sec: successful calls a second
 * @p50_ns: median round trip
 * @p99_ns: 99th percentile round trip
 * @p999_ns: 99.9th percentile round trip
 * @max_ns: longest round trip
 * @bytes_per_sec: payload bytes of the successful messages a second (RDMA)
 */
struct xr_bench_result {
	struct xr_bench_params	params;
	u32			id;
	bool			running;
	u32			done;
	u32			errors;
	int			status;
	u64			elapsed_ns;
	u64			ops_per_sec;
	u64			p50_ns;
	u64			p99_ns;
	u64			p999_ns;
	u64			max_ns;
	u64			bytes_per_sec;
};

struct xr_bench;

int xr_bench_start(struct net *net, const struct xr_bench_params *p, u32 *id);
int xr_bench_get(struct net *net, u32 id, bool next,
		 struct xr_bench_result *r);
void xr_bench_exit(void);

/* bench.c, for the RDMA benchmark: what it records */
void xr_bench_record(struct xr_bench *b, u64 ns);
void xr_bench_record_error(struct xr_bench *b);
u32 xr_bench_progress_tick(struct xr_bench *b);
void xr_bench_set_port(struct xr_bench *b, u16 port);

/* bench_rdma.c: the device's ceiling, RDMA Writes or Reads and no RPC */
int xr_bench_rdma_run(struct xr_bench *b, struct net *net,
		      const struct xr_bench_params *p, u64 *elapsed);

/* nl_bench.c: notifies a benchmark's progress or end */
void xr_nl_notify_bench(struct net *net, const struct xr_bench_result *r,
			bool done);

#endif /* _XRPCRDMA_BENCH_H */
