// SPDX-License-Identifier: GPL-2.0
#include "wire_fuzz.hpp"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "errors.hpp"
#include "rpcrdma_msg.hpp"

namespace rdmactl::wirefuzz {

namespace {

constexpr uint32_t rdma_msg = 0, rdma_nomsg = 1;
constexpr size_t word = 4;

uint32_t get32(const std::vector<uint8_t> &b, size_t at)
{
    return uint32_t(b[at]) << 24 | uint32_t(b[at + 1]) << 16 | uint32_t(b[at + 2]) << 8 |
           uint32_t(b[at + 3]);
}

void put32(std::vector<uint8_t> &b, size_t at, uint32_t v)
{
    b[at] = uint8_t(v >> 24);
    b[at + 1] = uint8_t(v >> 16);
    b[at + 2] = uint8_t(v >> 8);
    b[at + 3] = uint8_t(v);
}

void push32(std::vector<uint8_t> &b, uint32_t v)
{
    b.resize(b.size() + word);
    put32(b, b.size() - word, v);
}

// Reads XDR words from a message, failing softly past its end.
struct Reader {
    const std::vector<uint8_t> &b;
    size_t at = 0;
    bool ok = true;

    uint32_t u32()
    {
        if (at + word > b.size()) {
            ok = false;
            return 0;
        }
        uint32_t v = get32(b, at);
        at += word;
        return v;
    }
    Segment seg()
    {
        Segment s;
        s.handle = u32();
        s.length = u32();
        s.offset = uint64_t(u32()) << 32;
        s.offset |= u32();
        return s;
    }
    // The next optional-data word: true for 1, false for 0 or trouble.
    bool more()
    {
        uint32_t d = u32();
        if (d > 1)
            ok = false;
        return ok && d == 1;
    }
};

void push_seg(std::vector<uint8_t> &b, const Segment &s)
{
    push32(b, s.handle);
    push32(b, s.length);
    push32(b, uint32_t(s.offset >> 32));
    push32(b, uint32_t(s.offset));
}

// Limits no server can accept: enough to overflow any fixed table.
constexpr uint32_t many_min = 33, many_spread = 68;

} // namespace

namespace {

// DropChunk of a call with no chunk: the chunk its RPC message would be in
// is the one missing, as if a position-zero Read chunk had been dropped
// (RDMA_NOMSG, nothing after the header). Seeds captured from a client are
// mostly inline: without this the mutation would leave them as they are.
void drop_inline_call(Call &call)
{
    call.proc = 1;
    call.body.clear();
}

} // namespace

std::vector<SeedFile> read_corpus_dir(const std::string &dir)
{
    std::vector<std::string> names;
    DIR *d = opendir(dir.c_str());
    if (!d)
        throw std::runtime_error("cannot open the corpus " + dir);
    while (dirent *e = readdir(d)) {
        struct stat st;
        std::string path = dir + '/' + e->d_name;
        if (e->d_name[0] != '.' && stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode))
            names.push_back(e->d_name);
    }
    closedir(d);
    std::sort(names.begin(), names.end());
    std::vector<SeedFile> files;
    for (const std::string &name : names) {
        std::ifstream in(dir + '/' + name, std::ios::binary);
        if (!in)
            throw std::runtime_error("cannot read " + dir + '/' + name);
        files.push_back({name, std::vector<uint8_t>((std::istreambuf_iterator<char>(in)),
                                                    std::istreambuf_iterator<char>())});
    }
    return files;
}

std::optional<Call> parse_call(const std::vector<uint8_t> &msg)
{
    Reader r{msg};
    Call c;
    c.xid = r.u32();
    c.vers = r.u32();
    c.credits = r.u32();
    c.proc = r.u32();
    if (!r.ok || c.vers != 1 || (c.proc != rdma_msg && c.proc != rdma_nomsg))
        return std::nullopt;
    while (r.more()) {
        ReadSegment rs;
        rs.position = r.u32();
        rs.seg = r.seg();
        c.reads.push_back(rs);
    }
    while (r.ok && r.more()) {
        uint32_t n = r.u32();
        if (!r.ok || n > msg.size() / 16)
            return std::nullopt;
        std::vector<Segment> chunk;
        for (uint32_t i = 0; i < n; i++)
            chunk.push_back(r.seg());
        c.writes.push_back(chunk);
    }
    if (r.ok && r.more()) {
        uint32_t n = r.u32();
        if (!r.ok || n > msg.size() / 16)
            return std::nullopt;
        c.reply.emplace();
        for (uint32_t i = 0; i < n; i++)
            c.reply->push_back(r.seg());
    }
    if (!r.ok)
        return std::nullopt;
    c.body.assign(msg.begin() + long(r.at), msg.end());
    return c;
}

std::vector<uint8_t> encode_call(const Call &c, Layout *layout)
{
    Layout l;
    std::vector<uint8_t> b;
    push32(b, c.xid);
    push32(b, c.vers);
    push32(b, c.credits);
    push32(b, c.proc);
    for (const ReadSegment &rs : c.reads) {
        l.discriminators.push_back(b.size());
        push32(b, 1);
        l.positions.push_back(b.size());
        push32(b, rs.position);
        push_seg(b, rs.seg);
    }
    l.discriminators.push_back(b.size());
    push32(b, 0);
    for (const auto &chunk : c.writes) {
        l.discriminators.push_back(b.size());
        push32(b, 1);
        l.counts.push_back(b.size());
        push32(b, uint32_t(chunk.size()));
        for (const Segment &s : chunk)
            push_seg(b, s);
    }
    l.discriminators.push_back(b.size());
    push32(b, 0);
    l.discriminators.push_back(b.size());
    if (c.reply) {
        push32(b, 1);
        l.counts.push_back(b.size());
        push32(b, uint32_t(c.reply->size()));
        for (const Segment &s : *c.reply)
            push_seg(b, s);
    } else {
        push32(b, 0);
    }
    l.header_size = b.size();
    b.insert(b.end(), c.body.begin(), c.body.end());
    if (layout)
        *layout = std::move(l);
    return b;
}

const char *mutation_name(Mutation m)
{
    static const char *const names[mutation_kinds] = {
        "discriminator", "segment-count", "segment-length", "position", "offset",
        "handle",        "credits",       "proc",           "version",  "xid",
        "inline-size",   "truncate",      "bit-flip",       "add-chunk", "drop-chunk",
        "many-segments",
    };
    return names[size_t(m)];
}

Mutator::Mutator(std::vector<Call> seeds, uint64_t seed, size_t inline_size,
                 size_t max_message)
    : seeds_(std::move(seeds)), inline_size_(inline_size), max_message_(max_message)
{
    // splitmix64 spreads the one seed over the generator's state.
    for (uint64_t &s : state_) {
        seed += 0x9e3779b97f4a7c15ULL;
        uint64_t z = seed;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        s = z ^ (z >> 31);
    }
}

// xoshiro256**: fixed output for a seed on every platform (unlike the
// standard library's distributions).
uint64_t Mutator::draw()
{
    auto rotl = [](uint64_t x, int k) { return (x << k) | (x >> (64 - k)); };
    uint64_t result = rotl(state_[1] * 5, 7) * 9;
    uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
}

// A segment inside the region, at a word-aligned offset: the server's
// RDMA Read or Write of it succeeds.
Segment Mutator::real_segment(const Region &region, uint32_t max_len)
{
    return placed(region, uint32_t(below(std::min(max_len, region.length) + 1ULL)));
}

// A segment of len bytes (at most the region's) inside the region.
Segment Mutator::placed(const Region &region, uint32_t len)
{
    uint64_t off = below(uint64_t(region.length) - len + 1) & ~uint64_t(3);
    return Segment{region.rkey, len, region.addr + off};
}

Generated Mutator::start(uint32_t xid, const Region &region)
{
    Generated g;
    g.seed_index = size_t(below(seeds_.size()));
    g.xid = xid;
    Call call = seeds_[g.seed_index];
    call.xid = xid;
    if (call.proc == rdma_msg && call.body.size() >= word)
        put32(call.body, 0, xid);
    // Most segments name the region, so the server's RDMA Reads and
    // Writes really happen; the rest keep the handles of the capture.
    auto rehome = [&](Segment &s) {
        if (!chance(4))
            s = placed(region, std::min(s.length, region.length));
    };
    for (ReadSegment &rs : call.reads)
        rehome(rs.seg);
    for (auto &chunk : call.writes)
        for (Segment &s : chunk)
            rehome(s);
    if (call.reply)
        for (Segment &s : *call.reply)
            rehome(s);
    g.bytes = encode_call(call, nullptr);
    return g;
}

Segment *Mutator::pick_segment(Call &call)
{
    std::vector<Segment *> all;
    for (ReadSegment &rs : call.reads)
        all.push_back(&rs.seg);
    for (auto &chunk : call.writes)
        for (Segment &s : chunk)
            all.push_back(&s);
    if (call.reply)
        for (Segment &s : *call.reply)
            all.push_back(&s);
    return all.empty() ? nullptr : all[below(all.size())];
}

void Mutator::mutate_call(Call &call, const Region &region, Mutation m)
{
    static const uint32_t odd_lengths[] = {0, 1, 3, 4095, 4097, 65536, 1u << 20,
                                           0x7fffffff, 0xffffffff};
    auto ensure_segment = [&] {
        if (pick_segment(call))
            return;
        call.writes.push_back({real_segment(region, 8192)});
    };
    switch (m) {
    case Mutation::SegmentLength: {
        ensure_segment();
        Segment *s = pick_segment(call);
        switch (below(4)) {
        case 0:
            s->length = odd_lengths[below(std::size(odd_lengths))];
            break;
        case 1: // the whole region, or one past it
            s->length = region.length + uint32_t(below(2));
            s->offset = region.addr;
            break;
        case 2:
            s->length = uint32_t(draw());
            break;
        default:
            s->length += uint32_t(below(9)) - 4;
            break;
        }
        break;
    }
    case Mutation::Position: {
        if (call.reads.empty())
            call.reads.push_back(ReadSegment{0, real_segment(region, 4096)});
        ReadSegment &rs = call.reads[below(call.reads.size())];
        uint32_t body = uint32_t(call.body.size());
        const uint32_t choices[] = {0, 1, 2, 3, body, body + 4, body & ~3u, 0xfffffffc,
                                    0xffffffff, uint32_t(draw())};
        rs.position = choices[below(std::size(choices))];
        break;
    }
    case Mutation::Offset: {
        ensure_segment();
        Segment *s = pick_segment(call);
        const uint64_t choices[] = {
            region.addr + (below(region.length) & ~uint64_t(3)),
            region.addr + region.length - (s->length & ~3u),
            region.addr + region.length,
            region.addr + below(region.length) + 1, // maybe unaligned
            region.addr - 4,
            0,
            ~uint64_t(0) - below(4096),
            draw(),
        };
        s->offset = choices[below(std::size(choices))];
        break;
    }
    case Mutation::Handle: {
        ensure_segment();
        Segment *s = pick_segment(call);
        const uint32_t choices[] = {0, region.rkey ^ 1, region.rkey + 0x100, region.rkey,
                                    uint32_t(draw())};
        s->handle = choices[below(std::size(choices))];
        break;
    }
    case Mutation::Credits: {
        const uint32_t choices[] = {0, 1, 2, 0xffff, 0xffffffff, uint32_t(draw())};
        call.credits = choices[below(std::size(choices))];
        break;
    }
    case Mutation::Proc: {
        const uint32_t choices[] = {0, 1, 2, 3, 4, 5, 0x7fffffff, uint32_t(draw())};
        call.proc = choices[below(std::size(choices))];
        break;
    }
    case Mutation::Version: {
        const uint32_t choices[] = {0, 2, 0xffffffff, uint32_t(draw())};
        call.vers = choices[below(std::size(choices))];
        break;
    }
    case Mutation::Xid:
        call.xid ^= uint32_t(draw()) | 1;
        break;
    case Mutation::AddChunk:
        switch (below(4)) {
        case 0: { // a Read segment at a word position inside the message
            uint32_t pos = uint32_t(below(call.body.size() / word + 1)) * word;
            call.reads.push_back(ReadSegment{pos, real_segment(region, 65536)});
            break;
        }
        case 1: // the call itself in a position-zero Read chunk
            call.proc = rdma_nomsg;
            call.reads.insert(call.reads.begin(), ReadSegment{0, real_segment(region, 4096)});
            break;
        case 2: {
            std::vector<Segment> chunk;
            for (uint64_t i = 0, n = 1 + below(3); i < n; i++)
                chunk.push_back(real_segment(region, 65536));
            call.writes.push_back(chunk);
            break;
        }
        default:
            call.reply = std::vector<Segment>{real_segment(region, 65536)};
            break;
        }
        break;
    case Mutation::DropChunk:
        if (!call.reads.empty() && chance(2))
            call.reads.erase(call.reads.begin() + long(below(call.reads.size())));
        else if (!call.writes.empty() && chance(2))
            call.writes.erase(call.writes.begin() + long(below(call.writes.size())));
        else if (call.reply)
            call.reply.reset();
        else if (!call.reads.empty())
            call.reads.pop_back();
        else if (!call.writes.empty())
            call.writes.pop_back();
        else
            drop_inline_call(call);
        break;
    case Mutation::ManySegments: {
        uint32_t n = many_min + uint32_t(below(many_spread));
        switch (below(4)) {
        case 0:
            for (uint32_t i = 0; i < n; i++)
                call.reads.push_back(ReadSegment{uint32_t(call.body.size()) & ~3u,
                                                 real_segment(region, 4096)});
            break;
        case 1: {
            std::vector<Segment> chunk;
            for (uint32_t i = 0; i < n; i++)
                chunk.push_back(real_segment(region, 4096));
            call.writes.push_back(chunk);
            break;
        }
        case 2:
            for (uint64_t i = 0, chunks = 9 + below(8); i < chunks; i++)
                call.writes.push_back({real_segment(region, 4096)});
            break;
        default:
            call.reply.emplace();
            for (uint32_t i = 0; i < n; i++)
                call.reply->push_back(real_segment(region, 4096));
            break;
        }
        break;
    }
    case Mutation::SegmentCount:
        if (call.writes.empty() && !call.reply)
            call.writes.push_back({real_segment(region, 8192)});
        break;
    default: // on the wire: mutate_wire()
        break;
    }
}

void Mutator::mutate_wire(std::vector<uint8_t> &wire, const Layout &l, Mutation m)
{
    switch (m) {
    case Mutation::Discriminator: {
        size_t at = l.discriminators[below(l.discriminators.size())];
        const uint32_t choices[] = {get32(wire, at) ^ 1, 2, 0xffffffff, uint32_t(draw())};
        put32(wire, at, choices[below(std::size(choices))]);
        break;
    }
    case Mutation::SegmentCount: {
        size_t at = l.counts[below(l.counts.size())];
        uint32_t n = get32(wire, at);
        const uint32_t choices[] = {0,   n + 1,      n - 1,     n * 2 + 1, 65,
                                    256, 0x10000000, 0xffffffff, uint32_t(draw())};
        put32(wire, at, choices[below(std::size(choices))]);
        break;
    }
    case Mutation::InlineSize: {
        const long deltas[] = {-8, -4, -1, 0, 1, 4, 8, 64};
        long target = long(inline_size_);
        if (chance(4))
            target = long(below(max_message_ + 1));
        else
            target += deltas[below(std::size(deltas))];
        wire.resize(size_t(std::clamp(target, 0L, long(max_message_))), 0);
        break;
    }
    case Mutation::Truncate:
        wire.resize(size_t(below(wire.size())));
        break;
    case Mutation::BitFlip: {
        size_t from = wire.size() > l.header_size ? l.header_size : 0;
        for (uint64_t i = 0, n = 1 + below(4); i < n && wire.size() > from; i++) {
            size_t at = from + size_t(below(wire.size() - from));
            wire[at] ^= uint8_t(1u << below(8));
        }
        break;
    }
    default:
        break;
    }
}

namespace {

bool on_the_wire(Mutation m)
{
    switch (m) {
    case Mutation::Discriminator:
    case Mutation::SegmentCount:
    case Mutation::InlineSize:
    case Mutation::Truncate:
    case Mutation::BitFlip:
        return true;
    default:
        return false;
    }
}

} // namespace

Generated Mutator::next_with(uint32_t xid, const Region &region, Mutation m)
{
    Generated g = start(xid, region);
    Call call = *parse_call(g.bytes);
    std::vector<uint8_t> wire;
    mutate(g, call, region, m, wire);
    return g;
}

// Applies the one mutation m to call and gives the bytes in g.
void Mutator::mutate(Generated &g, Call &call, const Region &region, Mutation m,
                     std::vector<uint8_t> &wire)
{
    mutate_call(call, region, m);
    Layout layout;
    wire = encode_call(call, &layout);
    if (on_the_wire(m))
        mutate_wire(wire, layout, m);
    if (wire.size() > max_message_)
        wire.resize(max_message_);
    g.applied.push_back(m);
    g.bytes = wire;
}

Generated Mutator::next(uint32_t xid, const Region &region)
{
    Generated g = start(xid, region);
    if (chance(10))
        return g; // a valid call now and then, with real chunks
    Call call = *parse_call(g.bytes);
    uint64_t n = 1 + below(3);
    std::vector<Mutation> picked;
    for (uint64_t i = 0; i < n; i++)
        picked.push_back(Mutation(below(mutation_kinds)));
    // Changes of the parts first, then of the bytes that carry them.
    std::stable_partition(picked.begin(), picked.end(),
                          [](Mutation m) { return !on_the_wire(m); });
    for (Mutation m : picked)
        mutate_call(call, region, m);
    Layout layout;
    std::vector<uint8_t> wire = encode_call(call, &layout);
    for (Mutation m : picked) {
        // Once bytes are cut or moved the layout is stale: stop there.
        if (on_the_wire(m)) {
            mutate_wire(wire, layout, m);
            if (m == Mutation::Truncate || m == Mutation::InlineSize) {
                g.applied.push_back(m);
                break;
            }
        }
        g.applied.push_back(m);
    }
    if (wire.size() > max_message_)
        wire.resize(max_message_);
    g.bytes = wire;
    return g;
}

const char *outcome_name(Outcome o)
{
    switch (o) {
    case Outcome::Reply:
        return "reply";
    case Outcome::RdmaError:
        return "rdma_error";
    case Outcome::Disconnected:
        return "disconnected";
    case Outcome::Silent:
        return "silent";
    case Outcome::Malformed:
        return "malformed";
    }
    return "?";
}

Classified classify(const ConnEvent &ev)
{
    Classified c;
    switch (ev.kind) {
    case ConnEvent::Kind::Timeout:
        c.outcome = Outcome::Silent;
        return c;
    case ConnEvent::Kind::Disconnected:
        c.outcome = Outcome::Disconnected;
        c.detail = ev.detail;
        return c;
    case ConnEvent::Kind::Interrupted:
        // Not the server's doing: no outcome to count.
        throw InterruptedError("interrupted");
    case ConnEvent::Kind::Received:
        break;
    }
    TransportReply r = decode_reply(ev.data.data(), ev.data.size());
    c.has_xid = r.has_xid;
    c.xid = r.xid;
    c.detail = r.describe();
    switch (r.kind) {
    case TransportReply::Kind::Error:
        c.outcome = Outcome::RdmaError;
        c.err = r.err;
        break;
    case TransportReply::Kind::NoMessage:
        c.outcome = Outcome::Reply;
        break;
    case TransportReply::Kind::Message:
        c.outcome = r.rpc && r.rpc->form != rpc::Reply::Form::Malformed ? Outcome::Reply
                                                                          : Outcome::Malformed;
        break;
    case TransportReply::Kind::Malformed:
        c.outcome = Outcome::Malformed;
        break;
    }
    if (c.outcome == Outcome::Malformed)
        c.data = ev.data;
    return c;
}

void Counts::add(const Classified &c)
{
    switch (c.outcome) {
    case Outcome::Reply:
        reply++;
        break;
    case Outcome::RdmaError:
        rdma_error++;
        if (c.err == 1)
            err_vers++;
        else if (c.err == 2)
            err_chunk++;
        break;
    case Outcome::Disconnected:
        disconnected++;
        break;
    case Outcome::Silent:
        silent++;
        break;
    case Outcome::Malformed:
        malformed++;
        break;
    }
}

std::string summary_line(const Counts &n, uint64_t seed)
{
    return "# wire-fuzz: sent " + std::to_string(n.sent) + ", reply " + std::to_string(n.reply) +
           ", rdma_error " + std::to_string(n.rdma_error) + " (ERR_VERS " +
           std::to_string(n.err_vers) + ", ERR_CHUNK " + std::to_string(n.err_chunk) +
           "), disconnected " + std::to_string(n.disconnected) + ", silent " +
           std::to_string(n.silent) + ", malformed " + std::to_string(n.malformed) +
           ", batches " + std::to_string(n.batches) + ", seed " + std::to_string(seed);
}

std::string hex(const std::vector<uint8_t> &bytes)
{
    std::string out;
    char buf[3];
    for (uint8_t b : bytes) {
        std::snprintf(buf, sizeof(buf), "%02x", b);
        out += buf;
    }
    return out;
}

} // namespace rdmactl::wirefuzz
