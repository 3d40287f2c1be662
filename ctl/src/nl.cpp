// SPDX-License-Identifier: GPL-2.0
#include "nl.hpp"

#include <array>
#include <cstring>
#include <exception>
#include <new>

#include <sys/socket.h>

#include <netlink/attr.h>
#include <netlink/errno.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "errors.hpp"

namespace rdmactl {

namespace {

using AckPolicy = std::array<nla_policy, NLMSGERR_ATTR_MAX + 1>;

const AckPolicy &ack_policy()
{
    static const AckPolicy policy = [] {
        AckPolicy p{};
        p[NLMSGERR_ATTR_MSG] = {NLA_STRING, 0, 0};
        p[NLMSGERR_ATTR_OFFS] = {NLA_U32, sizeof(uint32_t), sizeof(uint32_t)};
        p[NLMSGERR_ATTR_MISS_TYPE] = {NLA_U32, sizeof(uint32_t), sizeof(uint32_t)};
        p[NLMSGERR_ATTR_MISS_NEST] = {NLA_U32, sizeof(uint32_t), sizeof(uint32_t)};
        return p;
    }();
    return policy;
}

std::optional<uint32_t> optional_u32(const nlattr *attr)
{
    if (!attr)
        return std::nullopt;
    return nla_get_u32(attr);
}

// Parses the NLMSGERR_ATTR_* attributes in [begin, end).
ExtAck parse_ack_attrs(const unsigned char *begin, const unsigned char *end)
{
    ExtAck ack;
    if (end - begin < static_cast<std::ptrdiff_t>(NLA_HDRLEN))
        return ack;

    std::array<nlattr *, NLMSGERR_ATTR_MAX + 1> tb{};
    auto *head = reinterpret_cast<nlattr *>(const_cast<unsigned char *>(begin));
    if (nla_parse(tb.data(), NLMSGERR_ATTR_MAX, head, static_cast<int>(end - begin),
                  ack_policy().data()) < 0)
        return ack;

    if (tb[NLMSGERR_ATTR_MSG])
        ack.message = nla_get_string(tb[NLMSGERR_ATTR_MSG]);
    ack.offset = optional_u32(tb[NLMSGERR_ATTR_OFFS]);
    ack.missing_type = optional_u32(tb[NLMSGERR_ATTR_MISS_TYPE]);
    ack.missing_nest = optional_u32(tb[NLMSGERR_ATTR_MISS_NEST]);
    return ack;
}

// Offset, from the start of the payload, of the extended ACK attributes of an
// NLMSG_ERROR: after struct nlmsgerr and, unless NLM_F_CAPPED, after the
// payload of the echoed request (whose header is part of struct nlmsgerr).
size_t error_attrs_offset(const nlmsghdr *nlh, const nlmsgerr &err)
{
    size_t offset = sizeof(nlmsgerr);
    if (!(nlh->nlmsg_flags & NLM_F_CAPPED) && err.msg.nlmsg_len > NLMSG_HDRLEN)
        offset += NLMSG_ALIGN(err.msg.nlmsg_len - NLMSG_HDRLEN);
    return offset;
}

} // namespace

Status decode_status(const nlmsghdr *nlh)
{
    const size_t len = nlh->nlmsg_len;
    if (len < NLMSG_HDRLEN)
        throw ProtocolError("netlink message shorter than its header");

    const auto *payload = reinterpret_cast<const unsigned char *>(nlh) + NLMSG_HDRLEN;
    const size_t payload_len = len - NLMSG_HDRLEN;
    Status status;
    size_t attrs_offset = 0;

    if (nlh->nlmsg_type == NLMSG_ERROR) {
        nlmsgerr err;
        if (payload_len < sizeof(err))
            throw ProtocolError("truncated netlink error message");
        std::memcpy(&err, payload, sizeof(err));
        status.error = err.error;
        attrs_offset = error_attrs_offset(nlh, err);
    } else if (nlh->nlmsg_type == NLMSG_DONE) {
        // Old kernels may end a dump with a bare NLMSG_DONE.
        if (payload_len < sizeof(int))
            return status;
        std::memcpy(&status.error, payload, sizeof(int));
        attrs_offset = NLMSG_ALIGN(sizeof(int));
    } else {
        throw ProtocolError("expected an error or done message, got type " +
                            std::to_string(nlh->nlmsg_type));
    }

    if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && attrs_offset < payload_len)
        status.ack = parse_ack_attrs(payload + attrs_offset, payload + payload_len);
    return status;
}

std::string describe(const ExtAck &ack)
{
    if (!ack.message.empty())
        return ack.message;
    if (ack.missing_type)
        return "missing attribute (type " + std::to_string(*ack.missing_type) + ")";
    return {};
}

namespace {

// State shared with the libnl callbacks of one Socket::transact().
struct Exchange {
    uint32_t seq = 0;
    uint16_t type = 0;
    const ReplyHandler *on_reply = nullptr;
    std::vector<std::string> *warnings = nullptr;
    bool done = false;
    std::optional<Status> failure;
    std::exception_ptr exception;
};

// The callbacks run inside libnl's C code, which exceptions must not cross:
// they are caught here and rethrown once libnl has returned.
template <typename F> int guarded(Exchange &ex, F &&fn) noexcept
{
    try {
        return fn();
    } catch (...) {
        ex.exception = std::current_exception();
        ex.done = true;
        return NL_STOP;
    }
}

// Ends the exchange with what an ACK, an error or a NLMSG_DONE said.
int finish(Exchange &ex, Status status)
{
    if (status.error != 0)
        ex.failure = std::move(status);
    else if (!status.ack.message.empty())
        ex.warnings->push_back(status.ack.message);
    ex.done = true;
    return NL_STOP;
}

Exchange &exchange(void *arg)
{
    return *static_cast<Exchange *>(arg);
}

// Skips whatever does not answer our request (e.g. leftovers of an earlier one).
int on_seq_check(nl_msg *msg, void *arg)
{
    return nlmsg_hdr(msg)->nlmsg_seq == exchange(arg).seq ? NL_OK : NL_SKIP;
}

int on_valid(nl_msg *msg, void *arg)
{
    Exchange &ex = exchange(arg);
    return guarded(ex, [&] {
        const nlmsghdr *nlh = nlmsg_hdr(msg);
        if (nlh->nlmsg_type != ex.type)
            return NL_SKIP;
        (*ex.on_reply)(nlh);
        return NL_OK;
    });
}

// NLMSG_ERROR with error 0 (ACK) and NLMSG_DONE (end of a dump, maybe failed).
int on_end(nl_msg *msg, void *arg)
{
    Exchange &ex = exchange(arg);
    return guarded(ex, [&] { return finish(ex, decode_status(nlmsg_hdr(msg))); });
}

// NLMSG_ERROR with an error. libnl passes the payload of the message it
// received, in its receive buffer, after checking that the message's
// nlmsg_len fits the datagram: the header is right before the payload.
int on_error(sockaddr_nl *, nlmsgerr *err, void *arg)
{
    Exchange &ex = exchange(arg);
    const auto *nlh =
        reinterpret_cast<const nlmsghdr *>(reinterpret_cast<const char *>(err) - NLMSG_HDRLEN);
    return guarded(ex, [&] { return finish(ex, decode_status(nlh)); });
}

CbPtr make_callbacks(Exchange &ex)
{
    CbPtr cb(nl_cb_alloc(NL_CB_DEFAULT));
    if (!cb)
        throw std::bad_alloc();
    nl_cb_set(cb.get(), NL_CB_SEQ_CHECK, NL_CB_CUSTOM, on_seq_check, &ex);
    nl_cb_set(cb.get(), NL_CB_VALID, NL_CB_CUSTOM, on_valid, &ex);
    nl_cb_set(cb.get(), NL_CB_ACK, NL_CB_CUSTOM, on_end, &ex);
    nl_cb_set(cb.get(), NL_CB_FINISH, NL_CB_CUSTOM, on_end, &ex);
    nl_cb_err(cb.get(), NL_CB_CUSTOM, on_error, &ex);
    return cb;
}

} // namespace

Socket::Socket() : sk_(nl_socket_alloc())
{
    if (!sk_)
        throw std::bad_alloc();
    int rc = genl_connect(sk_.get());
    if (rc < 0)
        throw NetlinkError("cannot open a generic netlink socket", rc);

    // Extended ACKs carry the kernel's error messages. A kernel without them
    // refuses the option; errors then come without a message.
    int one = 1;
    (void)setsockopt(nl_socket_get_fd(sk_.get()), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));

    // Size the receive buffer from each datagram, so no reply is truncated.
    nl_socket_enable_msg_peek(sk_.get());

    // Requests choose their flags: NLM_F_ACK for "do", none for dumps. This
    // also turns off libnl's own sequence check; on_seq_check does it.
    nl_socket_disable_auto_ack(sk_.get());
}

int Socket::resolve_family(const std::string &name)
{
    int id = genl_ctrl_resolve(sk_.get(), name.c_str());
    if (id == -NLE_OBJ_NOTFOUND)
        throw FamilyNotFound(name);
    if (id < 0)
        throw NetlinkError("cannot resolve generic netlink family \"" + name + "\"", id);
    return id;
}

int Socket::resolve_group(const std::string &family, const std::string &group)
{
    int id = genl_ctrl_resolve_grp(sk_.get(), family.c_str(), group.c_str());
    if (id == -NLE_OBJ_NOTFOUND)
        throw FamilyNotFound(family);
    if (id < 0)
        throw NetlinkError("cannot resolve multicast group \"" + group + "\" of \"" + family + "\"",
                           id);
    return id;
}

void Socket::transact(MsgPtr request, const ReplyHandler &on_reply)
{
    int rc = nl_send_auto(sk_.get(), request.get());
    if (rc < 0)
        throw NetlinkError("cannot send request", rc);

    Exchange ex;
    ex.seq = nlmsg_hdr(request.get())->nlmsg_seq;
    ex.type = nlmsg_hdr(request.get())->nlmsg_type;
    ex.on_reply = &on_reply;
    ex.warnings = &warnings_;
    CbPtr cb = make_callbacks(ex);

    while (!ex.done) {
        rc = nl_recvmsgs_report(sk_.get(), cb.get());
        if (ex.exception)
            std::rethrow_exception(ex.exception);
        if (ex.failure) {
            int error = ex.failure->error;
            throw KernelError(error < 0 ? -error : error, describe(ex.failure->ack));
        }
        // A dump that the kernel marked NLM_F_DUMP_INTR may have missed
        // or repeated objects that changed while it ran.
        if (rc == -NLE_DUMP_INTR)
            throw Error("netlink: the dump was interrupted by a concurrent change, try again");
        if (rc < 0)
            throw NetlinkError("cannot receive reply", rc);
        if (rc == 0 && !ex.done)
            throw Error("netlink: the socket closed before the reply was complete");
    }
}

std::vector<std::string> Socket::take_warnings()
{
    std::vector<std::string> taken;
    taken.swap(warnings_);
    return taken;
}

} // namespace rdmactl
