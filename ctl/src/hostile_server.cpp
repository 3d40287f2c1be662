// SPDX-License-Identifier: GPL-2.0
#include "hostile_server.hpp"

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <memory>

extern "C" {
#include "proto.h"
}

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
    {Script::Overlong, "overlong",
     "the reply padded with zeros to 1024 bytes, past what the call expects"},
    {Script::Disconnect, "disconnect", "the reply, then the connection closed"},
    {Script::MsgUnusedChunk, "msg-unused-chunk",
     "with a Reply chunk: RDMA_MSG, the chunk returned unused (valid)"},
    {Script::MsgUsedChunk, "msg-used-chunk",
     "with a Reply chunk: RDMA_MSG saying 24 bytes went into it, then the reply"},
    {Script::ChunkOverclaim, "chunk-overclaim",
     "with a Reply chunk: 4096 bytes claimed past its first segment, then the reply"},
    {Script::ChunkWrongHandle, "chunk-wrong-handle",
     "with a Reply chunk: its segment under another handle, then the reply"},
    {Script::ChunkEmpty, "chunk-empty", "with a Reply chunk: nothing written, then the reply"},
    {Script::WritePastChunk, "write-past-chunk",
     "with a Reply chunk: an RDMA Write 4096 bytes past its first segment"},
};

// The 24-byte RPC reply to a NULL call.
std::vector<uint8_t> rpc_null_success(uint32_t xid)
{
    return Words().rpc_success(xid).take();
}

// A header whose Reply chunk is the call's, each segment saying it
// received lengths[i] bytes (0 past the vector's end), under handle ^
// flip.
std::vector<uint8_t> reply_chunk_header(const Call &call, uint32_t credits, uint32_t proc,
                                        const std::vector<uint32_t> &lengths,
                                        uint32_t flip = 0)
{
    Words w;
    w.add({call.xid, 1, credits, proc, 0, 0, 1, uint32_t(call.reply_chunk.size())});
    for (size_t i = 0; i < call.reply_chunk.size(); i++) {
        const Segment &s = call.reply_chunk[i];
        w.segment(s.handle ^ flip, i < lengths.size() ? lengths[i] : 0, s.offset);
    }
    return w.take();
}

// The reply in the call's Reply chunk: the Write of the RPC reply into the
// first segment, and the RDMA_NOMSG that says so.
void reply_in_chunk(const Call &call, uint32_t credits, Plan &out)
{
    const Segment &first = call.reply_chunk.front();

    out.writes.push_back({first.handle, first.offset, rpc_null_success(call.xid)});
    out.messages.push_back(reply_chunk_header(call, credits, rdma_nomsg, {24}));
}

// The scripts for a call that offers a Reply chunk; false for the others.
bool plan_chunk(Script s, const Call &call, uint32_t credits, Plan &out)
{
    const Segment &first = call.reply_chunk.front();
    std::vector<uint8_t> m;

    switch (s) {
    case Script::MsgUnusedChunk:
    case Script::MsgUsedChunk: {
        std::vector<uint8_t> rpc = rpc_null_success(call.xid);
        std::vector<uint32_t> lengths;

        if (s == Script::MsgUsedChunk)
            lengths.push_back(24);
        m = reply_chunk_header(call, credits, rdma_msg, lengths);
        m.insert(m.end(), rpc.begin(), rpc.end());
        out.messages.push_back(m);
        if (s == Script::MsgUnusedChunk)
            return true;
        break;
    }
    case Script::ChunkOverclaim:
        out.messages.push_back(
            reply_chunk_header(call, credits, rdma_nomsg, {first.length + 4096}));
        break;
    case Script::ChunkWrongHandle:
        out.messages.push_back(reply_chunk_header(call, credits, rdma_nomsg, {24}, 0xffff));
        break;
    case Script::ChunkEmpty:
        out.messages.push_back(reply_chunk_header(call, credits, rdma_nomsg, {}));
        break;
    case Script::WritePastChunk:
        out.writes.push_back({first.handle, first.offset,
                              std::vector<uint8_t>(size_t(first.length) + 4096, 0x5a)});
        return true;
    default:
        return false;
    }
    // The bad message first, then the reply where it belongs (its Write
    // goes out before either message).
    reply_in_chunk(call, credits, out);
    return true;
}

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

// What a responder accepts in a call: the codec's maxima.
constexpr xr_limits call_limits = {
    XR_MAX_SEGS,         // lm_max_read_segs
    XR_MAX_WRITE_CHUNKS, // lm_max_write_chunks
    XR_MAX_SEGS,         // lm_max_chunk_segs
    XR_MAX_SEGS,         // lm_max_segs
    UINT32_MAX,          // lm_max_chunk_len
    0,                   // lm_flags: a call
};

std::optional<Call> parse_call(const uint8_t *msg, size_t len)
{
    if (len < 16)
        return std::nullopt;
    Call call{word_at(msg), word_at(msg + 4), word_at(msg + 8), word_at(msg + 12), {}};

    // The decoder reads whole aligned words: its own copy.
    std::vector<uint32_t> words((len + 3) / 4 + 1, 0);
    std::memcpy(words.data(), msg, len);
    auto storage = std::make_unique<xr_hdr_buf>();
    xr_hdr *hdr = xr_hdr_buf_init(storage.get());
    if (xr_hdr_decode(words.data(), len, &call_limits, hdr) ||
        !(hdr->hd_flags & XR_HDR_REPLY_CHUNK))
        return call;
    for (uint32_t i = 0; i < hdr->hd_reply.wc_nsegs; i++) {
        const xr_seg &s = hdr->hd_segs[hdr->hd_reply.wc_first + i];
        call.reply_chunk.push_back({s.sg_handle, s.sg_length, s.sg_offset});
    }
    return call;
}

namespace {

bool needs_chunk(Script s)
{
    switch (s) {
    case Script::MsgUnusedChunk:
    case Script::MsgUsedChunk:
    case Script::ChunkOverclaim:
    case Script::ChunkWrongHandle:
    case Script::ChunkEmpty:
    case Script::WritePastChunk:
        return true;
    default:
        return false;
    }
}

} // namespace

std::vector<uint8_t> null_reply(uint32_t xid, uint32_t credits, uint32_t vers, uint32_t proc)
{
    return Words().add({xid, vers, credits, proc, 0, 0, 0}).rpc_success(xid).take();
}

uint32_t oversize_length(uint32_t peer_recv_size)
{
    return std::max<uint32_t>(peer_recv_size, 1024) + 8192;
}

// Overlong: within any requester's Receive (RFC 8166's 1024 at least),
// far past what an RPC NULL reply needs.
constexpr size_t overlong_length = 1024;

Plan plan(Script s, bool hostile_turn, const Call &call, const Params &p)
{
    uint32_t credits =
        p.credits ? p.credits : std::clamp<uint32_t>(call.credits, 1, std::max<uint32_t>(p.max_credits, 1));
    Plan out;

    if (!hostile_turn)
        s = Script::Good;
    if (!call.reply_chunk.empty()) {
        if (s == Script::Good) {
            reply_in_chunk(call, credits, out);
            return out;
        }
        if (plan_chunk(s, call, credits, out))
            return out;
    } else if (needs_chunk(s)) {
        s = Script::Good;
    }
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
    case Script::Overlong:
        out.messages.push_back(null_reply(call.xid, credits));
        out.messages.back().resize(overlong_length);
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
