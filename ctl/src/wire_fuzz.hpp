// SPDX-License-Identifier: GPL-2.0
// The wire fuzzer's logic (xr-wire-fuzz): RPC-over-RDMA version 1 calls
// taken apart into their header fields, chunk lists and RPC message,
// mutated with a seeded generator, and put back together; and what the
// server's answer to each counts as. Nothing here touches RDMA: the
// program (ctl/tools/xr_wire_fuzz.cpp) sends what this makes.
//
// The fuzzer has its own small header codec on purpose: it must be able to
// write what the module's codec (the code under test) would refuse.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ping.hpp"

namespace rdmactl::wirefuzz {

struct Segment {
    uint32_t handle = 0;
    uint32_t length = 0;
    uint64_t offset = 0;
};

struct ReadSegment {
    uint32_t position = 0;
    Segment seg;
};

// A call as the transport header lays it out (RFC 8166, Section 4.2):
// body is every byte after the header (the RPC message of RDMA_MSG).
struct Call {
    uint32_t xid = 0, vers = 1, credits = 32, proc = 0;
    std::vector<ReadSegment> reads;
    std::vector<std::vector<Segment>> writes;
    std::optional<std::vector<Segment>> reply;
    std::vector<uint8_t> body;
};

// Where encode() put the words that select or count list items, as byte
// offsets into the message.
struct Layout {
    std::vector<size_t> discriminators; // every "optional-data" word
    std::vector<size_t> counts;         // segment counts of Write and Reply chunks
    std::vector<size_t> positions;      // Read segment positions
    size_t header_size = 0;
};

// Takes a well-formed RDMA_MSG or RDMA_NOMSG header apart; nullopt for
// anything else (a seed must be a valid call).
std::optional<Call> parse_call(const std::vector<uint8_t> &msg);
std::vector<uint8_t> encode_call(const Call &call, Layout *layout = nullptr);

// A seed file of the corpus: its name and bytes.
struct SeedFile {
    std::string name;
    std::vector<uint8_t> bytes;
};

// The regular files of one corpus directory, sorted by name (the same
// order every time; subdirectories are not entered). Throws
// std::runtime_error when the directory cannot be read.
std::vector<SeedFile> read_corpus_dir(const std::string &dir);

enum class Mutation {
    Discriminator, // an optional-data word other than 0 or 1, or flipped
    SegmentCount,  // a Write or Reply chunk's count off from its segments
    SegmentLength, // 0, unaligned, the region's size and past it, huge
    Position,      // unaligned, past the message, huge
    Offset,        // inside the region, at its end, past it, wrapping
    Handle,        // garbage, or the real rkey
    Credits,       // 0, 1, huge
    Proc,          // RDMA_MSGP, RDMA_DONE, RDMA_ERROR, unknown
    Version,       // not 1
    Xid,           // the transport XID differs from the RPC XID
    InlineSize,    // the message resized around the server's inline limit
    Truncate,      // cut anywhere
    BitFlip,       // bits of the RPC message flipped
    AddChunk,      // a Read segment, Write chunk or Reply chunk added
    DropChunk,     // one removed (with none: the RPC message, left as RDMA_NOMSG)
    ManySegments,  // more segments or Write chunks than any limit allows
};
constexpr size_t mutation_kinds = size_t(Mutation::ManySegments) + 1;
const char *mutation_name(Mutation m);

// The exposed region as chunks name it (the handle and address change
// with every connection; the draws of the generator do not).
struct Region {
    uint32_t rkey = 0;
    uint64_t addr = 0;
    uint32_t length = 0;
};

struct Generated {
    std::vector<uint8_t> bytes;
    std::vector<Mutation> applied; // in order; empty: the seed as it is
    size_t seed_index = 0;
    uint32_t xid = 0; // the XID the message was made with (before any Xid mutation)
};

// A deterministic generator: the same seed, corpus and limits give the
// same messages (handles and addresses aside).
class Mutator {
public:
    // seeds: valid calls (parse_call() accepts each); inline_size: the
    // server's inline receive size; max_message: no message is longer.
    Mutator(std::vector<Call> seeds, uint64_t seed, size_t inline_size, size_t max_message);

    Generated next(uint32_t xid, const Region &region);
    // One message with exactly mutation m (for tests and reachability).
    Generated next_with(uint32_t xid, const Region &region, Mutation m);

    // The next seed message with its handles placed, unmutated.
    Generated unmutated(uint32_t xid, const Region &region) { return start(xid, region); }

    size_t seeds() const { return seeds_.size(); }

private:
    uint64_t draw();
    uint64_t below(uint64_t n) { return n ? draw() % n : 0; }
    bool chance(unsigned in) { return below(in) == 0; }
    Generated start(uint32_t xid, const Region &region);
    Segment real_segment(const Region &region, uint32_t max_len);
    Segment placed(const Region &region, uint32_t len);
    void mutate(Generated &g, Call &call, const Region &region, Mutation m,
                std::vector<uint8_t> &wire);
    void mutate_call(Call &call, const Region &region, Mutation m);
    void mutate_wire(std::vector<uint8_t> &wire, const Layout &layout, Mutation m);
    Segment *pick_segment(Call &call);

    std::vector<Call> seeds_;
    std::array<uint64_t, 4> state_{};
    size_t inline_size_;
    size_t max_message_;
};

// What the server did with one message.
enum class Outcome {
    Reply,        // an RPC reply (RDMA_MSG or RDMA_NOMSG)
    RdmaError,    // RDMA_ERROR (ERR_VERS, ERR_CHUNK)
    Disconnected, // the connection went away
    Silent,       // nothing within the wait
    Malformed,    // something that does not decode as a reply: a finding
};
const char *outcome_name(Outcome o);

struct Classified {
    Outcome outcome = Outcome::Silent;
    uint32_t err = 0; // RdmaError: ERR_VERS 1, ERR_CHUNK 2
    bool has_xid = false;
    uint32_t xid = 0;
    std::string detail;
    std::vector<uint8_t> data; // Malformed: what came
};
// Throws InterruptedError for ConnEvent::Kind::Interrupted.
Classified classify(const ConnEvent &ev);

struct Counts {
    uint64_t sent = 0, reply = 0, rdma_error = 0, err_vers = 0, err_chunk = 0;
    uint64_t disconnected = 0, silent = 0, malformed = 0, batches = 0, late = 0;
    std::array<uint64_t, mutation_kinds> mutations{};

    void add(const Classified &c);
};

// "# wire-fuzz: sent N, reply A, rdma_error B (ERR_VERS x, ERR_CHUNK y),
// disconnected C, silent D, malformed M, batches E, seed S"
std::string summary_line(const Counts &counts, uint64_t seed);

std::string hex(const std::vector<uint8_t> &bytes);

} // namespace rdmactl::wirefuzz
