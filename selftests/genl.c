// SPDX-License-Identifier: GPL-2.0
/*
 * genl.c - the minimal generic netlink client of the selftests (genl.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/genetlink.h>

#include "genl.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

int genl_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int one = 1;
	int fd;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

void genl_req_init(struct genl_req *req, uint16_t family, uint8_t cmd,
		   uint16_t flags)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)req->buf;
	struct genlmsghdr *gh;

	memset(req->buf, 0, sizeof(req->buf));
	nlh->nlmsg_type = family;
	/* A dump ends with NLMSG_DONE; anything else with an ACK. */
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	if (!(flags & NLM_F_DUMP))
		nlh->nlmsg_flags |= NLM_F_ACK;
	nlh->nlmsg_seq = 1;
	gh = (struct genlmsghdr *)NLMSG_DATA(nlh);
	gh->cmd = cmd;
	gh->version = 1;
	req->len = NLMSG_LENGTH(GENL_HDRLEN);
	nlh->nlmsg_len = req->len;
}

void genl_req_put(struct genl_req *req, uint16_t type, const void *data,
		  size_t len)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)req->buf;
	struct nlattr *a = (struct nlattr *)(req->buf + NLMSG_ALIGN(req->len));

	if (NLMSG_ALIGN(req->len) + NLA_HDRLEN + NLA_ALIGN(len) >
	    sizeof(req->buf))
		return;
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((char *)a + NLA_HDRLEN, data, len);
	req->len = NLMSG_ALIGN(req->len) + NLA_ALIGN(a->nla_len);
	nlh->nlmsg_len = req->len;
}

void genl_req_put_str(struct genl_req *req, uint16_t type, const char *s)
{
	genl_req_put(req, type, s, strlen(s) + 1);
}

void genl_req_put_u8(struct genl_req *req, uint16_t type, uint8_t v)
{
	genl_req_put(req, type, &v, sizeof(v));
}

/* Pull the extended-ack TLVs out of an error message. */
static void genl_parse_extack(const struct nlmsghdr *nlh,
			      struct genl_result *res)
{
	const struct nlmsgerr *e = NLMSG_DATA(nlh);
	const struct nlattr *a;
	size_t off, len;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	off = sizeof(*e);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(e->msg);
	if (NLMSG_HDRLEN + off >= nlh->nlmsg_len)
		return;
	len = nlh->nlmsg_len - NLMSG_HDRLEN - off;
	genl_attr_for_each(a, (const struct nlattr *)((const char *)e + off),
			   len) {
		if (genl_attr_type(a) == NLMSGERR_ATTR_MSG)
			snprintf(res->msg, sizeof(res->msg), "%.*s",
				 (int)genl_attr_len(a),
				 (const char *)genl_attr_data(a));
		else if (genl_attr_type(a) == NLMSGERR_ATTR_MISS_TYPE &&
			 genl_attr_len(a) == sizeof(uint32_t))
			memcpy(&res->miss_type, genl_attr_data(a),
			       sizeof(uint32_t));
	}
}

/*
 * Send @req and read until its ACK (or NLMSG_DONE and ACK of a dump),
 * calling @cb for each data message. Returns 0 when the exchange went
 * through (the kernel's verdict is in @res), or a negative errno when the
 * socket failed.
 */
int genl_run(int fd, struct genl_req *req, genl_reply_cb cb, void *arg,
	     struct genl_result *res)
{
	static char buf[GENL_BUF_SIZE];
	bool done = false;

	memset(res, 0, sizeof(*res));
	if (send(fd, req->buf, req->len, 0) != (ssize_t)req->len)
		return -errno;

	while (!done) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nlh;

		if (n < 0)
			return -errno;
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, (size_t)n);
		     nlh = NLMSG_NEXT(nlh, n)) {
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(nlh);

				res->err = e->error;
				genl_parse_extack(nlh, res);
				done = true;
				break;
			}
			if (nlh->nlmsg_type == NLMSG_DONE) {
				const int *e = NLMSG_DATA(nlh);

				/* The end of a dump, with its verdict. */
				res->err = *e;
				done = true;
				break;
			}
			res->nreplies++;
			if (cb)
				cb((const struct nlattr *)((char *)NLMSG_DATA(nlh) +
							   GENL_HDRLEN),
				   nlh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN),
				   arg);
		}
	}
	return 0;
}

struct resolve_arg {
	int id;
};

static void resolve_cb(const struct nlattr *attrs, size_t len, void *arg)
{
	struct resolve_arg *ra = arg;
	const struct nlattr *a;

	genl_attr_for_each(a, attrs, len)
		if (genl_attr_type(a) == CTRL_ATTR_FAMILY_ID)
			ra->id = *(const uint16_t *)genl_attr_data(a);
}

/* Family id of @name, or a negative errno (-ENOENT when not registered). */
int genl_resolve(int fd, const char *name)
{
	struct resolve_arg ra = { .id = -ENOENT };
	struct genl_result res;
	struct genl_req req;
	int err;

	genl_req_init(&req, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0);
	genl_req_put_str(&req, CTRL_ATTR_FAMILY_NAME, name);
	err = genl_run(fd, &req, resolve_cb, &ra, &res);
	if (err)
		return err;
	return res.err ? res.err : ra.id;
}
