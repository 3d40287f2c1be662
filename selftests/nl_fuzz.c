// SPDX-License-Identifier: GPL-2.0
/*
 * nl_fuzz - random requests to every operation of the xrpcrdma family:
 * random commands (and unknown ones), do and dump, and random attribute
 * sets (known and unknown types, every length around the valid ones,
 * strings with and without their NUL, small and huge integers, nested
 * garbage). Every request must get an answer, the answer must be an errno
 * the family can give, and the module must still answer a plain
 * module-get afterwards; the test host fails the run on any kernel
 * warning. Deterministic: XR_FUZZ_SEED (default 1) and XR_FUZZ_ITERS
 * (default 50000) fix the sequence.
 *
 * As root this exercises the state-changing operations too (a random
 * fault or tunable may end up set): nl_fuzz.sh reloads the module after.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/xrpcrdma.h>

#include "kselftest_harness.h"
#include "genl.h"

/* Attribute types up to this are tried; the family's sets are smaller. */
#define FUZZ_MAX_TYPE	48
#define FUZZ_MAX_ATTRS	6

static uint64_t rng_state;

static uint32_t rnd(void)
{
	/* xorshift64*: small, deterministic, good enough for fuzzing. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 32);
}

static uint32_t rnd_below(uint32_t n)
{
	return n ? rnd() % n : 0;
}

/* An integer that is often near a boundary. */
static uint32_t rnd_u32(void)
{
	static const uint32_t edges[] = {
		0, 1, 2, 3, 4, 7, 8, 63, 64, 65, 1023, 1024, 4096, 65535,
		65536, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
	};

	if (rnd_below(3))
		return edges[rnd_below(ARRAY_SIZE(edges))];
	return rnd();
}

/* Fills @buf with an attribute payload of a random shape; returns its length. */
static size_t rnd_payload(char *buf, size_t room, int depth)
{
	static const char *const names[] = { "rxe0", "rxe1", "veth0", "", "x" };
	size_t len, i;
	uint32_t v;

	switch (rnd_below(depth < 2 ? 7 : 6)) {
	case 0:			/* u8 */
		buf[0] = (char)rnd_u32();
		return 1;
	case 1:			/* u32 */
		v = rnd_u32();
		memcpy(buf, &v, sizeof(v));
		return sizeof(v);
	case 2:			/* u64 */
		v = rnd_u32();
		memcpy(buf, &v, sizeof(v));
		v = rnd_below(2) ? 0 : rnd_u32();
		memcpy(buf + 4, &v, sizeof(v));
		return 8;
	case 3:			/* a known name, with or without its NUL */
		i = rnd_below(ARRAY_SIZE(names));
		len = strlen(names[i]) + rnd_below(2);
		memcpy(buf, names[i], len);
		return len;
	case 4:			/* random bytes, any length */
		len = rnd_below(rnd_below(4) ? 24 : (uint32_t)room);
		for (i = 0; i < len; i++)
			buf[i] = (char)rnd();
		return len;
	case 5:			/* a long string */
		len = rnd_below((uint32_t)room);
		memset(buf, 'a' + rnd_below(26), len);
		if (len && rnd_below(2))
			buf[len - 1] = '\0';
		return len;
	default: {		/* nested attributes */
		size_t used = 0;
		int n = (int)rnd_below(4);

		while (n-- > 0 && used + NLA_HDRLEN + 64 < room) {
			struct nlattr *a = (struct nlattr *)(buf + used);
			size_t plen = rnd_payload(buf + used + NLA_HDRLEN, 64,
						  depth + 1);

			a->nla_type = (uint16_t)rnd_below(FUZZ_MAX_TYPE);
			if (rnd_below(2))
				a->nla_type |= NLA_F_NESTED;
			a->nla_len = (uint16_t)(NLA_HDRLEN + plen);
			used += NLA_ALIGN(a->nla_len);
		}
		return used;
	}
	}
}

/* Errnos the family's handlers and the netlink core may answer. */
static int expected_errno(int err)
{
	switch (-err) {
	case 0: case EINVAL: case ENOENT: case ENODEV: case EOPNOTSUPP:
	case ERANGE: case EMSGSIZE: case EPERM: case EBUSY: case EEXIST:
	case E2BIG: case ENOTCONN: case EAFNOSUPPORT: case ENOSPC:
	case EAGAIN: case EALREADY: case ESRCH:
		return 1;
	}
	return 0;
}

static int open_client(int *family)
{
	struct timeval tv = { .tv_sec = 10 };
	int fd = genl_open();

	if (fd < 0)
		return fd;
	/* A request the kernel never answers fails instead of hanging. */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	*family = genl_resolve(fd, XRPCRDMA_FAMILY_NAME);
	return fd;
}

TEST(random_requests_to_every_operation)
{
	const char *seed = getenv("XR_FUZZ_SEED");
	const char *iters_env = getenv("XR_FUZZ_ITERS");
	long iters = iters_env ? atol(iters_env) : 50000;
	int answered[128] = { 0 };
	static char payload[1024];
	struct genl_result res;
	struct genl_req req;
	int fd, family, ok = 0;
	long i;

	rng_state = seed ? strtoull(seed, NULL, 0) : 1;
	if (!rng_state)
		rng_state = 1;
	fd = open_client(&family);
	ASSERT_GE(fd, 0);
	ASSERT_GT(family, 0) TH_LOG("is the module loaded?");

	for (i = 0; i < iters; i++) {
		/* Mostly real commands; now and then one past the last. */
		uint8_t cmd = (uint8_t)rnd_below(XRPCRDMA_CMD_MAX + 3);
		uint16_t flags = rnd_below(3) ? 0 : NLM_F_DUMP;
		int n = (int)rnd_below(FUZZ_MAX_ATTRS + 1), rc;

		genl_req_init(&req, (uint16_t)family, cmd, flags);
		while (n-- > 0) {
			uint16_t type = (uint16_t)rnd_below(FUZZ_MAX_TYPE);

			if (rnd_below(4) == 0)
				type |= NLA_F_NESTED;
			genl_req_put(&req, type, payload,
				     rnd_payload(payload, 256, 0));
		}
		rc = genl_run(fd, &req, NULL, NULL, &res);
		ASSERT_EQ(0, rc) TH_LOG("request %ld (cmd %u flags %#x): socket error %d",
					i, cmd, flags, rc);
		EXPECT_TRUE(expected_errno(res.err))
			TH_LOG("request %ld (cmd %u flags %#x): errno %d (%s)",
			       i, cmd, flags, res.err, res.msg);
		if (res.err == 0)
			ok++;
		answered[-res.err < 128 ? -res.err : 0]++;
	}
	TH_LOG("%ld requests: %d succeeded, %d EINVAL, %d ENOENT, %d EOPNOTSUPP, %d EPERM",
	       iters, ok, answered[EINVAL], answered[ENOENT], answered[EOPNOTSUPP],
	       answered[EPERM]);
	/* Some requests must have been good enough to succeed. */
	EXPECT_GT(ok, 0);
	close(fd);

	/* The family still works, on a new socket. */
	fd = open_client(&family);
	ASSERT_GE(fd, 0);
	ASSERT_GT(family, 0);
	genl_req_init(&req, (uint16_t)family, XRPCRDMA_CMD_MODULE_GET, 0);
	ASSERT_EQ(0, genl_run(fd, &req, NULL, NULL, &res));
	EXPECT_EQ(0, res.err);
	EXPECT_EQ(1, res.nreplies);
	close(fd);
}

TEST_HARNESS_MAIN
