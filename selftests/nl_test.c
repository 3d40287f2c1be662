// SPDX-License-Identifier: GPL-2.0
/*
 * nl_test.c - the xrpcrdma generic netlink family against the live module:
 * every operation, and the errors that bad requests must get. Needs the
 * module loaded and, for the device tests, the RDMA device named by
 * $XR_RDMA_DEV on the network device $XR_NETDEV (the test host sets both).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/xrpcrdma.h>

#include "genl.h"
#include "kselftest_harness.h"

struct port_info {
	uint32_t	number;
	uint32_t	state;
	char		netdev[64];
};

struct dev_info {
	int		seen;
	uint32_t	index;
	char		name[64];
	uint64_t	node_guid;
	uint8_t		usable;
	uint8_t		enabled;
	int		nports;
	struct port_info ports[4];
};

struct dev_list {
	int		n;
	struct dev_info	devs[16];
};

static void copy_str(char *dst, size_t size, const struct nlattr *a)
{
	snprintf(dst, size, "%.*s", (int)genl_attr_len(a),
		 (const char *)genl_attr_data(a));
}

static void parse_port(struct port_info *p, const struct nlattr *nest)
{
	const struct nlattr *a;

	genl_attr_for_each(a, genl_attr_data(nest), genl_attr_len(nest)) {
		switch (genl_attr_type(a)) {
		case XRPCRDMA_A_PORT_NUMBER:
			p->number = *(const uint32_t *)genl_attr_data(a);
			break;
		case XRPCRDMA_A_PORT_STATE:
			p->state = *(const uint32_t *)genl_attr_data(a);
			break;
		case XRPCRDMA_A_PORT_NETDEV:
			copy_str(p->netdev, sizeof(p->netdev), a);
			break;
		}
	}
}

static void parse_device(struct dev_info *d, const struct nlattr *attrs,
			 size_t len)
{
	const struct nlattr *a;

	memset(d, 0, sizeof(*d));
	d->seen = 1;
	genl_attr_for_each(a, attrs, len) {
		switch (genl_attr_type(a)) {
		case XRPCRDMA_A_DEVICE_INDEX:
			d->index = *(const uint32_t *)genl_attr_data(a);
			break;
		case XRPCRDMA_A_DEVICE_NAME:
			copy_str(d->name, sizeof(d->name), a);
			break;
		case XRPCRDMA_A_DEVICE_NODE_GUID:
			memcpy(&d->node_guid, genl_attr_data(a), 8);
			break;
		case XRPCRDMA_A_DEVICE_USABLE:
			d->usable = *(const uint8_t *)genl_attr_data(a);
			break;
		case XRPCRDMA_A_DEVICE_ENABLED:
			d->enabled = *(const uint8_t *)genl_attr_data(a);
			break;
		case XRPCRDMA_A_DEVICE_PORT:
			if (d->nports < 4)
				parse_port(&d->ports[d->nports++], a);
			break;
		}
	}
}

static void device_cb(const struct nlattr *attrs, size_t len, void *arg)
{
	parse_device(arg, attrs, len);
}

static void dump_cb(const struct nlattr *attrs, size_t len, void *arg)
{
	struct dev_list *l = arg;

	if (l->n < 16)
		parse_device(&l->devs[l->n++], attrs, len);
}

struct module_info {
	char		version[64];
	char		build_kernel[128];
	int		nobjects;
	int		device_objects;
	int		svc_xprt_objects;
	int		xprt_objects;	/* client transports */
};

static void module_cb(const struct nlattr *attrs, size_t len, void *arg)
{
	struct module_info *m = arg;
	const struct nlattr *a, *b;

	genl_attr_for_each(a, attrs, len) {
		char name[64] = "";
		uint64_t count = 0;

		switch (genl_attr_type(a)) {
		case XRPCRDMA_A_MODULE_VERSION:
			copy_str(m->version, sizeof(m->version), a);
			break;
		case XRPCRDMA_A_MODULE_BUILD_KERNEL:
			copy_str(m->build_kernel, sizeof(m->build_kernel), a);
			break;
		case XRPCRDMA_A_MODULE_LIVE_OBJECT:
			genl_attr_for_each(b, genl_attr_data(a),
					   genl_attr_len(a)) {
				if (genl_attr_type(b) ==
				    XRPCRDMA_A_LIVE_OBJECT_NAME)
					copy_str(name, sizeof(name), b);
				if (genl_attr_type(b) ==
				    XRPCRDMA_A_LIVE_OBJECT_COUNT)
					memcpy(&count, genl_attr_data(b), 8);
			}
			m->nobjects++;
			if (!strcmp(name, "device"))
				m->device_objects = (int)count;
			if (!strcmp(name, "svc-xprt"))
				m->svc_xprt_objects = (int)count;
			if (!strcmp(name, "xprt"))
				m->xprt_objects = (int)count;
			break;
		}
	}
}

/* One netlink client of the family, with its last request and result. */
struct client {
	int fd;
	int family;
	struct genl_req req;
	struct genl_result res;
};

FIXTURE(nl) {
	struct client c;
	const char *dev;
	const char *netdev;
};

FIXTURE_SETUP(nl)
{
	self->c.fd = genl_open();
	ASSERT_GE(self->c.fd, 0);
	self->c.family = genl_resolve(self->c.fd, XRPCRDMA_FAMILY_NAME);
	ASSERT_GT(self->c.family, 0)
		TH_LOG("family %s not registered: is the module loaded?",
		       XRPCRDMA_FAMILY_NAME);
	self->dev = getenv("XR_RDMA_DEV");
	self->netdev = getenv("XR_NETDEV");
}

FIXTURE_TEARDOWN(nl)
{
	close(self->c.fd);
}

#define NO_DEVICE "XR_RDMA_DEV/XR_NETDEV not set (run in the test host)"

static int get_device(struct client *c, const char *name, struct dev_info *d)
{
	memset(d, 0, sizeof(*d));
	genl_req_init(&c->req, c->family, XRPCRDMA_CMD_DEVICE_GET, 0);
	genl_req_put_str(&c->req, XRPCRDMA_A_DEVICE_NAME, name);
	if (genl_run(c->fd, &c->req, device_cb, d, &c->res))
		return -EIO;
	return c->res.err;
}

static int set_enabled(struct client *c, const char *name, uint8_t on)
{
	genl_req_init(&c->req, c->family, XRPCRDMA_CMD_DEVICE_SET, 0);
	genl_req_put_str(&c->req, XRPCRDMA_A_DEVICE_NAME, name);
	genl_req_put_u8(&c->req, XRPCRDMA_A_DEVICE_ENABLED, on);
	if (genl_run(c->fd, &c->req, NULL, NULL, &c->res))
		return -EIO;
	return c->res.err;
}

/* A plain request of @cmd with no attributes (or a dump with NLM_F_DUMP). */
static int run_plain(struct client *c, uint8_t cmd, uint16_t flags,
		     genl_reply_cb cb, void *arg)
{
	genl_req_init(&c->req, c->family, cmd, flags);
	if (genl_run(c->fd, &c->req, cb, arg, &c->res))
		return -EIO;
	return c->res.err;
}

TEST_F(nl, module_get)
{
	struct module_info m = {};
	struct dev_list l = {};
	struct utsname u;

	ASSERT_EQ(0, run_plain(&self->c, XRPCRDMA_CMD_MODULE_GET, 0,
			       module_cb, &m));
	ASSERT_EQ(1, self->c.res.nreplies);
	EXPECT_NE(0, strlen(m.version));
	ASSERT_EQ(0, uname(&u));
	EXPECT_STREQ(u.release, m.build_kernel);
	EXPECT_GE(m.nobjects, 1);

	/* The device counter counts what the dump shows. */
	ASSERT_EQ(0, run_plain(&self->c, XRPCRDMA_CMD_DEVICE_GET, NLM_F_DUMP,
			       dump_cb, &l));
	EXPECT_EQ(l.n, m.device_objects);
}

TEST_F(nl, device_dump_lists_rdma_device)
{
	struct dev_list l = {};
	int i, found = -1;

	if (!self->dev || !self->netdev)
		SKIP(return, NO_DEVICE);
	ASSERT_EQ(0, run_plain(&self->c, XRPCRDMA_CMD_DEVICE_GET, NLM_F_DUMP,
			       dump_cb, &l));
	for (i = 0; i < l.n; i++) {
		if (!strcmp(l.devs[i].name, self->dev))
			found = i;
		if (i)
			EXPECT_LT(l.devs[i - 1].index, l.devs[i].index);
	}
	ASSERT_GE(found, 0) TH_LOG("%s not in the dump", self->dev);
	EXPECT_NE(0, l.devs[found].node_guid);
	EXPECT_EQ(1, l.devs[found].enabled);
	EXPECT_EQ(1, l.devs[found].usable);
	ASSERT_EQ(1, l.devs[found].nports);
	EXPECT_EQ(1, l.devs[found].ports[0].number);
	EXPECT_EQ(XRPCRDMA_PORT_STATE_ACTIVE, l.devs[found].ports[0].state);
	EXPECT_STREQ(self->netdev, l.devs[found].ports[0].netdev);
}

TEST_F(nl, device_get_matches_dump)
{
	struct dev_list l = {};
	struct dev_info d;
	int i;

	if (!self->dev || !self->netdev)
		SKIP(return, NO_DEVICE);
	ASSERT_EQ(0, run_plain(&self->c, XRPCRDMA_CMD_DEVICE_GET, NLM_F_DUMP,
			       dump_cb, &l));
	ASSERT_GE(l.n, 1);
	for (i = 0; i < l.n; i++) {
		ASSERT_EQ(0, get_device(&self->c, l.devs[i].name, &d));
		EXPECT_EQ(1, self->c.res.nreplies);
		EXPECT_EQ(l.devs[i].index, d.index);
		EXPECT_EQ(l.devs[i].node_guid, d.node_guid);
		EXPECT_EQ(l.devs[i].nports, d.nports);
	}
}

TEST_F(nl, device_get_unknown_device)
{
	struct dev_info d;

	EXPECT_EQ(-ENODEV, get_device(&self->c, "nosuchdev0", &d));
	EXPECT_STREQ("no RDMA device of that name", self->c.res.msg);
	EXPECT_EQ(0, self->c.res.nreplies);
}

TEST_F(nl, device_get_missing_name)
{
	EXPECT_EQ(-EINVAL, run_plain(&self->c, XRPCRDMA_CMD_DEVICE_GET, 0,
				     NULL, NULL));
	EXPECT_STREQ("missing device name attribute", self->c.res.msg);
	EXPECT_EQ(XRPCRDMA_A_DEVICE_NAME, self->c.res.miss_type);
}

TEST_F(nl, device_get_name_too_long)
{
	char name[200];
	struct dev_info d;
	int err;

	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	err = get_device(&self->c, name, &d);
	EXPECT_TRUE(err == -EINVAL || err == -ERANGE) TH_LOG("err %d", err);
	EXPECT_NE(0, strlen(self->c.res.msg));
	EXPECT_EQ(0, self->c.res.nreplies);
}

TEST_F(nl, device_get_name_not_terminated)
{
	genl_req_init(&self->c.req, self->c.family, XRPCRDMA_CMD_DEVICE_GET, 0);
	genl_req_put(&self->c.req, XRPCRDMA_A_DEVICE_NAME, "rxe0", 4);
	ASSERT_EQ(0, genl_run(self->c.fd, &self->c.req, NULL, NULL,
			      &self->c.res));
	EXPECT_EQ(-EINVAL, self->c.res.err);
	EXPECT_NE(0, strlen(self->c.res.msg));
}

TEST_F(nl, unknown_attribute_rejected)
{
	uint32_t junk = 7;

	genl_req_init(&self->c.req, self->c.family, XRPCRDMA_CMD_DEVICE_GET, 0);
	genl_req_put_str(&self->c.req, XRPCRDMA_A_DEVICE_NAME, "rxe0");
	genl_req_put(&self->c.req, XRPCRDMA_A_DEVICE_MAX + 5, &junk,
		     sizeof(junk));
	ASSERT_EQ(0, genl_run(self->c.fd, &self->c.req, NULL, NULL,
			      &self->c.res));
	EXPECT_EQ(-EINVAL, self->c.res.err);
	EXPECT_NE(0, strlen(self->c.res.msg));
}

TEST_F(nl, unknown_command_rejected)
{
	EXPECT_EQ(-EOPNOTSUPP, run_plain(&self->c, XRPCRDMA_CMD_MAX + 1, 0,
					 NULL, NULL));
}

TEST_F(nl, device_set_toggles_enabled)
{
	struct dev_info d;

	if (!self->dev || !self->netdev)
		SKIP(return, NO_DEVICE);
	ASSERT_EQ(0, set_enabled(&self->c, self->dev, 0));
	ASSERT_EQ(0, get_device(&self->c, self->dev, &d));
	EXPECT_EQ(0, d.enabled);
	EXPECT_EQ(0, d.usable);
	ASSERT_EQ(0, set_enabled(&self->c, self->dev, 1));
	ASSERT_EQ(0, get_device(&self->c, self->dev, &d));
	EXPECT_EQ(1, d.enabled);
	EXPECT_EQ(1, d.usable);
}

TEST_F(nl, device_set_out_of_range)
{
	struct dev_info d;

	if (!self->dev || !self->netdev)
		SKIP(return, NO_DEVICE);
	EXPECT_EQ(-ERANGE, set_enabled(&self->c, self->dev, 2));
	EXPECT_NE(0, strlen(self->c.res.msg));
	ASSERT_EQ(0, get_device(&self->c, self->dev, &d));
	EXPECT_EQ(1, d.enabled);
}

TEST_F(nl, device_set_missing_enabled)
{
	if (!self->dev || !self->netdev)
		SKIP(return, NO_DEVICE);
	genl_req_init(&self->c.req, self->c.family, XRPCRDMA_CMD_DEVICE_SET, 0);
	genl_req_put_str(&self->c.req, XRPCRDMA_A_DEVICE_NAME, self->dev);
	ASSERT_EQ(0, genl_run(self->c.fd, &self->c.req, NULL, NULL,
			      &self->c.res));
	EXPECT_EQ(-EINVAL, self->c.res.err);
	EXPECT_STREQ("missing enabled attribute", self->c.res.msg);
	EXPECT_EQ(XRPCRDMA_A_DEVICE_ENABLED, self->c.res.miss_type);
}

TEST_F(nl, device_set_unknown_device)
{
	EXPECT_EQ(-ENODEV, set_enabled(&self->c, "nosuchdev0", 1));
	EXPECT_STREQ("no RDMA device of that name", self->c.res.msg);
}

/* A caller without CAP_NET_ADMIN may look but not change. */
TEST_F(nl, device_set_unprivileged)
{
	const char *dev = self->dev ? self->dev : "rxe0";
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		int fd;

		if (setgid(65534) || setuid(65534))
			_exit(10);
		fd = genl_open();
		if (fd < 0)
			_exit(11);
		self->c.fd = fd;
		if (set_enabled(&self->c, dev, 0) != -EPERM)
			_exit(12);
		/* Reading stays allowed. */
		if (run_plain(&self->c, XRPCRDMA_CMD_MODULE_GET, 0,
			      NULL, NULL))
			_exit(13);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

struct transport_list {
	int		n;
	int		nlisteners;
	uint32_t	ids[64];
	int		with_stats;	/* transports with counters */
	int		bad_roles;	/* roles outside the spec's enum */
};

static void transport_dump_cb(const struct nlattr *attrs, size_t len,
			      void *arg)
{
	struct transport_list *l = arg;
	const struct nlattr *a;

	genl_attr_for_each(a, attrs, len) {
		switch (genl_attr_type(a)) {
		case XRPCRDMA_A_TRANSPORT_ID:
			if (l->n < 64)
				l->ids[l->n] = *(const uint32_t *)genl_attr_data(a);
			break;
		case XRPCRDMA_A_TRANSPORT_ROLE:
			if (*(const uint32_t *)genl_attr_data(a) ==
			    XRPCRDMA_TRANSPORT_ROLE_SERVER_LISTENER)
				l->nlisteners++;
			if (*(const uint32_t *)genl_attr_data(a) >
			    XRPCRDMA_TRANSPORT_ROLE_CLIENT)
				l->bad_roles++;
			break;
		case XRPCRDMA_A_TRANSPORT_STAT:
			l->with_stats++;
			break;
		}
	}
	l->n++;
}

struct stat_list {
	int		n;
	char		names[32][32];
	uint64_t	values[32];
	int		bad;		/* stats without a name or a u64 value */
};

static void stats_cb(const struct nlattr *attrs, size_t len, void *arg)
{
	struct stat_list *l = arg;
	const struct nlattr *a, *b;

	genl_attr_for_each(a, attrs, len) {
		int have_name = 0, have_value = 0;

		if (genl_attr_type(a) != XRPCRDMA_A_STATS_STAT || l->n >= 32)
			continue;
		genl_attr_for_each(b, genl_attr_data(a), genl_attr_len(a)) {
			if (genl_attr_type(b) == XRPCRDMA_A_STAT_NAME) {
				copy_str(l->names[l->n], sizeof(l->names[0]), b);
				have_name = 1;
			}
			if (genl_attr_type(b) == XRPCRDMA_A_STAT_VALUE &&
			    genl_attr_len(b) == 8) {
				memcpy(&l->values[l->n], genl_attr_data(b), 8);
				have_value = 1;
			}
		}
		if (!have_name || !have_value)
			l->bad++;
		l->n++;
	}
}

/* A request of @cmd carrying the transport id @id. */
static int run_with_id(struct client *c, uint8_t cmd, uint32_t id)
{
	genl_req_init(&c->req, c->family, cmd, 0);
	genl_req_put(&c->req, XRPCRDMA_A_TRANSPORT_ID, &id, sizeof(id));
	if (genl_run(c->fd, &c->req, NULL, NULL, &c->res))
		return -EIO;
	return c->res.err;
}

/* Ids are never 0 and, unless the machine ran 4 billion transports, not this. */
#define NO_SUCH_ID	0xfffffff0u

/* Live transports of both roles: server (svc-xprt) and client (xprt). */
static int transport_objects(struct client *c)
{
	struct module_info m = {};

	genl_req_init(&c->req, c->family, XRPCRDMA_CMD_MODULE_GET, 0);
	if (genl_run(c->fd, &c->req, module_cb, &m, &c->res) || c->res.err)
		return -1;
	return m.svc_xprt_objects + m.xprt_objects;
}

TEST_F(nl, transport_get_unknown_id)
{
	EXPECT_EQ(-ENOENT, run_with_id(&self->c, XRPCRDMA_CMD_TRANSPORT_GET,
				       NO_SUCH_ID));
	EXPECT_STREQ("no transport with that id", self->c.res.msg);
	EXPECT_EQ(0, self->c.res.nreplies);
	EXPECT_EQ(-ENOENT, run_with_id(&self->c, XRPCRDMA_CMD_TRANSPORT_GET, 0));
	EXPECT_STREQ("no transport with that id", self->c.res.msg);
}

TEST_F(nl, transport_get_missing_id)
{
	EXPECT_EQ(-EINVAL, run_plain(&self->c, XRPCRDMA_CMD_TRANSPORT_GET, 0,
				     NULL, NULL));
	EXPECT_STREQ("missing transport id attribute", self->c.res.msg);
	EXPECT_EQ(XRPCRDMA_A_TRANSPORT_ID, self->c.res.miss_type);
}

TEST_F(nl, transport_get_id_wrong_size)
{
	uint8_t id = 1;

	genl_req_init(&self->c.req, self->c.family,
		      XRPCRDMA_CMD_TRANSPORT_GET, 0);
	genl_req_put(&self->c.req, XRPCRDMA_A_TRANSPORT_ID, &id, sizeof(id));
	ASSERT_EQ(0, genl_run(self->c.fd, &self->c.req, NULL, NULL,
			      &self->c.res));
	EXPECT_TRUE(self->c.res.err == -EINVAL || self->c.res.err == -ERANGE)
		TH_LOG("err %d", self->c.res.err);
	EXPECT_NE(0, strlen(self->c.res.msg));
}

/*
 * The dump lists what the live-object counters count, servers and
 * clients alike (idle: no connection waits to be accepted), maybe
 * nothing, with known roles, and each transport id answers a "do"
 * request.
 */
TEST_F(nl, transport_dump_matches_live_objects)
{
	struct transport_list l = {};
	int i, live;

	live = transport_objects(&self->c);
	ASSERT_GE(live, 0);
	ASSERT_EQ(0, run_plain(&self->c, XRPCRDMA_CMD_TRANSPORT_GET, NLM_F_DUMP,
			       transport_dump_cb, &l));
	EXPECT_EQ(live, l.n);
	EXPECT_EQ(0, l.bad_roles);
	for (i = 0; i < l.n && i < 64; i++) {
		if (i)
			EXPECT_LT(l.ids[i - 1], l.ids[i]);
		EXPECT_EQ(0, run_with_id(&self->c, XRPCRDMA_CMD_TRANSPORT_GET,
					 l.ids[i]));
		EXPECT_EQ(1, self->c.res.nreplies);
	}
}

TEST_F(nl, listener_dump_lists_listeners_only)
{
	struct transport_list all = {}, l = {};

	ASSERT_EQ(0, run_plain(&self->c, XRPCRDMA_CMD_TRANSPORT_GET, NLM_F_DUMP,
			       transport_dump_cb, &all));
	ASSERT_EQ(0, run_plain(&self->c, XRPCRDMA_CMD_LISTENER_GET, NLM_F_DUMP,
			       transport_dump_cb, &l));
	EXPECT_EQ(all.nlisteners, l.n);
	EXPECT_EQ(l.n, l.nlisteners);
	EXPECT_EQ(0, l.with_stats);
}

TEST_F(nl, listener_get_unknown_id)
{
	EXPECT_EQ(-ENOENT, run_with_id(&self->c, XRPCRDMA_CMD_LISTENER_GET,
				       NO_SUCH_ID));
	EXPECT_STREQ("no transport with that id", self->c.res.msg);
}

TEST_F(nl, listener_del_unknown_id)
{
	EXPECT_EQ(-ENOENT, run_with_id(&self->c, XRPCRDMA_CMD_LISTENER_DEL,
				       NO_SUCH_ID));
	EXPECT_STREQ("no transport with that id", self->c.res.msg);
}

TEST_F(nl, listener_del_missing_id)
{
	EXPECT_EQ(-EINVAL, run_plain(&self->c, XRPCRDMA_CMD_LISTENER_DEL, 0,
				     NULL, NULL));
	EXPECT_STREQ("missing transport id attribute", self->c.res.msg);
	EXPECT_EQ(XRPCRDMA_A_TRANSPORT_ID, self->c.res.miss_type);
}

/* Without CAP_NET_ADMIN: refused before the id is even looked at. */
TEST_F(nl, listener_del_unprivileged)
{
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		int fd;

		if (setgid(65534) || setuid(65534))
			_exit(10);
		fd = genl_open();
		if (fd < 0)
			_exit(11);
		self->c.fd = fd;
		if (run_with_id(&self->c, XRPCRDMA_CMD_LISTENER_DEL,
				NO_SUCH_ID) != -EPERM)
			_exit(12);
		/* Looking stays allowed. */
		if (run_plain(&self->c, XRPCRDMA_CMD_TRANSPORT_GET, NLM_F_DUMP,
			      NULL, NULL) ||
		    run_plain(&self->c, XRPCRDMA_CMD_STATS_GET, 0, NULL, NULL))
			_exit(13);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* Every server counter, by name, in the order of stats.c's table. */
TEST_F(nl, stats_get_lists_every_counter)
{
	static const char * const names[] = {
		"calls-received", "replies-inline", "replies-write-chunk",
		"replies-reply-chunk", "rdma-read-bytes", "rdma-write-bytes",
		"sq-starves", "send-errors", "recv-errors", "bad-headers",
		"rdma-errors-sent", "bc-calls-sent", "bc-replies-received",
		"sends-signaled",
	};
	struct stat_list l = {};
	size_t i;

	ASSERT_EQ(0, run_plain(&self->c, XRPCRDMA_CMD_STATS_GET, 0,
			       stats_cb, &l));
	ASSERT_EQ(1, self->c.res.nreplies);
	EXPECT_EQ(0, l.bad);
	ASSERT_GE(l.n, (int)ARRAY_SIZE(names));
	for (i = 0; i < ARRAY_SIZE(names); i++)
		EXPECT_STREQ(names[i], l.names[i]);
	/* Every reply counted went to a call counted. */
	EXPECT_LE(l.values[1], l.values[0]);
}

TEST_HARNESS_MAIN
