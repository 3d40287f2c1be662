// SPDX-License-Identifier: GPL-2.0
/*
 * bench_test.c - bench-run and bench-get against a live nfsd: a benchmark
 * over TCP and one over the transport registered as "rdma" complete with
 * every call answered, sane figures (ops > 0, p50 <= p99 <= p99.9 <= max),
 * progress visible while running, and the errors of bad requests; and the
 * device's own ceiling (op rdma-write and rdma-read) on $XR_ADDR's RDMA
 * device: every message moved and its data checked by the module, bytes
 * a second consistent with messages a second. Needs the module loaded
 * and nfsd listening on $XR_ADDR, tcp 2049 and rdma 20049 (bench.sh
 * starts it).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/xrpcrdma.h>

#include "genl.h"
#include "kselftest_harness.h"

struct bench_info {
	int		seen;
	uint32_t	id;
	uint8_t		running;
	uint32_t	count;
	uint32_t	done;
	uint32_t	errors;
	int32_t		status;
	uint64_t	ops;
	uint64_t	p50, p99, p999, max, elapsed;
	uint32_t	op, size, qps;
	uint16_t	port;
	uint64_t	bytes;
	int		seen_bytes;
};

static void bench_cb(const struct nlattr *attrs, size_t len, void *arg)
{
	struct bench_info *b = arg;
	const struct nlattr *a;

	b->seen++;
	genl_attr_for_each(a, attrs, len) {
		const void *d = genl_attr_data(a);

		switch (genl_attr_type(a)) {
		case XRPCRDMA_A_BENCH_ID:
			b->id = *(const uint32_t *)d;
			break;
		case XRPCRDMA_A_BENCH_RUNNING:
			b->running = *(const uint8_t *)d;
			break;
		case XRPCRDMA_A_BENCH_COUNT:
			b->count = *(const uint32_t *)d;
			break;
		case XRPCRDMA_A_BENCH_DONE:
			b->done = *(const uint32_t *)d;
			break;
		case XRPCRDMA_A_BENCH_ERRORS:
			b->errors = *(const uint32_t *)d;
			break;
		case XRPCRDMA_A_BENCH_STATUS:
			b->status = *(const int32_t *)d;
			break;
		case XRPCRDMA_A_BENCH_OPS_PER_SEC:
			memcpy(&b->ops, d, 8);
			break;
		case XRPCRDMA_A_BENCH_LAT_P50_NS:
			memcpy(&b->p50, d, 8);
			break;
		case XRPCRDMA_A_BENCH_LAT_P99_NS:
			memcpy(&b->p99, d, 8);
			break;
		case XRPCRDMA_A_BENCH_LAT_P999_NS:
			memcpy(&b->p999, d, 8);
			break;
		case XRPCRDMA_A_BENCH_LAT_MAX_NS:
			memcpy(&b->max, d, 8);
			break;
		case XRPCRDMA_A_BENCH_ELAPSED_NS:
			memcpy(&b->elapsed, d, 8);
			break;
		case XRPCRDMA_A_BENCH_OP:
			b->op = *(const uint32_t *)d;
			break;
		case XRPCRDMA_A_BENCH_SIZE:
			b->size = *(const uint32_t *)d;
			break;
		case XRPCRDMA_A_BENCH_QPS:
			b->qps = *(const uint32_t *)d;
			break;
		case XRPCRDMA_A_BENCH_PORT:
			b->port = *(const uint16_t *)d;
			break;
		case XRPCRDMA_A_BENCH_BYTES_PER_SEC:
			memcpy(&b->bytes, d, 8);
			b->seen_bytes++;
			break;
		}
	}
}

struct bclient {
	int fd;
	int family;
	struct genl_req req;
	struct genl_result res;
	uint32_t addr;		/* network order */
};

FIXTURE(bench) {
	struct bclient c;
};

/* Counts the benchmarks of a dump that are running. */
static void running_cb(const struct nlattr *attrs, size_t len, void *arg)
{
	struct bench_info b = {};

	bench_cb(attrs, len, &b);
	*(int *)arg += b.running;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* How long a case's setup waits for an earlier case's benchmark. */
#define LEFTOVER_WAIT_S 20
/*
 * The bound of a case that runs a benchmark: its setup's wait, then
 * wait_done()'s 120 s, with room to spare, so that the harness does not
 * kill a case, leaving its benchmark running, before the case's own
 * bounds end it.
 */
#define BENCH_CASE_TIMEOUT_S (LEFTOVER_WAIT_S + 160)

/*
 * Waits (for LEFTOVER_WAIT_S) until no benchmark runs; the number still
 * running, or -1 when the dump failed. A case that timed out leaves its
 * benchmark running, and every later start would fail with EBUSY: this
 * absorbs a short leftover and names a long one.
 */
static int wait_none_running(struct bclient *c)
{
	struct timespec ts = { .tv_nsec = 100 * 1000 * 1000 };
	double end = now_s() + LEFTOVER_WAIT_S;
	int running;

	for (;;) {
		genl_req_init(&c->req, c->family, XRPCRDMA_CMD_BENCH_GET, NLM_F_DUMP);
		running = 0;
		if (genl_run(c->fd, &c->req, running_cb, &running, &c->res) || c->res.err)
			return -1;
		if (!running || now_s() > end)
			return running;
		nanosleep(&ts, NULL);
	}
}

FIXTURE_SETUP(bench)
{
	const char *addr = getenv("XR_ADDR");

	self->c.fd = genl_open();
	ASSERT_GE(self->c.fd, 0);
	self->c.family = genl_resolve(self->c.fd, XRPCRDMA_FAMILY_NAME);
	ASSERT_GT(self->c.family, 0);
	ASSERT_NE(NULL, addr);
	ASSERT_EQ(1, inet_pton(AF_INET, addr, &self->c.addr));
	ASSERT_EQ(0, wait_none_running(&self->c))
		TH_LOG("benchmarks of earlier cases still running (-1: dump failed, %d %s)",
		       self->c.res.err, self->c.res.msg);
}

FIXTURE_TEARDOWN(bench)
{
	close(self->c.fd);
}

static void put_u32(struct genl_req *req, int type, uint32_t v)
{
	genl_req_put(req, type, &v, sizeof(v));
}

/* Starts a benchmark; its id, or a negative errno. */
static int start(struct __test_metadata *_metadata, struct bclient *self,
		 uint32_t transport, uint32_t count, uint32_t conc)
{
	struct bench_info b = {};

	genl_req_init(&self->req, self->family, XRPCRDMA_CMD_BENCH_RUN, 0);
	put_u32(&self->req, XRPCRDMA_A_BENCH_TRANSPORT, transport);
	genl_req_put(&self->req, XRPCRDMA_A_BENCH_ADDR4, &self->addr, 4);
	put_u32(&self->req, XRPCRDMA_A_BENCH_COUNT, count);
	put_u32(&self->req, XRPCRDMA_A_BENCH_CONCURRENCY, conc);
	EXPECT_EQ(0, genl_run(self->fd, &self->req, bench_cb, &b, &self->res));
	if (self->res.err)
		return self->res.err;
	EXPECT_EQ(1, b.seen);
	return (int)b.id;
}

static int get(struct bclient *self, uint32_t id, struct bench_info *b)
{
	memset(b, 0, sizeof(*b));
	genl_req_init(&self->req, self->family, XRPCRDMA_CMD_BENCH_GET, 0);
	put_u32(&self->req, XRPCRDMA_A_BENCH_ID, id);
	if (genl_run(self->fd, &self->req, bench_cb, b, &self->res))
		return -EIO;
	return self->res.err;
}

/* Polls until the benchmark ends (bounded: 120 s). */
static int wait_done(struct bclient *self, uint32_t id,
		     struct bench_info *b, int *saw_running)
{
	struct timespec ts = { .tv_nsec = 100 * 1000 * 1000 };
	int i, err;

	for (i = 0; i < 1200; i++) {
		err = get(self, id, b);
		if (err)
			return err;
		if (!b->running)
			return 0;
		(*saw_running)++;
		nanosleep(&ts, NULL);
	}
	return -ETIMEDOUT;
}

static void check_result(struct __test_metadata *_metadata,
			 const struct bench_info *b, uint32_t count)
{
	EXPECT_EQ(0, b->status);
	EXPECT_EQ(count, b->count);
	EXPECT_EQ(count, b->done);
	EXPECT_EQ(0, b->errors);
	EXPECT_GT(b->ops, 0);
	EXPECT_GT(b->p50, 0);
	EXPECT_LE(b->p50, b->p99);
	EXPECT_LE(b->p99, b->p999);
	EXPECT_LE(b->p999, b->max);
	EXPECT_GT(b->elapsed, 0);
	TH_LOG("%u calls: %llu ops/s, p50 %llu us, p99 %llu us, max %llu us",
	       b->done, (unsigned long long)b->ops,
	       (unsigned long long)b->p50 / 1000,
	       (unsigned long long)b->p99 / 1000,
	       (unsigned long long)b->max / 1000);
}

static void run_one(struct __test_metadata *_metadata,
		    struct bclient *self, uint32_t transport)
{
	struct bench_info b;
	int id, running = 0;

	id = start(_metadata, self, transport, 2000, 16);
	ASSERT_GT(id, 0) TH_LOG("bench-run: %d %s", id, self->res.msg);
	ASSERT_EQ(0, wait_done(self, id, &b, &running));
	EXPECT_EQ((uint32_t)id, b.id);
	check_result(_metadata, &b, 2000);
}

TEST_F_TIMEOUT(bench, over_tcp, BENCH_CASE_TIMEOUT_S)
{
	run_one(_metadata, &self->c, XRPCRDMA_BENCH_TRANSPORT_TCP);
}

TEST_F_TIMEOUT(bench, over_rdma, BENCH_CASE_TIMEOUT_S)
{
	run_one(_metadata, &self->c, XRPCRDMA_BENCH_TRANSPORT_RDMA);
}

/*
 * One call at a time: long enough to be seen running and to refuse a
 * second. Under emulation and load 20000 such calls outlasted the
 * harness's default 30 s, and the benchmark left running failed every
 * case after it.
 */
TEST_F_TIMEOUT(bench, progress_then_busy, BENCH_CASE_TIMEOUT_S)
{
	struct bench_info b;
	int id, running = 0;

	id = start(_metadata, &self->c, XRPCRDMA_BENCH_TRANSPORT_TCP, 5000, 1);
	ASSERT_GT(id, 0);
	/* One at a time. */
	EXPECT_EQ(-EBUSY, start(_metadata, &self->c, XRPCRDMA_BENCH_TRANSPORT_TCP,
				10, 1));
	EXPECT_NE(NULL, strstr(self->c.res.msg, "running already"));
	ASSERT_EQ(0, wait_done(&self->c, id, &b, &running));
	EXPECT_GT(running, 0);
	check_result(_metadata, &b, 5000);
}

TEST_F(bench, dump_lists_the_kept_ones)
{
	struct bench_info b = {};

	genl_req_init(&self->c.req, self->c.family, XRPCRDMA_CMD_BENCH_GET,
		      NLM_F_DUMP);
	ASSERT_EQ(0, genl_run(self->c.fd, &self->c.req, bench_cb, &b, &self->c.res));
	EXPECT_EQ(0, self->c.res.err);
	/* The benchmarks of the cases before, at most 8. */
	EXPECT_GE(b.seen, 1);
	EXPECT_LE(b.seen, 8);
}

TEST_F(bench, bad_requests)
{
	uint8_t a6[16] = { 0 };
	struct bench_info b;

	EXPECT_EQ(-ERANGE, start(_metadata, &self->c, 0, 0, 1));
	EXPECT_NE(NULL, strstr(self->c.res.msg, "count"));
	EXPECT_EQ(-ERANGE, start(_metadata, &self->c, 0, XRPCRDMA_BENCH_MAX_COUNT + 1, 1));
	/* The policy's range checks. */
	EXPECT_EQ(-ERANGE, start(_metadata, &self->c, 0, 10, 0));
	EXPECT_EQ(-ERANGE, start(_metadata, &self->c, 0, 10,
				 XRPCRDMA_BENCH_MAX_INFLIGHT + 1));
	EXPECT_EQ(-ERANGE, start(_metadata, &self->c, 7, 10, 1));

	/* Both addresses, then none. */
	genl_req_init(&self->c.req, self->c.family, XRPCRDMA_CMD_BENCH_RUN, 0);
	genl_req_put(&self->c.req, XRPCRDMA_A_BENCH_ADDR4, &self->c.addr, 4);
	genl_req_put(&self->c.req, XRPCRDMA_A_BENCH_ADDR6, a6, sizeof(a6));
	ASSERT_EQ(0, genl_run(self->c.fd, &self->c.req, NULL, NULL, &self->c.res));
	EXPECT_EQ(-EINVAL, self->c.res.err);
	EXPECT_NE(NULL, strstr(self->c.res.msg, "addr4 or addr6"));
	genl_req_init(&self->c.req, self->c.family, XRPCRDMA_CMD_BENCH_RUN, 0);
	ASSERT_EQ(0, genl_run(self->c.fd, &self->c.req, NULL, NULL, &self->c.res));
	EXPECT_EQ(-EINVAL, self->c.res.err);

	/* A short IPv6 address is the policy's to refuse. */
	genl_req_init(&self->c.req, self->c.family, XRPCRDMA_CMD_BENCH_RUN, 0);
	genl_req_put(&self->c.req, XRPCRDMA_A_BENCH_ADDR6, a6, 4);
	ASSERT_EQ(0, genl_run(self->c.fd, &self->c.req, NULL, NULL, &self->c.res));
	EXPECT_EQ(-ERANGE, self->c.res.err);

	EXPECT_EQ(-ENOENT, get(&self->c, 0xfffffff0, &b));
}

TEST_F_TIMEOUT(bench, nobody_server_ends_with_an_error, BENCH_CASE_TIMEOUT_S)
{
	uint16_t port = 9;
	struct bench_info b;
	int id, running = 0;

	/* Nothing listens on TCP port 9: the client cannot connect. */
	genl_req_init(&self->c.req, self->c.family, XRPCRDMA_CMD_BENCH_RUN, 0);
	genl_req_put(&self->c.req, XRPCRDMA_A_BENCH_ADDR4, &self->c.addr, 4);
	genl_req_put(&self->c.req, XRPCRDMA_A_BENCH_PORT, &port, 2);
	put_u32(&self->c.req, XRPCRDMA_A_BENCH_COUNT, 3);
	b.seen = 0;
	ASSERT_EQ(0, genl_run(self->c.fd, &self->c.req, bench_cb, &b, &self->c.res));
	ASSERT_EQ(0, self->c.res.err);
	id = (int)b.id;
	ASSERT_EQ(0, wait_done(&self->c, id, &b, &running));
	EXPECT_EQ(0, b.status);
	EXPECT_EQ(3, b.done);
	EXPECT_EQ(3, b.errors);
	EXPECT_EQ(0, b.ops);
}

/* Starts an RDMA benchmark of @size-byte messages on @qps queue pairs. */
static int start_rdma(struct __test_metadata *_metadata, struct bclient *self,
		      uint32_t op, uint32_t size, uint32_t qps, uint32_t count,
		      uint32_t conc)
{
	struct bench_info b = {};

	genl_req_init(&self->req, self->family, XRPCRDMA_CMD_BENCH_RUN, 0);
	put_u32(&self->req, XRPCRDMA_A_BENCH_OP, op);
	genl_req_put(&self->req, XRPCRDMA_A_BENCH_ADDR4, &self->addr, 4);
	if (size)
		put_u32(&self->req, XRPCRDMA_A_BENCH_SIZE, size);
	if (qps)
		put_u32(&self->req, XRPCRDMA_A_BENCH_QPS, qps);
	put_u32(&self->req, XRPCRDMA_A_BENCH_COUNT, count);
	put_u32(&self->req, XRPCRDMA_A_BENCH_CONCURRENCY, conc);
	EXPECT_EQ(0, genl_run(self->fd, &self->req, bench_cb, &b, &self->res));
	if (self->res.err)
		return self->res.err;
	EXPECT_EQ(1, b.seen);
	return (int)b.id;
}

/*
 * Runs one RDMA benchmark to its end and checks it: every message moved
 * (the module compares the buffer written with the data sent and ends
 * with -EIO when they differ), the parameters reported as asked (0: the
 * default), a listener port, and bytes a second that are the messages a
 * second times the size.
 */
static void run_rdma(struct __test_metadata *_metadata, struct bclient *self,
		     uint32_t op, uint32_t size, uint32_t qps, uint32_t count,
		     uint32_t conc)
{
	uint32_t want_size = size ?: 1048576, want_qps = qps ?: 1;
	struct bench_info b;
	int id, running = 0;

	id = start_rdma(_metadata, self, op, size, qps, count, conc);
	ASSERT_GT(id, 0) TH_LOG("bench-run: %d %s", id, self->res.msg);
	ASSERT_EQ(0, wait_done(self, id, &b, &running));
	check_result(_metadata, &b, count);
	EXPECT_EQ(op, b.op);
	EXPECT_EQ(want_size, b.size);
	EXPECT_EQ(want_qps, b.qps);
	EXPECT_NE(0, b.port);
	ASSERT_EQ(1, b.seen_bytes);
	/* ops_per_sec and bytes_per_sec are both rounded down. */
	EXPECT_GE(b.bytes, b.ops * want_size);
	EXPECT_LT(b.bytes, (b.ops + 1) * want_size);
	TH_LOG("%u messages of %u bytes on %u QPs: %.1f MiB/s", b.done,
	       want_size, want_qps, b.bytes / 1048576.0);
}

TEST_F_TIMEOUT(bench, rdma_write_ceiling, BENCH_CASE_TIMEOUT_S)
{
	run_rdma(_metadata, &self->c, XRPCRDMA_BENCH_OP_RDMA_WRITE, 0, 4, 64, 4);
}

TEST_F_TIMEOUT(bench, rdma_read_ceiling, BENCH_CASE_TIMEOUT_S)
{
	run_rdma(_metadata, &self->c, XRPCRDMA_BENCH_OP_RDMA_READ, 0, 4, 64, 4);
}

/*
 * Sizes that are not whole pages, more pages than one work request's
 * SGEs, a count that the queue pairs do not divide, one message at a
 * time and many: the data still arrives whole.
 */
TEST_F_TIMEOUT(bench, rdma_odd_shapes, BENCH_CASE_TIMEOUT_S)
{
	run_rdma(_metadata, &self->c, XRPCRDMA_BENCH_OP_RDMA_WRITE, 300001, 3, 10, 1);
	run_rdma(_metadata, &self->c, XRPCRDMA_BENCH_OP_RDMA_READ, 300001, 3, 10, 1);
	run_rdma(_metadata, &self->c, XRPCRDMA_BENCH_OP_RDMA_WRITE, 1, 2, 3, 16);
	run_rdma(_metadata, &self->c, XRPCRDMA_BENCH_OP_RDMA_READ, 4096, 1, 200, 32);
	run_rdma(_metadata, &self->c, XRPCRDMA_BENCH_OP_RDMA_WRITE,
		 XRPCRDMA_BENCH_MAX_SIZE / 2, 1, 4, 2);
}

TEST_F(bench, rdma_bad_requests)
{
	uint32_t v = XRPCRDMA_BENCH_TRANSPORT_RDMA;
	struct bclient *c = &self->c;

	EXPECT_EQ(-ERANGE, start_rdma(_metadata, c, 3, 0, 0, 10, 1));
	EXPECT_EQ(-ERANGE, start_rdma(_metadata, c, XRPCRDMA_BENCH_OP_RDMA_WRITE,
				      XRPCRDMA_BENCH_MAX_SIZE + 1, 0, 10, 1));
	EXPECT_NE(NULL, strstr(c->res.msg, "size"));
	EXPECT_EQ(-ERANGE, start_rdma(_metadata, c, XRPCRDMA_BENCH_OP_RDMA_READ,
				      0, XRPCRDMA_BENCH_MAX_QPS + 1, 10, 1));
	EXPECT_EQ(-ERANGE, start_rdma(_metadata, c, XRPCRDMA_BENCH_OP_RDMA_READ,
				      0, 0, 0, 1));

	/* size 0 is below the policy's minimum. */
	genl_req_init(&c->req, c->family, XRPCRDMA_CMD_BENCH_RUN, 0);
	put_u32(&c->req, XRPCRDMA_A_BENCH_OP, XRPCRDMA_BENCH_OP_RDMA_WRITE);
	genl_req_put(&c->req, XRPCRDMA_A_BENCH_ADDR4, &c->addr, 4);
	put_u32(&c->req, XRPCRDMA_A_BENCH_SIZE, 0);
	ASSERT_EQ(0, genl_run(c->fd, &c->req, NULL, NULL, &c->res));
	EXPECT_EQ(-ERANGE, c->res.err);

	/* An RPC transport with an RDMA op, then a size with NULL calls. */
	genl_req_init(&c->req, c->family, XRPCRDMA_CMD_BENCH_RUN, 0);
	put_u32(&c->req, XRPCRDMA_A_BENCH_OP, XRPCRDMA_BENCH_OP_RDMA_WRITE);
	put_u32(&c->req, XRPCRDMA_A_BENCH_TRANSPORT, v);
	genl_req_put(&c->req, XRPCRDMA_A_BENCH_ADDR4, &c->addr, 4);
	ASSERT_EQ(0, genl_run(c->fd, &c->req, NULL, NULL, &c->res));
	EXPECT_EQ(-EINVAL, c->res.err);
	EXPECT_NE(NULL, strstr(c->res.msg, "rpc-null only"));
	genl_req_init(&c->req, c->family, XRPCRDMA_CMD_BENCH_RUN, 0);
	genl_req_put(&c->req, XRPCRDMA_A_BENCH_ADDR4, &c->addr, 4);
	put_u32(&c->req, XRPCRDMA_A_BENCH_SIZE, 4096);
	ASSERT_EQ(0, genl_run(c->fd, &c->req, NULL, NULL, &c->res));
	EXPECT_EQ(-EINVAL, c->res.err);
	EXPECT_NE(NULL, strstr(c->res.msg, "rdma-write and rdma-read only"));

	/* reply-size goes with NULL calls, and up to 64 KiB. */
	genl_req_init(&c->req, c->family, XRPCRDMA_CMD_BENCH_RUN, 0);
	put_u32(&c->req, XRPCRDMA_A_BENCH_OP, XRPCRDMA_BENCH_OP_RDMA_READ);
	genl_req_put(&c->req, XRPCRDMA_A_BENCH_ADDR4, &c->addr, 4);
	put_u32(&c->req, XRPCRDMA_A_BENCH_REPLY_SIZE, 4096);
	ASSERT_EQ(0, genl_run(c->fd, &c->req, NULL, NULL, &c->res));
	EXPECT_EQ(-EINVAL, c->res.err);
	EXPECT_NE(NULL, strstr(c->res.msg, "rpc-null only"));
	genl_req_init(&c->req, c->family, XRPCRDMA_CMD_BENCH_RUN, 0);
	genl_req_put(&c->req, XRPCRDMA_A_BENCH_ADDR4, &c->addr, 4);
	put_u32(&c->req, XRPCRDMA_A_BENCH_REPLY_SIZE,
		XRPCRDMA_BENCH_MAX_REPLY_SIZE + 1);
	ASSERT_EQ(0, genl_run(c->fd, &c->req, NULL, NULL, &c->res));
	EXPECT_EQ(-ERANGE, c->res.err);
	EXPECT_NE(NULL, strstr(c->res.msg, "reply-size"));
}

/*
 * An address that is no device's of this host (TEST-NET-1): the
 * benchmark cannot listen there, ends with an error and moves nothing;
 * no packet leaves the host.
 */
TEST_F_TIMEOUT(bench, rdma_not_a_local_address, BENCH_CASE_TIMEOUT_S)
{
	struct bench_info b;
	int id, running = 0;

	ASSERT_EQ(1, inet_pton(AF_INET, "192.0.2.1", &self->c.addr));
	id = start_rdma(_metadata, &self->c, XRPCRDMA_BENCH_OP_RDMA_WRITE, 0, 0,
			10, 1);
	ASSERT_GT(id, 0) TH_LOG("bench-run: %d %s", id, self->c.res.msg);
	ASSERT_EQ(0, wait_done(&self->c, id, &b, &running));
	EXPECT_LT(b.status, 0);
	TH_LOG("status %d", b.status);
	EXPECT_EQ(0, b.done);
	EXPECT_EQ(0, b.ops);
}

TEST_F(bench, unprivileged_cannot_start)
{
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(10);
		self->c.fd = genl_open();
		if (self->c.fd < 0)
			_exit(11);
		if (start(_metadata, &self->c, 0, 10, 1) != -EPERM)
			_exit(12);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
