// SPDX-License-Identifier: GPL-2.0
#include "hostile_server.hpp"

#include <algorithm>
#include <initializer_list>

namespace rdmactl::hostile {

namespace {

// RFC 8166 procedures and errors, and RFC 5531's reply words.
constexpr uint32_t rdma_msg = 0, rdma_nomsg = 1, rdma_msgp = 2, rdma_error = 4;
constexpr uint32_t err_vers = 1, err_chunk = 2;
constexpr uint32_t rpc_reply = 1;
// A handle no requester gave us: the segments the call never offered.
constexpr uint32_t bogus_handle = 0x0badf00d;

// Big-endian words, appended.
class Words {
public:
    Words &add(uint32_t w)
    {
        bytes_.push_back(uint8_t(w >> 24));
        bytes_.push_back(uint8_t(w >> 16));
        bytes_.push_back(uint8_t(w >> 8));
        bytes_.push_back(uint8_t(w));
        return *this;
    }
    Words &add(std::initializer_list<uint32_t> ws)
    {
        for (uint32_t w : ws)
            add(w);
        return *this;
    }
    // A segment: handle, length, 64-bit offset.
    Words &segment(uint32_t handle, uint32_t length, uint64_t offset)
    {
        return add({handle, length, uint32_t(offset >> 32), uint32_t(offset)});
    }
    // xid, "REPLY", MSG_ACCEPTED, AUTH_NULL verifier, SUCCESS.
    Words &rpc_success(uint32_t xid) { return add({xid, rpc_reply, 0, 0, 0, 0}); }
    std::vector<uint8_t> take() { return std::move(bytes_); }

private:
    std::vector<uint8_t> bytes_;
};

uint32_t word_at(const uint8_t *p)
{
    return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}

const std::vector<ScriptInfo> all_scripts = {
    {Script::Good, "good", "one reply"},
    {Script::Dup, "dup", "the reply twice"},
    {Script::ErrorThenReply, "error-then-reply", "RDMA_ERROR ERR_VERS, then the reply"},
    {Script::ReplyThenError, "reply-then-error", "the reply, then RDMA_ERROR ERR_CHUNK"},
    {Script::StrayXid, "stray-xid", "a reply with an XID no call has, then the reply"},
    {Script::BadVersion, "bad-version", "the reply as version 2, then the reply"},
    {Script::Short, "short", "the reply's first 12 bytes, then the reply"},
    {Script::ShortError, "short-error", "RDMA_ERROR without its code, then the reply"},
    {Script::UnknownProc, "unknown-proc", "procedure 7, then the reply"},
    {Script::Msgp, "msgp", "RDMA_MSGP, then the reply"},
    {Script::WriteList, "write-list", "a Write chunk the call did not offer, then the reply"},
    {Script::ReplyChunk, "reply-chunk", "a Reply chunk the call did not offer, then the reply"},
    {Script::NoMsg, "nomsg", "RDMA_NOMSG into an unoffered Reply chunk, then the reply"},
    {Script::CreditsZero, "credits-zero", "the reply, granting 0 credits"},
    {Script::CreditsHuge, "credits-huge", "the reply, granting 2^32-1 credits"},
    {Script::Oversize, "oversize", "a reply longer than the requester's Receive"},
    {Script::Disconnect, "disconnect", "the reply, then the connection closed"},
};

// The reply to call with chunk lists of our making between the header's
// fixed words and the RPC message.
std::vector<uint8_t> reply_with_lists(const Call &call, uint32_t credits, uint32_t proc,
                                      std::initializer_list<uint32_t> lists, bool rpc = true)
{
    Words w;
    w.add({call.xid, 1, credits, proc}).add(lists);
    if (rpc)
        w.rpc_success(call.xid);
    return w.take();
}

std::vector<uint8_t> hostile_message(Script s, const Call &call, uint32_t credits)
{
    switch (s) {
    case Script::ErrorThenReply:
        return Words().add({call.xid, 1, credits, rdma_error, err_vers, 1, 1}).take();
    case Script::ReplyThenError:
        return Words().add({call.xid, 1, credits, rdma_error, err_chunk}).take();
    case Script::StrayXid:
        return null_reply(~call.xid, credits);
    case Script::BadVersion:
        return null_reply(call.xid, credits, 2);
    case Script::Short: {
        std::vector<uint8_t> m = null_reply(call.xid, credits);
        m.resize(12);
        return m;
    }
    case Script::ShortError:
        return Words().add({call.xid, 1, credits, rdma_error}).take();
    case Script::UnknownProc:
        return null_reply(call.xid, credits, 1, 7);
    case Script::Msgp:
        // RFC 5666's RDMA_MSGP: the three lists, then align and threshold.
        return reply_with_lists(call, credits, rdma_msgp, {0, 0, 0, 4, 1024});
    case Script::WriteList:
        // One Write chunk of one 4096-byte segment, then no Reply chunk.
        return Words()
            .add({call.xid, 1, credits, rdma_msg, 0, 1, 1})
            .segment(bogus_handle, 4096, 0x10000)
            .add({0, 0})
            .rpc_success(call.xid)
            .take();
    case Script::ReplyChunk:
        return Words()
            .add({call.xid, 1, credits, rdma_msg, 0, 0, 1, 1})
            .segment(bogus_handle, 24, 0x10000)
            .rpc_success(call.xid)
            .take();
    case Script::NoMsg:
        return Words()
            .add({call.xid, 1, credits, rdma_nomsg, 0, 0, 1, 1})
            .segment(bogus_handle, 24, 0x10000)
            .take();
    default:
        return {};
    }
}

} // namespace

const std::vector<ScriptInfo> &scripts()
{
    return all_scripts;
}

std::optional<Script> script_by_name(const std::string &name)
{
    for (const ScriptInfo &i : all_scripts)
        if (name == i.name)
            return i.script;
    return std::nullopt;
}

const char *script_name(Script s)
{
    for (const ScriptInfo &i : all_scripts)
        if (i.script == s)
            return i.name;
    return "?";
}

std::optional<Call> parse_call(const uint8_t *msg, size_t len)
{
    if (len < 16)
        return std::nullopt;
    return Call{word_at(msg), word_at(msg + 4), word_at(msg + 8), word_at(msg + 12)};
}

std::vector<uint8_t> null_reply(uint32_t xid, uint32_t credits, uint32_t vers, uint32_t proc)
{
    return Words().add({xid, vers, credits, proc, 0, 0, 0}).rpc_success(xid).take();
}

uint32_t oversize_length(uint32_t peer_recv_size)
{
    return std::max<uint32_t>(peer_recv_size, 1024) + 8192;
}

Plan plan(Script s, bool hostile_turn, const Call &call, const Params &p)
{
    uint32_t credits =
        p.credits ? p.credits : std::clamp<uint32_t>(call.credits, 1, std::max<uint32_t>(p.max_credits, 1));
    Plan out;

    if (!hostile_turn)
        s = Script::Good;
    switch (s) {
    case Script::Good:
        out.messages.push_back(null_reply(call.xid, credits));
        break;
    case Script::Dup:
        out.messages.push_back(null_reply(call.xid, credits));
        out.messages.push_back(null_reply(call.xid, credits));
        break;
    case Script::ReplyThenError:
        out.messages.push_back(null_reply(call.xid, credits));
        out.messages.push_back(hostile_message(s, call, credits));
        break;
    case Script::CreditsZero:
        out.messages.push_back(null_reply(call.xid, 0));
        break;
    case Script::CreditsHuge:
        out.messages.push_back(null_reply(call.xid, UINT32_MAX));
        break;
    case Script::Oversize:
        out.messages.push_back(null_reply(call.xid, credits));
        out.messages.back().resize(oversize_length(p.peer_recv_size));
        break;
    case Script::Disconnect:
        out.messages.push_back(null_reply(call.xid, credits));
        out.disconnect = true;
        break;
    default:
        out.messages.push_back(hostile_message(s, call, credits));
        out.messages.push_back(null_reply(call.xid, credits));
        break;
    }
    return out;
}

} // namespace rdmactl::hostile
