// SPDX-License-Identifier: GPL-2.0
// xr-wire-fuzz: a userspace RPC-over-RDMA requester that sends a bounded
// number of mutated calls to a server and checks, after every batch, that
// the server still answers a valid call on a fresh connection.
//
//   xr-wire-fuzz [--seed S] [--count N] [--batch B] --corpus DIR [--corpus DIR...] HOST[:PORT]
//
// Calls are made from a seed corpus (tests/wire-fuzz/corpus/captured and
// .../synthesized) by
// wire_fuzz.cpp's Mutator; the seed of its generator is printed, and the
// same seed gives the same messages again. Exit status: 0 when every batch
// passed, 1 on a finding (the server stopped answering, or sent something
// that is not a reply), 2 on a usage error.

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <thread>
#include <unordered_set>

#include <CLI/CLI.hpp>

#include "errors.hpp"
#include "ping.hpp"
#include "rpc.hpp"
#include "rpcrdma_conn.hpp"
#include "rpcrdma_msg.hpp"
#include "wire_fuzz.hpp"

using namespace rdmactl;
using namespace rdmactl::wirefuzz;

namespace {

struct Options {
    std::string target;
    uint64_t seed = 0;
    uint64_t count = 500;
    uint64_t batch = 50;
    std::vector<std::string> corpus;
    uint32_t region_size = 1u << 21;
    unsigned timeout_ms = 300;
    uint32_t program = 100003, version = 3;
    bool verbose = false;
    bool dry_run = false;
    uint32_t inline_size = 4096; // --dry-run only: the server's is used otherwise
};

struct Sent {
    Generated g;
    Classified c;
};

// The seeds of every corpus directory, in the order the directories were
// given (a seed's index counts across them).
std::vector<Call> load_corpus(const std::vector<std::string> &dirs)
{
    std::vector<Call> seeds;
    for (const std::string &dir : dirs) {
        std::vector<SeedFile> files;
        try {
            files = read_corpus_dir(dir);
        } catch (const std::runtime_error &e) {
            throw Error(e.what());
        }
        for (const SeedFile &f : files) {
            if (auto call = parse_call(f.bytes))
                seeds.push_back(*call);
            else
                std::cerr << "xr-wire-fuzz: " << dir << '/' << f.name
                          << " is not a valid call: skipped\n";
        }
    }
    if (seeds.empty())
        throw Error("no valid call in the corpus");
    return seeds;
}

std::string describe(const Generated &g)
{
    std::string out = "seed-file " + std::to_string(g.seed_index) + ", " +
                      std::to_string(g.bytes.size()) + " bytes, mutations";
    if (g.applied.empty())
        out += " none";
    for (Mutation m : g.applied)
        out += std::string(" ") + mutation_name(m);
    return out;
}

class Fuzzer {
public:
    explicit Fuzzer(const Options &o) : o_(o) {}
    int run();

private:
    std::unique_ptr<Connection> connect_retrying();
    bool healthy(std::string &why);
    void report_batch(const std::string &why);
    Classified outcome(uint32_t xid);

    const Options &o_;
    ConnectParams params_;
    std::unique_ptr<Connection> conn_;
    std::optional<Mutator> mutator_;
    Counts counts_;
    std::vector<Sent> batch_;
    std::unordered_set<uint32_t> earlier_; // transport XIDs already sent
    bool filled_ = false;
};

// NULL calls back to back, so that a Read chunk the fuzzer points at the
// region brings the server an RPC call now and then.
void fill_region(const RegionInfo &r)
{
    std::vector<uint8_t> call = rpc::encode_null_call(0x600d0000, 100003, 3);
    for (size_t at = 0; at + call.size() <= r.size; at += call.size())
        std::memcpy(r.data + at, call.data(), call.size());
}

std::unique_ptr<Connection> Fuzzer::connect_retrying()
{
    for (int attempt = 1;; attempt++) {
        try {
            return connect_rdma(params_);
        } catch (const Error &e) {
            if (attempt == 5)
                throw;
            std::this_thread::sleep_for(std::chrono::milliseconds(200 * attempt));
        }
    }
}

// A valid NULL call on a connection of its own must get a successful reply.
bool Fuzzer::healthy(std::string &why)
{
    ConnectParams p = params_;
    p.region_size = 0;
    std::unique_ptr<Connection> c;
    try {
        c = connect_rdma(p);
    } catch (const Error &e) {
        why = std::string("cannot connect: ") + e.what();
        return false;
    }
    uint32_t xid = 0x7e570000 + uint32_t(counts_.batches);
    Clock::time_point deadline = Clock::now() + std::chrono::seconds(5);
    c->send(null_call_message(xid, 8, o_.program, o_.version), deadline);
    for (;;) {
        ConnEvent ev = c->wait(deadline);
        if (ev.kind != ConnEvent::Kind::Received) {
            why = ev.kind == ConnEvent::Kind::Timeout       ? "no reply within 5 s"
                  : ev.kind == ConnEvent::Kind::Interrupted ? "interrupted"
                                                            : "disconnected: " + ev.detail;
            return false;
        }
        TransportReply r = decode_reply(ev.data.data(), ev.data.size());
        if (r.has_xid && r.xid != xid)
            continue;
        if (r.kind == TransportReply::Kind::Message && r.rpc && r.rpc->success())
            return true;
        why = "answered: " + r.describe();
        return false;
    }
}

void Fuzzer::report_batch(const std::string &why)
{
    std::cout << "# FAIL: " << why << "\n# the last batch (seed " << o_.seed << "):\n";
    for (const Sent &s : batch_)
        std::cout << "#   " << describe(s.g) << " -> " << outcome_name(s.c.outcome) << ' '
                  << s.c.detail << "\n#   " << hex(s.g.bytes) << '\n';
    if (!batch_.empty() && !batch_.back().c.data.empty())
        std::cout << "# the answer to the last one:\n#   " << hex(batch_.back().c.data) << '\n';
}

// The server's answer to the message with transport XID xid.
Classified Fuzzer::outcome(uint32_t xid)
{
    Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(o_.timeout_ms);
    for (;;) {
        Classified c = classify(conn_->wait(deadline));
        // An answer to an earlier message that came after its wait ended.
        if (c.outcome != Outcome::Disconnected && c.outcome != Outcome::Silent &&
            c.has_xid && c.xid != xid && earlier_.count(c.xid)) {
            counts_.late++;
            continue;
        }
        return c;
    }
}

int Fuzzer::run()
{
    params_.host = o_.target;
    parse_target(o_.target, params_.host, params_.port);
    params_.timeout = 5;
    params_.max_send = 16384;
    params_.send_depth = 4;
    params_.recv_depth = 8;
    params_.region_size = o_.region_size;
    params_.responder_resources = 4;

    for (uint64_t i = 0; i < o_.count; i++) {
        if (!conn_) {
            conn_ = connect_retrying();
            if (!mutator_) {
                uint32_t inline_size = conn_->peer_recv_size() ? conn_->peer_recv_size() : 1024;
                std::cout << "# wire-fuzz: server inline " << inline_size << ", seed "
                          << o_.seed << '\n';
                mutator_.emplace(load_corpus(o_.corpus), o_.seed, inline_size,
                                 std::min<size_t>(params_.max_send, inline_size * 2 + 64));
            }
        }
        RegionInfo r = *conn_->region();
        if (!filled_) {
            fill_region(r);
            filled_ = true;
        }
        Generated g = mutator_->next(0x10000000 + uint32_t(i), Region{r.rkey, r.addr, uint32_t(r.size)});
        uint32_t xid = g.bytes.size() >= 4 ? uint32_t(g.bytes[0]) << 24 | g.bytes[1] << 16 |
                                                 g.bytes[2] << 8 | g.bytes[3]
                                           : 0;
        for (Mutation m : g.applied)
            counts_.mutations[size_t(m)]++;
        conn_->send(g.bytes, Clock::now() + std::chrono::seconds(5));
        counts_.sent++;
        Classified c = outcome(xid);
        earlier_.insert(xid);
        counts_.add(c);
        if (o_.verbose)
            std::cout << "# " << i << ": " << describe(g) << " -> " << outcome_name(c.outcome)
                      << ' ' << c.detail << '\n';
        batch_.push_back(Sent{std::move(g), c});
        if (c.outcome == Outcome::Disconnected) {
            conn_.reset();
            filled_ = false;
        }
        if (c.outcome == Outcome::Malformed) {
            report_batch("the server sent what is not a reply: " + c.detail);
            return 1;
        }
        if (batch_.size() == o_.batch || i + 1 == o_.count) {
            std::string why;
            if (!healthy(why)) {
                report_batch("after batch " + std::to_string(counts_.batches + 1) +
                             " a valid NULL call failed: " + why);
                std::cout << summary_line(counts_, o_.seed) << '\n';
                return 1;
            }
            counts_.batches++;
            batch_.clear();
        }
    }
    conn_.reset();
    std::cout << "# wire-fuzz: mutations";
    for (size_t m = 0; m < mutation_kinds; m++)
        std::cout << ' ' << mutation_name(Mutation(m)) << ' ' << counts_.mutations[m];
    std::cout << ", late answers " << counts_.late << '\n';
    std::cout << summary_line(counts_, o_.seed) << '\n';
    return 0;
}

// --dry-run: the messages, one per line in hex, with no server.
int dry_run(const Options &o)
{
    Mutator m(load_corpus(o.corpus), o.seed, o.inline_size, std::min<size_t>(16384, o.inline_size * 2 + 64));
    Region r{0x1234, 0x7f0000000000, o.region_size};
    for (uint64_t i = 0; i < o.count; i++) {
        Generated g = m.next(0x10000000 + uint32_t(i), r);
        std::cout << "# " << i << ": " << describe(g) << '\n' << hex(g.bytes) << '\n';
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    Options o;
    CLI::App app{"Send mutated RPC-over-RDMA calls to a server and check it keeps answering."};
    app.add_option("target", o.target, "HOST[:PORT] of the server (port 20049 by default)")
        ->required();
    app.add_option("--seed", o.seed, "seed of the generator (random and printed when not given)");
    app.add_option("-n,--count", o.count, "messages to send")->capture_default_str();
    app.add_option("--batch", o.batch, "messages between health checks")
        ->capture_default_str()
        ->check(CLI::Range(uint64_t(1), uint64_t(1) << 32));
    app.add_option("--corpus", o.corpus,
                   "directory of seed messages (again for more; seeds are numbered in order)")
        ->required()
        ->take_all()
        ->allow_extra_args(false);
    app.add_option("--region-size", o.region_size,
                   "bytes of memory the server may RDMA Read and Write")
        ->capture_default_str()
        ->check(CLI::Range(uint32_t(4096), uint32_t(1) << 28));
    app.add_option("--timeout-ms", o.timeout_ms, "wait for each answer")->capture_default_str();
    app.add_option("--program", o.program, "program of the health check's NULL call")
        ->capture_default_str();
    app.add_option("--version", o.version, "its version")->capture_default_str();
    app.add_flag("-v,--verbose", o.verbose, "a line for every message");
    app.add_flag("--dry-run", o.dry_run, "print the messages in hex, send nothing");
    app.add_option("--inline", o.inline_size, "--dry-run: the server's inline size")
        ->capture_default_str();
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        return app.exit(e) ? 2 : 0;
    }
    if (!app.count("--seed"))
        o.seed = std::random_device{}() | uint64_t(std::random_device{}()) << 32;
    try {
        if (o.dry_run)
            return dry_run(o);
        Fuzzer f(o);
        return f.run();
    } catch (const Error &e) {
        std::cout << "# FAIL: " << e.what() << " (seed " << o.seed << ")\n";
        return 1;
    }
}
