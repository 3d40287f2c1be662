// SPDX-License-Identifier: GPL-2.0
#include "rpcrdma_msg.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <memory>
#include <stdexcept>

extern "C" {
#include "proto.h"
}

namespace rdmactl {

namespace {

// What a requester accepts in a reply: it offered no chunks, so anything
// within the codec's maxima is merely unexpected, not a decoding failure.
constexpr xr_limits reply_limits = {
    XR_MAX_SEGS,         // lm_max_read_segs (a reply has no Read list anyway)
    XR_MAX_WRITE_CHUNKS, // lm_max_write_chunks
    XR_MAX_SEGS,         // lm_max_chunk_segs
    XR_MAX_SEGS,         // lm_max_segs
    UINT32_MAX,          // lm_max_chunk_len
    XR_LIM_REPLY,        // lm_flags
};

std::string decode_problem(int err, const xr_hdr &hdr)
{
    switch (err) {
    case -EPROTONOSUPPORT:
        return "version " + std::to_string(hdr.hd_vers);
    case -EOPNOTSUPP:
        return "procedure " + std::to_string(hdr.hd_proc);
    case -E2BIG:
        return "chunk lists over the decoder's limits";
    case -EBADMSG:
        return (hdr.hd_flags & XR_HDR_XID) ? "bad chunk lists or trailing bytes"
                                           : "shorter than the fixed header";
    }
    return "error " + std::to_string(err);
}

} // namespace

std::vector<uint8_t> null_call_message(uint32_t xid, uint32_t credits, uint32_t program,
                                       uint32_t version)
{
    auto storage = std::make_unique<xr_hdr_buf>();
    xr_hdr *hdr = xr_hdr_buf_init(storage.get());
    hdr->hd_xid = cpu_to_be32(xid);
    hdr->hd_vers = XR_VERSION;
    hdr->hd_credits = credits;
    hdr->hd_proc = XR_RDMA_MSG;

    std::vector<uint8_t> call = rpc::encode_null_call(xid, program, version);
    std::vector<uint32_t> words(XR_HDR_MIN_SIZE / XR_XDR_UNIT); // aligned for the encoder
    int len = xr_hdr_encode(words.data(), words.size() * XR_XDR_UNIT, hdr);
    if (len != XR_HDR_MIN_SIZE)
        throw std::logic_error("xr_hdr_encode: " + std::to_string(len));
    std::vector<uint8_t> msg(size_t(len) + call.size());
    std::memcpy(msg.data(), words.data(), size_t(len));
    std::memcpy(msg.data() + len, call.data(), call.size());
    return msg;
}

TransportReply decode_reply(const uint8_t *data, size_t len)
{
    TransportReply r;
    // The decoder reads whole aligned words; give it its own copy.
    std::vector<uint32_t> words((len + 3) / 4 + 1, 0);
    if (len)
        std::memcpy(words.data(), data, len);
    auto storage = std::make_unique<xr_hdr_buf>();
    xr_hdr *hdr = xr_hdr_buf_init(storage.get());
    int err = xr_hdr_decode(words.data(), len, &reply_limits, hdr);

    if (hdr->hd_flags & XR_HDR_XID) {
        r.has_xid = true;
        r.xid = be32_to_cpu(hdr->hd_xid);
        r.version = hdr->hd_vers;
        r.credits = hdr->hd_credits;
        r.proc = hdr->hd_proc;
    }
    if (err == -EPROTONOSUPPORT && hdr->hd_proc == XR_RDMA_ERROR && len >= 8) {
        // Some servers answer ERR_VERS with the requester's rdma_vers in
        // the header: read the rest as version 1 says.
        words[1] = cpu_to_be32(XR_VERSION);
        err = xr_hdr_decode(words.data(), len, &reply_limits, hdr);
    }
    if (err) {
        r.kind = TransportReply::Kind::Malformed;
        r.problem = decode_problem(err, *hdr);
        return r;
    }
    switch (hdr->hd_proc) {
    case XR_RDMA_MSG:
        r.kind = TransportReply::Kind::Message;
        r.rpc = rpc::parse_reply(data + hdr->hd_hdr_len, len - hdr->hd_hdr_len);
        break;
    case XR_RDMA_NOMSG:
        r.kind = TransportReply::Kind::NoMessage;
        break;
    default: // XR_RDMA_ERROR: the decoder accepts no other
        r.kind = TransportReply::Kind::Error;
        r.err = hdr->hd_err;
        r.vers_low = hdr->hd_vers_low;
        r.vers_high = hdr->hd_vers_high;
        break;
    }
    return r;
}

std::string TransportReply::error_text() const
{
    if (err == XR_ERR_VERS)
        return "ERR_VERS " + std::to_string(vers_low) + '-' + std::to_string(vers_high);
    if (err == XR_ERR_CHUNK)
        return "ERR_CHUNK";
    return "err " + std::to_string(err);
}

std::string TransportReply::describe() const
{
    switch (kind) {
    case Kind::Message:
        return "RDMA_MSG " + (rpc ? rpc->describe() : std::string("?"));
    case Kind::NoMessage:
        return "RDMA_NOMSG (reply in a Reply chunk, but none was offered)";
    case Kind::Error:
        return "rdma_error " + error_text();
    case Kind::Malformed:
        break;
    }
    return "malformed transport header: " + problem;
}

std::string format_xid(uint32_t xid)
{
    char buf[sizeof("0x12345678")];
    std::snprintf(buf, sizeof(buf), "0x%08x", xid);
    return buf;
}

std::vector<uint8_t> connect_private_data(uint32_t send_size, uint32_t recv_size)
{
    xr_cm_pdata pd = {send_size, recv_size, 0};
    std::vector<uint8_t> out(XR_CM_PDATA_SIZE);
    int len = xr_cm_pdata_encode(out.data(), out.size(), &pd);
    if (len != XR_CM_PDATA_SIZE)
        throw std::invalid_argument("inline sizes under 1024 bytes cannot be advertised");
    return out;
}

namespace {

struct PrivateDataName {
    PrivateData kind;
    const char *name;
};

constexpr PrivateDataName private_data_names[] = {
    {PrivateData::Rfc8797, "rfc8797"},    {PrivateData::None, "none"},
    {PrivateData::Short, "short"},        {PrivateData::BadMagic, "bad-magic"},
    {PrivateData::Version2, "version-2"}, {PrivateData::ReservedFlags, "reserved-flags"},
};

// RFC 8797's layout: Format Identifier (4 bytes), Version, Flags, Send
// Size, Receive Size.
constexpr size_t pdata_version_at = 4, pdata_flags_at = 5;

} // namespace

std::string private_data_name(PrivateData kind)
{
    for (const PrivateDataName &n : private_data_names) {
        if (n.kind == kind)
            return n.name;
    }
    return "?";
}

std::string private_data_choices()
{
    std::string out;
    size_t n = std::size(private_data_names);
    for (size_t i = 0; i < n; i++) {
        if (i)
            out += i + 1 == n ? " or " : ", ";
        out += private_data_names[i].name;
    }
    return out;
}

std::optional<PrivateData> private_data_by_name(const std::string &name)
{
    for (const PrivateDataName &n : private_data_names) {
        if (name == n.name)
            return n.kind;
    }
    return std::nullopt;
}

std::vector<uint8_t> connect_private_data(PrivateData kind, uint32_t send_size, uint32_t recv_size)
{
    std::vector<uint8_t> out = connect_private_data(send_size, recv_size);
    switch (kind) {
    case PrivateData::Rfc8797:
        break;
    case PrivateData::None:
        out.clear();
        break;
    case PrivateData::Short:
        out.pop_back();
        break;
    case PrivateData::BadMagic:
        out[0] ^= 0x01;
        break;
    case PrivateData::Version2:
        out[pdata_version_at] = 2;
        break;
    case PrivateData::ReservedFlags:
        out[pdata_flags_at] |= uint8_t(~XR_CM_SWI_OK);
        break;
    }
    return out;
}

std::optional<PeerInline> parse_private_data(const void *data, size_t len)
{
    xr_cm_pdata pd;
    if (xr_cm_pdata_decode(data, len, &pd))
        return std::nullopt;
    return PeerInline{pd.cp_send_size, pd.cp_recv_size, (pd.cp_flags & XR_CM_SWI_OK) != 0};
}

} // namespace rdmactl
