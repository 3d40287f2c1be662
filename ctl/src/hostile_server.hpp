// SPDX-License-Identifier: GPL-2.0
// The scripts of xr-hostile-server (ctl/tools/xr_hostile_server.cpp): an
// RPC-over-RDMA version 1 responder that answers RPC NULL calls, and on
// the turns its script picks, answers them the way a broken or hostile
// server would (two replies with one XID, an RDMA_ERROR and a reply, a
// reply to no call, chunk lists the call never offered, credit grants of
// 0 and 2^32-1, a reply larger than the requester's Receive, a dropped
// connection; and for calls that offer a Reply chunk, results that
// disagree with it and an RDMA Write past its end). It is the peer the
// client transport's selftests need (selftests/xprt_hostile.sh): the
// module's own server never misbehaves.
//
// A call that offers a Reply chunk is answered as the in-tree server
// answers it: the RPC reply is written into the chunk with an RDMA Write
// and an RDMA_NOMSG says how much went where.
//
// Nothing here touches RDMA: this file decides what goes on the wire for
// one received call, the tool sends it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rdmactl::hostile {

enum class Script {
    Good,           // one reply, always: the harness itself
    Dup,            // the reply, twice
    ErrorThenReply, // RDMA_ERROR (ERR_VERS 1-1), then the reply
    ReplyThenError, // the reply, then RDMA_ERROR (ERR_CHUNK)
    StrayXid,       // a reply with an XID no call has, then the reply
    BadVersion,     // the reply with transport version 2, then the reply
    Short,          // the first 12 bytes of the reply, then the reply
    ShortError,     // RDMA_ERROR with no error code, then the reply
    UnknownProc,    // procedure 7 with empty lists, then the reply
    Msgp,           // RDMA_MSGP (RFC 5666; gone in RFC 8166), then the reply
    WriteList,      // RDMA_MSG with a Write chunk the call never offered
    ReplyChunk,     // RDMA_MSG with a Reply chunk the call never offered
    NoMsg,          // RDMA_NOMSG whose Reply chunk the call never offered
    CreditsZero,    // the reply, granting 0 credits
    CreditsHuge,    // the reply, granting 2^32 - 1 credits
    Oversize,       // the reply padded past the requester's Receive buffer
    Overlong,       // the reply padded past the call's reply buffer, to 1024 bytes
    Disconnect,     // the reply, then the connection closed by us
    // These need a call that offers a Reply chunk (else: the reply alone).
    MsgUnusedChunk,   // RDMA_MSG, the Reply chunk returned unused: valid
    MsgUsedChunk,     // RDMA_MSG whose Reply chunk says 24 bytes went there
    ChunkOverclaim,   // RDMA_NOMSG claiming 4096 bytes past the first segment
    ChunkWrongHandle, // RDMA_NOMSG naming a segment by another handle
    ChunkEmpty,       // RDMA_NOMSG with nothing written
    WritePastChunk,   // an RDMA Write 4096 bytes past the first segment's end
};

struct ScriptInfo {
    Script script;
    const char *name;
    const char *what;
};

// Every script, in the order of the enum.
const std::vector<ScriptInfo> &scripts();
std::optional<Script> script_by_name(const std::string &name);
const char *script_name(Script s);

struct Segment {
    uint32_t handle = 0;
    uint32_t length = 0;
    uint64_t offset = 0;
};

// A received call: the fixed words of its transport header, host order,
// and its Reply chunk when it offers one.
struct Call {
    uint32_t xid = 0; // as it is on the wire, read as a big-endian word
    uint32_t vers = 0;
    uint32_t credits = 0;
    uint32_t proc = 0;
    std::vector<Segment> reply_chunk; // empty: none offered
};

// nullopt when msg is shorter than the four fixed words. The chunk lists
// are read with the module's decoder; where they do not decode, the call
// offers no Reply chunk.
std::optional<Call> parse_call(const uint8_t *msg, size_t len);

struct Params {
    // The credits every reply grants; 0: what the call asked for (at
    // least 1).
    uint32_t credits = 0;
    // The requester's Receive size (its RFC 8797 private data; 1024
    // without it): Oversize goes past it.
    uint32_t peer_recv_size = 1024;
    // The most a grant of what the call asked for may be: the Receives
    // the responder keeps posted.
    uint32_t max_credits = UINT32_MAX;
};

// An RDMA Write into the requester's memory.
struct Write {
    uint32_t handle = 0;
    uint64_t offset = 0;
    std::vector<uint8_t> data;
};

// What to send for one call: the Writes, then the messages, in order.
struct Plan {
    std::vector<Write> writes;
    std::vector<std::vector<uint8_t>> messages;
    bool disconnect = false; // close the connection once they are posted
};

// The size of an Oversize message for a requester that receives
// peer_recv_size bytes: enough past it that no rounding of the buffer
// holds it.
uint32_t oversize_length(uint32_t peer_recv_size);

// The messages for call; hostile_turn: this call gets the script's
// treatment (otherwise, and for Good, the reply alone).
Plan plan(Script s, bool hostile_turn, const Call &call, const Params &p);

// The reply to an RPC NULL call: RDMA_MSG, no chunks, then an accepted
// RPC reply with AUTH_NULL and SUCCESS. vers and proc as given (the
// hostile scripts vary them).
std::vector<uint8_t> null_reply(uint32_t xid, uint32_t credits, uint32_t vers = 1,
                                uint32_t proc = 0);

} // namespace rdmactl::hostile
