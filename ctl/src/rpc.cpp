// SPDX-License-Identifier: GPL-2.0
#include "rpc.hpp"

namespace rdmactl::rpc {

namespace {

constexpr uint32_t auth_none = 0;
constexpr uint32_t max_auth_bytes = 400; // RFC 5531: opaque body<400>

void put_u32(std::vector<uint8_t> &out, uint32_t v)
{
    out.push_back(uint8_t(v >> 24));
    out.push_back(uint8_t(v >> 16));
    out.push_back(uint8_t(v >> 8));
    out.push_back(uint8_t(v));
}

// Reads XDR words from a byte range, remembering the first failure.
class Reader {
public:
    Reader(const uint8_t *data, size_t len) : data_(data), len_(len) {}

    bool u32(uint32_t &v)
    {
        if (pos_ > len_ || len_ - pos_ < 4)
            return false;
        const uint8_t *p = data_ + pos_;
        v = uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
        pos_ += 4;
        return true;
    }

    // An opaque of n bytes padded to a whole number of words.
    bool skip_opaque(uint32_t n)
    {
        size_t padded = (size_t(n) + 3) & ~size_t(3);
        if (padded > len_ - pos_)
            return false;
        pos_ += padded;
        return true;
    }

private:
    const uint8_t *data_;
    size_t len_;
    size_t pos_ = 0;
};

Reply malformed(Reply r, const std::string &problem)
{
    r.form = Reply::Form::Malformed;
    r.problem = problem;
    return r;
}

const char *accept_stat_name(uint32_t s)
{
    switch (s) {
    case 0:
        return "SUCCESS";
    case 1:
        return "PROG_UNAVAIL";
    case 2:
        return "PROG_MISMATCH";
    case 3:
        return "PROC_UNAVAIL";
    case 4:
        return "GARBAGE_ARGS";
    case 5:
        return "SYSTEM_ERR";
    }
    return nullptr;
}

} // namespace

std::vector<uint8_t> encode_null_call(uint32_t xid, uint32_t program, uint32_t version)
{
    std::vector<uint8_t> out;
    out.reserve(40);
    put_u32(out, xid);
    put_u32(out, msg_call);
    put_u32(out, rpc_version);
    put_u32(out, program);
    put_u32(out, version);
    put_u32(out, 0);         // procedure 0: NULL
    put_u32(out, auth_none); // credential
    put_u32(out, 0);
    put_u32(out, auth_none); // verifier
    put_u32(out, 0);
    return out;
}

Reply parse_reply(const uint8_t *data, size_t len)
{
    Reply r;
    Reader in(data, data ? len : 0);
    uint32_t mtype, stat, flavor, length;

    if (!in.u32(r.xid))
        return malformed(r, "shorter than an xid");
    r.has_xid = true;
    if (!in.u32(mtype))
        return malformed(r, "no message type");
    if (mtype != msg_reply)
        return malformed(r, mtype == msg_call ? "a CALL, not a REPLY"
                                              : "message type " + std::to_string(mtype));
    if (!in.u32(stat))
        return malformed(r, "no reply_stat");
    if (stat == 0) {
        if (!in.u32(flavor) || !in.u32(length))
            return malformed(r, "truncated verifier");
        if (length > max_auth_bytes)
            return malformed(r, "verifier of " + std::to_string(length) + " bytes");
        if (!in.skip_opaque(length))
            return malformed(r, "truncated verifier body");
        if (!in.u32(r.accept_stat))
            return malformed(r, "no accept_stat");
        if (!accept_stat_name(r.accept_stat))
            return malformed(r, "accept_stat " + std::to_string(r.accept_stat));
        if (r.accept_stat == 2 && (!in.u32(r.low) || !in.u32(r.high)))
            return malformed(r, "truncated PROG_MISMATCH");
        r.form = Reply::Form::Accepted;
        return r;
    }
    if (stat != 1)
        return malformed(r, "reply_stat " + std::to_string(stat));
    if (!in.u32(r.reject_stat))
        return malformed(r, "no reject_stat");
    switch (r.reject_stat) {
    case 0:
        if (!in.u32(r.low) || !in.u32(r.high))
            return malformed(r, "truncated RPC_MISMATCH");
        break;
    case 1:
        if (!in.u32(r.auth_stat))
            return malformed(r, "truncated AUTH_ERROR");
        break;
    default:
        return malformed(r, "reject_stat " + std::to_string(r.reject_stat));
    }
    r.form = Reply::Form::Denied;
    return r;
}

std::string Reply::describe() const
{
    auto range = [this] { return ' ' + std::to_string(low) + '-' + std::to_string(high); };
    switch (form) {
    case Form::Accepted: {
        std::string text = accept_stat_name(accept_stat);
        return accept_stat == 2 ? text + range() : text;
    }
    case Form::Denied:
        if (reject_stat == 0)
            return "denied RPC_MISMATCH" + range();
        return "denied AUTH_ERROR " + std::to_string(auth_stat);
    case Form::Malformed:
        break;
    }
    return "malformed: " + problem;
}

} // namespace rdmactl::rpc
