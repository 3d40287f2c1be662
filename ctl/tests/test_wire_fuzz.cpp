// SPDX-License-Identifier: GPL-2.0
// The wire fuzzer's generator and its reading of answers: the same seed
// gives the same messages, no message passes the size limit, every kind
// of mutation happens, the seed corpus is valid, and each kind of answer
// counts as what it is.
#include <gtest/gtest.h>

#include "errors.hpp"
#include "wire_fuzz.hpp"
#include "xdr.hpp"

using namespace rdmactl;
using namespace rdmactl::wirefuzz;

using testing_helpers::words;

namespace {

// The seeds of one corpus directory; each file must be a valid call.
std::vector<Call> corpus_dir(const std::string &sub)
{
    std::vector<Call> seeds;
    for (const SeedFile &f : read_corpus_dir(std::string(WIRE_FUZZ_CORPUS) + '/' + sub)) {
        auto c = parse_call(f.bytes);
        EXPECT_TRUE(c) << sub << '/' << f.name << " is not a valid call";
        if (c)
            seeds.push_back(*c);
    }
    return seeds;
}

// The whole corpus as the fuzzer loads it: captured seeds first.
std::vector<Call> corpus()
{
    std::vector<Call> seeds = corpus_dir("captured");
    std::vector<Call> more = corpus_dir("synthesized");
    seeds.insert(seeds.end(), more.begin(), more.end());
    return seeds;
}

// Which chunk shapes a set of seeds has.
struct Shapes {
    bool reads = false, writes = false, reply = false, nomsg = false;
};

Shapes shapes(const std::vector<Call> &seeds)
{
    Shapes s;
    for (const Call &c : seeds) {
        s.reads |= !c.reads.empty();
        s.writes |= !c.writes.empty();
        s.reply |= bool(c.reply);
        s.nomsg |= c.proc == 1;
    }
    return s;
}

const Region region{0xabcd, 0x7f0000001000, 1u << 20};
constexpr size_t inline_size = 4096, max_message = 8256;

} // namespace

TEST(WireFuzz, CorpusHasEveryShape)
{
    std::vector<Call> seeds = corpus();
    ASSERT_GE(seeds.size(), 10u);
    Shapes s = shapes(seeds);
    EXPECT_TRUE(s.reads && s.writes && s.reply && s.nomsg);
}

// The seeds captured from the in-tree client (capture-parse.py) alone
// have every shape: inline calls, Read chunks, Write lists, Reply chunks
// and a position-zero Read chunk (RDMA_NOMSG).
TEST(WireFuzz, CapturedCorpusHasEveryShape)
{
    std::vector<Call> seeds = corpus_dir("captured");
    ASSERT_GE(seeds.size(), 10u);
    Shapes s = shapes(seeds);
    EXPECT_TRUE(s.reads);
    EXPECT_TRUE(s.writes);
    EXPECT_TRUE(s.reply);
    EXPECT_TRUE(s.nomsg);
    bool inline_call = false;
    for (const Call &c : seeds)
        inline_call |= c.proc == 0 && c.reads.empty() && c.writes.empty() && !c.reply;
    EXPECT_TRUE(inline_call);
}

TEST(WireFuzz, ParseEncodeRoundTrip)
{
    Call c;
    c.xid = 7;
    c.reads.push_back(ReadSegment{128, Segment{1, 4096, 0x10000}});
    c.writes.push_back({Segment{2, 8192, 0x20000}, Segment{3, 4, 0x30000}});
    c.reply = std::vector<Segment>{Segment{4, 1024, 0x40000}};
    c.body = words({7, 0, 2, 100003, 3, 0});
    Layout l;
    std::vector<uint8_t> b = encode_call(c, &l);
    EXPECT_EQ(l.discriminators.size(), 5u); // read, end, write, end, reply
    EXPECT_EQ(l.counts.size(), 2u);
    EXPECT_EQ(l.header_size, b.size() - c.body.size());
    auto back = parse_call(b);
    ASSERT_TRUE(back);
    EXPECT_EQ(encode_call(*back), b);
    EXPECT_FALSE(parse_call(words({7, 2, 32, 0, 0, 0, 0}))); // version 2
    EXPECT_FALSE(parse_call(words({7, 1, 32, 0, 2, 0, 0}))); // discriminator 2
    EXPECT_FALSE(parse_call(words({7, 1, 32, 0, 0})));       // cut short
}

TEST(WireFuzz, SameSeedSameMessages)
{
    Mutator a(corpus(), 42, inline_size, max_message);
    Mutator b(corpus(), 42, inline_size, max_message);
    Mutator c(corpus(), 43, inline_size, max_message);
    size_t differ = 0;
    for (uint32_t i = 0; i < 300; i++) {
        Generated ga = a.next(i, region), gb = b.next(i, region), gc = c.next(i, region);
        ASSERT_EQ(ga.bytes, gb.bytes) << "message " << i;
        ASSERT_EQ(ga.applied, gb.applied);
        differ += ga.bytes != gc.bytes;
    }
    EXPECT_GT(differ, 250u);
}

TEST(WireFuzz, WithinSizeLimitAndEveryMutationHappens)
{
    Mutator m(corpus(), 1, inline_size, max_message);
    std::array<size_t, mutation_kinds> seen{};
    size_t unmutated = 0, at_inline = 0;
    for (uint32_t i = 0; i < 5000; i++) {
        Generated g = m.next(i, region);
        ASSERT_LE(g.bytes.size(), max_message);
        unmutated += g.applied.empty();
        at_inline += g.bytes.size() + 8 >= inline_size && g.bytes.size() <= inline_size + 64;
        for (Mutation k : g.applied)
            seen[size_t(k)]++;
    }
    for (size_t k = 0; k < mutation_kinds; k++)
        EXPECT_GT(seen[k], 50u) << mutation_name(Mutation(k));
    EXPECT_GT(unmutated, 200u); // valid calls are sent too
    EXPECT_GT(at_inline, 50u);
}

TEST(WireFuzz, EachMutationChangesTheMessage)
{
    std::vector<Call> seeds = corpus();
    for (size_t k = 0; k < mutation_kinds; k++) {
        size_t changed = 0;
        for (uint64_t seed = 0; seed < 50; seed++) {
            // Two generators with one seed draw the same start: the seed
            // message as it would go unmutated, then the mutation.
            Mutator m(seeds, seed, inline_size, max_message);
            Mutator plain(seeds, seed, inline_size, max_message);
            Generated g = m.next_with(1, region, Mutation(k));
            Generated base = plain.unmutated(1, region);
            ASSERT_EQ(g.seed_index, base.seed_index);
            ASSERT_LE(g.bytes.size(), max_message);
            changed += g.bytes != base.bytes;
        }
        EXPECT_GT(changed, 25u) << mutation_name(Mutation(k));
    }
}

TEST(WireFuzz, ManySegmentsPassesTheLimits)
{
    Mutator m(corpus(), 9, inline_size, max_message);
    size_t over = 0;
    for (uint32_t i = 0; i < 100; i++) {
        auto c = parse_call(m.next_with(i, region, Mutation::ManySegments).bytes);
        if (!c)
            continue; // cut at the size limit
        size_t segs = c->reads.size() + (c->reply ? c->reply->size() : 0);
        for (const auto &w : c->writes)
            segs += w.size();
        over += segs > 32 || c->writes.size() > 8;
    }
    EXPECT_GT(over, 50u);
}

TEST(WireFuzz, SegmentsNameTheRegion)
{
    Mutator m(corpus(), 3, inline_size, max_message);
    size_t real = 0, inside = 0;
    for (uint32_t i = 0; i < 500; i++) {
        Generated g = m.next_with(i, region, Mutation::Credits);
        auto c = parse_call(g.bytes);
        ASSERT_TRUE(c);
        std::vector<Segment> all;
        for (const ReadSegment &rs : c->reads)
            all.push_back(rs.seg);
        for (const auto &w : c->writes)
            all.insert(all.end(), w.begin(), w.end());
        if (c->reply)
            all.insert(all.end(), c->reply->begin(), c->reply->end());
        for (const Segment &s : all) {
            if (s.handle != region.rkey)
                continue;
            real++;
            inside += s.offset >= region.addr &&
                      s.offset + s.length <= region.addr + region.length;
        }
    }
    EXPECT_GT(real, 200u);
    EXPECT_EQ(inside, real);
}

TEST(WireFuzz, ClassifyAnswers)
{
    ConnEvent ev;
    ev.kind = ConnEvent::Kind::Timeout;
    EXPECT_EQ(classify(ev).outcome, Outcome::Silent);
    ev.kind = ConnEvent::Kind::Disconnected;
    EXPECT_EQ(classify(ev).outcome, Outcome::Disconnected);
    ev.kind = ConnEvent::Kind::Interrupted;
    EXPECT_THROW(classify(ev), InterruptedError);

    ev.kind = ConnEvent::Kind::Received;
    ev.data = words({9, 1, 32, 4, 2}); // ERR_CHUNK
    Classified c = classify(ev);
    EXPECT_EQ(c.outcome, Outcome::RdmaError);
    EXPECT_EQ(c.err, 2u);
    EXPECT_TRUE(c.has_xid);
    EXPECT_EQ(c.xid, 9u);
    ev.data = words({9, 1, 32, 4, 1, 1, 1}); // ERR_VERS 1-1
    EXPECT_EQ(classify(ev).err, 1u);
    ev.data = words({9, 1, 32, 0, 0, 0, 0, 9, 1, 0, 0, 0, 0}); // RDMA_MSG SUCCESS
    EXPECT_EQ(classify(ev).outcome, Outcome::Reply);
    ev.data = words({9, 1, 32, 1, 0, 0, 1, 1, 5, 100, 0, 0x1000}); // RDMA_NOMSG
    EXPECT_EQ(classify(ev).outcome, Outcome::Reply);
    ev.data = words({9, 1, 32, 0, 0, 0, 0, 9}); // RPC reply cut short
    EXPECT_EQ(classify(ev).outcome, Outcome::Malformed);
    ev.data = words({9, 1, 32, 9}); // no such procedure
    EXPECT_EQ(classify(ev).outcome, Outcome::Malformed);

    Counts n;
    n.sent = 3;
    ev.data = words({9, 1, 32, 4, 2});
    n.add(classify(ev));
    ev.kind = ConnEvent::Kind::Timeout;
    n.add(classify(ev));
    n.batches = 1;
    EXPECT_EQ(summary_line(n, 77),
              "# wire-fuzz: sent 3, reply 0, rdma_error 1 (ERR_VERS 0, ERR_CHUNK 1), "
              "disconnected 0, silent 1, malformed 0, batches 1, seed 77");
}
