// SPDX-License-Identifier: GPL-2.0
// RPC-over-RDMA version 1 messages as the requester side of `rdmactl ping`
// builds and reads them. The transport header codec is the module's own
// (module/proto*.c, compiled into the tool as C): nothing here knows the
// wire format of the header itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rpc.hpp"

namespace rdmactl {

// RDMA_MSG (no chunks) carrying an RPC NULL call: transport header (xid,
// version 1, credits requested, RDMA_MSG, three empty lists) then the call.
std::vector<uint8_t> null_call_message(uint32_t xid, uint32_t credits, uint32_t program,
                                       uint32_t version);

// A received message, decoded as a reply with the module's decoder.
struct TransportReply {
    enum class Kind {
        Message,   // RDMA_MSG: the RPC reply is inline, in rpc
        NoMessage, // RDMA_NOMSG: the reply went to a Reply chunk (we offer none)
        Error,     // RDMA_ERROR: err, and vers_low/vers_high for ERR_VERS
        Malformed, // the header did not decode: problem
    };
    Kind kind = Kind::Malformed;
    bool has_xid = false; // xid, version, credits and proc were read
    uint32_t xid = 0;     // host order
    uint32_t version = 0;
    uint32_t credits = 0;
    uint32_t proc = 0;
    uint32_t err = 0;
    uint32_t vers_low = 0, vers_high = 0;
    std::string problem;
    std::optional<rpc::Reply> rpc; // Message only

    // "RDMA_MSG SUCCESS", "rdma_error ERR_VERS 1-1", "rdma_error ERR_CHUNK",
    // "malformed transport header: ...", ...
    std::string describe() const;
    // "ERR_VERS 1-1", "ERR_CHUNK" or "err N" (Error only)
    std::string error_text() const;
};

// Decodes len bytes (any alignment; copied to aligned storage first).
TransportReply decode_reply(const uint8_t *data, size_t len);

// "0x1a2b3c4d"
std::string format_xid(uint32_t xid);

// RFC 8797 private data for rdma_connect(): the inline sizes we send and
// receive, at least 1024 bytes each.
std::vector<uint8_t> connect_private_data(uint32_t send_size, uint32_t recv_size);

// What a connection request carries as private data (ping
// --private-data): RFC 8797's; none at all, as from a requester older
// than RFC 8797; or data a responder must take as none: 7 bytes, another
// Format Identifier, Version 2; or RFC 8797's with every reserved flag
// bit set, which a responder must ignore.
enum class PrivateData { Rfc8797, None, Short, BadMagic, Version2, ReservedFlags };

// The kind's name, as --private-data spells it ("rfc8797", "none",
// "short", "bad-magic", "version-2", "reserved-flags").
std::string private_data_name(PrivateData kind);
// Every name, for a message: "rfc8797, none, ... or reserved-flags".
std::string private_data_choices();
// The kind of a name; nullopt for an unknown one.
std::optional<PrivateData> private_data_by_name(const std::string &name);
// The private data of that kind for the inline sizes given (as
// connect_private_data()); empty for PrivateData::None.
std::vector<uint8_t> connect_private_data(PrivateData kind, uint32_t send_size, uint32_t recv_size);

// The peer's RFC 8797 private data; nullopt when there is none.
struct PeerInline {
    uint32_t send_size = 0;
    uint32_t recv_size = 0;
    bool send_with_invalidate = false;
};
std::optional<PeerInline> parse_private_data(const void *data, size_t len);

} // namespace rdmactl
