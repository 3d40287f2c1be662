/* SPDX-License-Identifier: GPL-2.0 */
/*
 * genl.h - a minimal generic netlink client for the selftests, written on
 * raw sockets so that the tests check the kernel independently of
 * rdmactl's libnl code, and can send malformed requests on purpose.
 */
#ifndef _XR_SELFTEST_GENL_H
#define _XR_SELFTEST_GENL_H

#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>

#define GENL_BUF_SIZE	65536

struct genl_req {
	char		buf[4096];
	size_t		len;
};

/* Result of one request: the kernel's errno and extended-ack message. */
struct genl_result {
	int		err;		/* 0 or a negative errno */
	char		msg[256];	/* extack message, "" when none */
	uint32_t	miss_type;	/* NLMSGERR_ATTR_MISS_TYPE, 0 when none */
	int		nreplies;	/* data messages received */
};

/* Called for each data message of a reply; attributes start at @attrs. */
typedef void (*genl_reply_cb)(const struct nlattr *attrs, size_t len,
			      void *arg);

int genl_open(void);
int genl_resolve(int fd, const char *name);
void genl_req_init(struct genl_req *req, uint16_t family, uint8_t cmd,
		   uint16_t flags);
void genl_req_put(struct genl_req *req, uint16_t type, const void *data,
		  size_t len);
void genl_req_put_str(struct genl_req *req, uint16_t type, const char *s);
void genl_req_put_u8(struct genl_req *req, uint16_t type, uint8_t v);
int genl_run(int fd, struct genl_req *req, genl_reply_cb cb, void *arg,
	     struct genl_result *res);

/* Walking attributes: stop at the first one that overruns @end. */
static inline int genl_attr_ok(const struct nlattr *a, const void *end)
{
	const char *p = (const char *)a;

	return p + NLA_HDRLEN <= (const char *)end &&
	       a->nla_len >= NLA_HDRLEN &&
	       p + a->nla_len <= (const char *)end;
}

static inline const struct nlattr *genl_attr_next(const struct nlattr *a)
{
	return (const struct nlattr *)((const char *)a + NLA_ALIGN(a->nla_len));
}

static inline const void *genl_attrs_end(const void *head, size_t len)
{
	return (const char *)head + len;
}

#define genl_attr_for_each(pos, head, len)				\
	for (pos = (head); genl_attr_ok(pos, genl_attrs_end(head, len));	\
	     pos = genl_attr_next(pos))

static inline const void *genl_attr_data(const struct nlattr *a)
{
	return (const char *)a + NLA_HDRLEN;
}

static inline size_t genl_attr_len(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

static inline int genl_attr_type(const struct nlattr *a)
{
	return a->nla_type & NLA_TYPE_MASK;
}

#endif /* _XR_SELFTEST_GENL_H */
