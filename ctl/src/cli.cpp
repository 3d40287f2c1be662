// SPDX-License-Identifier: GPL-2.0
#include "cli.hpp"

#include <algorithm>
#include <cstring>
#include <set>
#include <stdexcept>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>
#include <arpa/inet.h>
#include <linux/xrpcrdma.h>
#include <sys/socket.h>

#include "errors.hpp"
#include "output.hpp"
#include "ping.hpp"
#include "tunables.hpp"

namespace rdmactl {

namespace {

// The words left once CLI11 has taken the options out, read front to back.
class Words {
public:
    explicit Words(std::vector<std::string> words) : words_(std::move(words)) {}

    bool empty() const { return pos_ >= words_.size(); }
    const std::string &peek() const { return words_.at(pos_); }
    std::string next() { return words_.at(pos_++); }

    // Fails if anything is left; where names the command for the message.
    void expect_end(const std::string &where) const
    {
        if (!empty())
            throw UsageError("unexpected argument '" + peek() + "' for '" + where + "'");
    }

private:
    std::vector<std::string> words_;
    size_t pos_ = 0;
};

struct Name {
    const char *text;
    int id;
};

// The id that word names, exactly or as a prefix of names that all have the
// same id (so "d" is "dev" even though "device" matches too).
int lookup(const std::vector<Name> &names, const std::string &word, const std::string &kind)
{
    for (const Name &name : names) {
        if (word == name.text)
            return name.id;
    }
    std::set<int> ids;
    std::string candidates;
    for (const Name &name : names) {
        if (word.empty() || !starts_with(name.text, word))
            continue;
        ids.insert(name.id);
        candidates += (candidates.empty() ? "" : ", ") + std::string(name.text);
    }
    if (ids.size() == 1)
        return *ids.begin();
    if (ids.empty())
        throw UsageError("unknown " + kind + " '" + word + "'");
    throw UsageError("ambiguous " + kind + " '" + word + "': " + candidates);
}

std::string device_name(const std::string &word)
{
    if (word.empty())
        throw UsageError("empty device name");
    if (word.size() > XRPCRDMA_DEV_NAME_MAX_LEN)
        throw UsageError("device name '" + word + "' is longer than " +
                         std::to_string(XRPCRDMA_DEV_NAME_MAX_LEN) + " characters");
    return word;
}

bool on_off(const std::string &key, const std::string &word)
{
    if (word == "on")
        return true;
    if (word == "off")
        return false;
    throw UsageError("invalid value '" + word + "' for " + key + ": expected on or off");
}

// ---- Arguments of each command ----

void no_args(Command &, Words &words, const std::string &where)
{
    words.expect_end(where);
}

// dev show [NAME]
void dev_show_args(Command &cmd, Words &words, const std::string &where)
{
    if (!words.empty())
        cmd.dev_name = device_name(words.next());
    words.expect_end(where);
}

enum DevSetting { Enabled };

// dev set NAME enabled {on|off}
void dev_set_args(Command &cmd, Words &words, const std::string &where)
{
    if (words.empty())
        throw UsageError("'" + where + "' needs a device name");
    cmd.dev_name = device_name(words.next());
    if (words.empty())
        throw UsageError("'" + where + "' needs a setting, e.g. 'enabled on'");
    while (!words.empty()) {
        std::string key = words.next();
        switch (lookup({{"enabled", Enabled}}, key, "setting")) {
        case Enabled:
            if (words.empty())
                throw UsageError("'enabled' needs a value: on or off");
            if (cmd.enabled)
                throw UsageError("'enabled' given more than once");
            cmd.enabled = on_off("enabled", words.next());
            break;
        }
    }
}

bool all_digits(const std::string &word)
{
    return !word.empty() && word.find_first_not_of("0123456789") == std::string::npos;
}

// A decimal number from 1 to max; kind names it in messages.
uint32_t number(const std::string &word, uint32_t max, const std::string &kind)
{
    unsigned long long n = 0;
    if (all_digits(word) && word.size() <= 10)
        n = std::stoull(word);
    if (n < 1 || n > max)
        throw UsageError("invalid " + kind + " '" + word + "': expected 1 to " +
                         std::to_string(max));
    return static_cast<uint32_t>(n);
}

uint32_t transport_id(const std::string &word)
{
    return number(word, UINT32_MAX, "transport id");
}

// An IPv4 or IPv6 address, or "*" (nullopt): any address.
void listen_addr(ListenSpec &spec, const std::string &text, bool bracketed)
{
    if (text == "*" && !bracketed)
        return;
    unsigned char buf[16];
    char norm[INET6_ADDRSTRLEN];
    int family = AF_INET6;
    if (!bracketed && inet_pton(AF_INET, text.c_str(), buf) == 1)
        family = AF_INET;
    else if (inet_pton(AF_INET6, text.c_str(), buf) != 1)
        throw UsageError("invalid address '" + text +
                         "': expected *, an IPv4 address or "
                         "an IPv6 address");
    inet_ntop(family, buf, norm, sizeof(norm));
    spec.addr = norm;
    spec.family = family;
}

// [ADDR][:PORT]: "20050", ":20050", "*", "*:20050", "10.0.0.1:20050",
// "::1", "[::1]", "[::1]:20050". A word of digits alone is a port.
ListenSpec listen_spec(const std::string &word)
{
    ListenSpec spec;
    std::string addr = word, port;
    bool bracketed = false;
    if (word.empty())
        throw UsageError("empty address");
    if (all_digits(word)) {
        addr.clear();
        port = word;
    } else if (word.front() == '[') {
        size_t close = word.find(']');
        if (close == std::string::npos)
            throw UsageError("invalid address '" + word + "': missing ']'");
        addr = word.substr(1, close - 1);
        bracketed = true;
        std::string rest = word.substr(close + 1);
        if (!rest.empty() && (rest.front() != ':' || rest.size() == 1))
            throw UsageError("invalid address '" + word + "': expected [ADDR]:PORT");
        if (!rest.empty())
            port = rest.substr(1);
    } else if (std::count(word.begin(), word.end(), ':') == 1) {
        size_t colon = word.find(':');
        addr = word.substr(0, colon);
        port = word.substr(colon + 1);
        if (port.empty())
            throw UsageError("invalid address '" + word + "': no port after ':'");
    }
    if (!addr.empty())
        listen_addr(spec, addr, bracketed);
    if (!port.empty())
        spec.port = static_cast<uint16_t>(number(port, 65535, "port"));
    return spec;
}

// listener add [ADDR][:PORT]
void listener_add_args(Command &cmd, Words &words, const std::string &where)
{
    cmd.listen = words.empty() ? ListenSpec{} : listen_spec(words.next());
    words.expect_end(where);
    const auto &addr = cmd.listen->addr;
    if (addr && *addr != "0.0.0.0" && *addr != "::")
        throw UsageError("nfsd listens on every address: '" + *addr +
                         "' cannot be given through /proc/fs/nfsd/portlist; "
                         "give '*' or leave the address out");
}

// listener del { id ID | [ADDR][:PORT] }
void listener_del_args(Command &cmd, Words &words, const std::string &where)
{
    if (!words.empty() && words.peek() == "id") {
        words.next();
        if (words.empty())
            throw UsageError("'id' needs a transport id");
        cmd.transport_id = transport_id(words.next());
    } else {
        cmd.listen = words.empty() ? ListenSpec{} : listen_spec(words.next());
    }
    words.expect_end(where);
}

// transport show [ID]
void transport_show_args(Command &cmd, Words &words, const std::string &where)
{
    if (!words.empty())
        cmd.transport_id = transport_id(words.next());
    words.expect_end(where);
}

// fault set POINT TRIGGER [times T] [errno E] [delay MS] [transport ID]

// The kernel's limits (the spec's checks, and the handler's).
constexpr uint32_t fault_errno_max = 133;
constexpr uint32_t fault_ppm_max = 1000000;
constexpr uint32_t fault_delay_max_ms = 10000;

uint32_t fault_point(const std::string &word)
{
    std::vector<Name> names;
    for (uint32_t p = 0; p <= fault_point_last; p++)
        names.push_back({nullptr, static_cast<int>(p)});
    std::vector<std::string> texts;
    for (Name &name : names)
        texts.push_back(fault_point_name(name.id));
    for (size_t i = 0; i < names.size(); i++)
        names[i].text = texts[i].c_str();
    return lookup(names, word, "fault point");
}

// A decimal number from 0 to max.
uint32_t count(const std::string &word, uint32_t max, const std::string &kind)
{
    return word == "0" ? 0 : number(word, max, kind);
}

// EIO, -5 or 5.
uint32_t fault_errno(const std::string &word)
{
    if (auto e = errno_by_name(word))
        return *e;
    std::string digits = !word.empty() && word[0] == '-' ? word.substr(1) : word;
    if (!all_digits(digits))
        throw UsageError("invalid errno '" + word + "': expected a name such as EIO or a number");
    return number(digits, fault_errno_max, "errno");
}

enum FaultWord { Nth, Every, Prob, Times, Errno, Delay, OnTransport };

// The value after key; key names it in the message.
std::string value_of(Words &words, const std::string &key)
{
    if (words.empty())
        throw UsageError("'" + key + "' needs a value");
    return words.next();
}

// One KEY VALUE of fault set; seen holds the keys had so far (a trigger
// counts as Nth).
void fault_word(Fault &f, Words &words, const std::string &key, std::set<int> &seen)
{
    static const std::vector<Name> keys = {
        {"nth", Nth},     {"every", Every}, {"prob", Prob},   {"probability", Prob},
        {"times", Times}, {"errno", Errno}, {"delay", Delay}, {"transport", OnTransport},
    };
    int id = lookup(keys, key, "fault setting");
    bool trigger = id == Nth || id == Every || id == Prob;
    if (!seen.insert(trigger ? Nth : id).second)
        throw UsageError(trigger
                             ? std::string("more than one trigger: give one of nth, every, prob")
                             : "'" + key + "' given more than once");
    std::string value = value_of(words, key);
    switch (id) {
    case Nth:
    case Every:
        f.trigger = id == Nth ? XRPCRDMA_FAULT_TRIGGER_NTH : XRPCRDMA_FAULT_TRIGGER_EVERY;
        f.n = number(value, UINT32_MAX, "n");
        break;
    case Prob:
        f.trigger = XRPCRDMA_FAULT_TRIGGER_PROBABILITY;
        f.probability = number(value, fault_ppm_max, "probability (per million)");
        break;
    case Times:
        f.times = count(value, UINT32_MAX, "times");
        break;
    case Errno:
        f.error = fault_errno(value);
        break;
    case Delay:
        f.delay_ms = number(value, fault_delay_max_ms, "delay (ms)");
        break;
    case OnTransport:
        f.transport_id = transport_id(value);
        break;
    }
}

bool fault_takes_errno(uint32_t point)
{
    return point <= XRPCRDMA_FAULT_POINT_FRWR_REG || point == XRPCRDMA_FAULT_POINT_RW_CTX;
}

bool fault_takes_delay(uint32_t point)
{
    return point == XRPCRDMA_FAULT_POINT_COMPLETION_DELAY ||
           point == XRPCRDMA_FAULT_POINT_REPLY_DELAY ||
           point == XRPCRDMA_FAULT_POINT_BC_RELEASE_DELAY;
}

// The same rules as the kernel's, for a message before anything is sent.
void check_fault(const Fault &f)
{
    std::string point = fault_point_name(f.point);
    if (f.trigger == XRPCRDMA_FAULT_TRIGGER_OFF)
        throw UsageError("'fault set " + point + "' needs a trigger: nth N, every N or prob PPM");
    if (f.times && f.trigger == XRPCRDMA_FAULT_TRIGGER_NTH)
        throw UsageError("'times' goes with every and prob: nth fires once");
    if (f.error && !fault_takes_errno(f.point))
        throw UsageError("'errno' is for post-send, post-recv, dma-map, sendctx-alloc, "
                         "frwr-reg and rw-ctx, not " +
                         point);
    if (f.delay_ms && !fault_takes_delay(f.point))
        throw UsageError("'delay' is for completion-delay, reply-delay and bc-release-delay, not " +
                         point);
}

void fault_set_args(Command &cmd, Words &words, const std::string &where)
{
    if (words.empty())
        throw UsageError("'" + where + "' needs a fault point");
    Fault f;
    f.point = fault_point(words.next());
    std::set<int> seen;
    while (!words.empty()) {
        std::string key = words.next();
        fault_word(f, words, key, seen);
    }
    check_fault(f);
    cmd.fault = f;
}

// fault clear [POINT|all]
void fault_clear_args(Command &cmd, Words &words, const std::string &where)
{
    if (!words.empty() && words.peek() != "all") {
        Fault f;
        f.point = fault_point(words.next());
        cmd.fault = f;
    } else if (!words.empty()) {
        words.next();
    }
    words.expect_end(where);
}


// [transport ID] at the end of a config command; true when it was there.
bool config_transport(Command &cmd, Words &words)
{
    if (words.empty() || (words.peek() != "transport" && words.peek() != "xprt"))
        return false;
    words.next();
    if (words.empty())
        throw UsageError("'transport' needs a transport id");
    cmd.transport_id = transport_id(words.next());
    return true;
}

// config show [transport ID]
void config_show_args(Command &cmd, Words &words, const std::string &where)
{
    config_transport(cmd, words);
    words.expect_end(where);
}

// A tunable's value: a decimal number that fits in 32 bits. Its range is
// the module's to check, so that its message (naming the limit) is seen.
uint32_t config_value(const std::string &name, const std::string &word)
{
    if (!all_digits(word) || word.size() > 10 || std::stoull(word) > UINT32_MAX)
        throw UsageError("invalid value '" + word + "' for " + name +
                         ": expected a number from 0 to 4294967295");
    return static_cast<uint32_t>(std::stoull(word));
}

// config set NAME VALUE [NAME VALUE...] [transport ID]
void config_set_args(Command &cmd, Words &words, const std::string &where)
{
    std::vector<Name> names;
    for (size_t i = 0; i < tunables().size(); i++)
        names.push_back({tunables()[i].name, static_cast<int>(i)});
    while (!words.empty() && !config_transport(cmd, words)) {
        std::string name = tunables().at(lookup(names, words.next(), "tunable")).name;
        if (words.empty())
            throw UsageError("'" + name + "' needs a value");
        for (const ConfigValue &v : cmd.config) {
            if (v.name == name)
                throw UsageError("'" + name + "' given more than once");
        }
        cmd.config.push_back({name, config_value(name, words.next())});
    }
    words.expect_end(where);
    if (cmd.config.empty())
        throw UsageError("'" + where + "' needs a tunable and a value, e.g. 'credits 128'");
}

// The server of bench run: ADDR[:PORT] as ping takes it ("10.0.0.1",
// "10.0.0.1:2049", "fe80::1", "[fe80::1]:2049"), but a numeric address
// only: the kernel is given the address itself.
SockAddr bench_server(const std::string &word)
{
    SockAddr server;
    uint16_t port = 0;
    parse_target(word, server.addr, port);
    unsigned char buf[16];
    char norm[INET6_ADDRSTRLEN];
    if (inet_pton(AF_INET, server.addr.c_str(), buf) == 1)
        server.family = AF_INET;
    else if (inet_pton(AF_INET6, server.addr.c_str(), buf) == 1)
        server.family = AF_INET6;
    else
        throw UsageError("invalid address '" + word +
                         "': expected an IPv4 or IPv6 address, with :PORT if wanted");
    inet_ntop(server.family, buf, norm, sizeof(norm));
    server.addr = norm;
    server.port = port;
    return server;
}

constexpr uint32_t bench_version_max = 31;

enum BenchWord {
    BenchTransport,
    BenchPort,
    BenchCount,
    BenchConcurrency,
    BenchProgram,
    BenchVersion,
    BenchOp,
    BenchSize,
    BenchQps,
    BenchReplySize
};

uint32_t bench_transport(const std::string &word)
{
    if (auto t = bench_transport_by_name(word))
        return *t;
    throw UsageError("invalid transport '" + word + "': expected tcp or rdma");
}

uint32_t bench_op(const std::string &word)
{
    if (auto op = bench_op_by_name(word))
        return *op;
    throw UsageError("invalid op '" + word + "': expected rpc-null, rdma-write or rdma-read");
}

// SIZE: bytes, or a number with K or KiB (1024 bytes), M or MiB (1048576),
// from min to max.
uint32_t bench_size(const std::string &word, const char *what = "size", uint32_t min = 1,
                    uint32_t max = XRPCRDMA_BENCH_MAX_SIZE)
{
    static const struct {
        const char *suffix;
        unsigned long long scale;
    } units[] = {{"KiB", 1024}, {"K", 1024}, {"MiB", 1048576}, {"M", 1048576}, {"", 1}};
    for (const auto &u : units) {
        size_t len = std::strlen(u.suffix);
        if (word.size() < len || word.compare(word.size() - len, len, u.suffix) != 0)
            continue;
        std::string digits = word.substr(0, word.size() - len);
        if (!all_digits(digits) || digits.size() > 10)
            break;
        unsigned long long n = std::stoull(digits) * u.scale;
        if (n >= min && n <= max)
            return static_cast<uint32_t>(n);
        break;
    }
    throw UsageError("invalid " + std::string(what) + " '" + word + "': expected " +
                     std::to_string(min) + " to " + std::to_string(max) +
                     " bytes, or a number with K, KiB, M or MiB (1K = 1024 bytes)");
}

// One KEY VALUE of bench run; seen holds the keys had so far.
void bench_word(BenchRequest &req, Words &words, const std::string &key, std::set<int> &seen)
{
    static const std::vector<Name> keys = {
        {"transport", BenchTransport},     {"port", BenchPort},       {"count", BenchCount},
        {"concurrency", BenchConcurrency}, {"program", BenchProgram}, {"version", BenchVersion},
        {"op", BenchOp},                   {"size", BenchSize},       {"qps", BenchQps},
        {"reply-size", BenchReplySize},
    };
    int id = lookup(keys, key, "bench setting");
    // A port in ADDR:PORT counts as given.
    if (!seen.insert(id).second || (id == BenchPort && req.server.port))
        throw UsageError("'" + key + "' given more than once");
    std::string value = value_of(words, key);
    switch (id) {
    case BenchTransport:
        req.transport = bench_transport(value);
        break;
    case BenchPort:
        req.server.port = uint16_t(number(value, UINT16_MAX, "port"));
        break;
    case BenchCount:
        req.count = number(value, XRPCRDMA_BENCH_MAX_COUNT, "count");
        break;
    case BenchConcurrency:
        req.concurrency = number(value, XRPCRDMA_BENCH_MAX_INFLIGHT, "concurrency");
        break;
    case BenchProgram:
        req.program = count(value, UINT32_MAX, "program");
        break;
    case BenchVersion:
        req.version = number(value, bench_version_max, "version");
        break;
    case BenchOp:
        req.op = bench_op(value);
        break;
    case BenchSize:
        req.size = bench_size(value);
        break;
    case BenchQps:
        req.qps = number(value, XRPCRDMA_BENCH_MAX_QPS, "qps");
        break;
    case BenchReplySize:
        req.reply_size = bench_size(value, "reply-size", 0, XRPCRDMA_BENCH_MAX_REPLY_SIZE);
        break;
    }
}

// The same rules as the kernel's, for a message before anything is sent:
// transport, program, version and reply-size are for rpc-null (the default
// op), size and qps for the RDMA ops.
void check_bench(const BenchRequest &req)
{
    uint32_t op = req.op.value_or(XRPCRDMA_BENCH_OP_RPC_NULL);
    if (op == XRPCRDMA_BENCH_OP_RPC_NULL) {
        if (req.size)
            throw UsageError("'size' needs op rdma-write or rdma-read");
        if (req.qps)
            throw UsageError("'qps' needs op rdma-write or rdma-read");
        return;
    }
    for (const auto &[key, given] : {std::pair{"transport", req.transport.has_value()},
                                     std::pair{"program", req.program.has_value()},
                                     std::pair{"version", req.version.has_value()},
                                     std::pair{"reply-size", req.reply_size.has_value()}}) {
        if (given)
            throw UsageError("'" + std::string(key) + "' is for op rpc-null, not " +
                             bench_op_name(op));
    }
}

// bench run ADDR[:PORT] [op OP] [transport T] [port P] [count N]
//           [concurrency N] [program P] [version V] [size SIZE] [qps N]
//           [reply-size SIZE]
void bench_run_args(Command &cmd, Words &words, const std::string &where)
{
    if (words.empty())
        throw UsageError("'" + where + "' needs an address: ADDR[:PORT]");
    BenchRequest req;
    req.server = bench_server(words.next());
    std::set<int> seen;
    while (!words.empty()) {
        std::string key = words.next();
        bench_word(req, words, key, seen);
    }
    check_bench(req);
    cmd.bench = req;
}

// bench show [ID]
void bench_show_args(Command &cmd, Words &words, const std::string &where)
{
    if (!words.empty())
        cmd.bench_id = number(words.next(), UINT32_MAX, "bench id");
    words.expect_end(where);
}

// ---- The grammar ----

using ArgsParser = void (*)(Command &, Words &, const std::string &);

struct VerbSpec {
    const char *name;
    Verb verb;
    ArgsParser parse_args;
    // What each argument may be, for completion: literal words, or one of
    // the ArgKind placeholders ("DEV", "TRANSPORT").
    std::vector<std::vector<const char *>> arg_slots = {};
    // KEY VALUE settings after the arguments, for completion: each key
    // with the literal words its value may be.
    std::vector<std::pair<const char *, std::vector<const char *>>> keys = {};
};

struct ObjectSpec {
    Object object;
    std::vector<const char *> names; // the first is the canonical one
    std::vector<VerbSpec> verbs;     // the first is the default
    // A word that names no verb starts the default verb's arguments
    // ("bench 10.0.0.1" is "bench run 10.0.0.1").
    bool default_verb_takes_args = false;
};

const std::vector<ObjectSpec> &grammar()
{
    static const std::vector<ObjectSpec> objects = {
        {Object::Dev,
         {"dev", "device"},
         {{"show", Verb::Show, dev_show_args, {{"DEV"}}},
          {"set", Verb::Set, dev_set_args, {{"DEV"}, {"enabled"}, {"on", "off"}}},
          {"help", Verb::Help, no_args}}},
        {Object::Module,
         {"module", "mod", "m"},
         {{"show", Verb::Show, no_args}, {"help", Verb::Help, no_args}}},
        {Object::Transport,
         {"transport", "xprt"},
         {{"show", Verb::Show, transport_show_args, {{"TRANSPORT"}}},
          {"help", Verb::Help, no_args}}},
        {Object::Listener,
         {"listener"},
         {{"show", Verb::Show, no_args},
          {"add", Verb::Add, listener_add_args},
          {"del", Verb::Del, listener_del_args, {{"id"}, {"LISTENER"}}},
          {"help", Verb::Help, no_args}}},
        {Object::Stats,
         {"stats", "statistics"},
         {{"show", Verb::Show, no_args}, {"help", Verb::Help, no_args}}},
        {Object::Config,
         {"config"},
         {{"show", Verb::Show, config_show_args, {{"transport"}, {"TRANSPORT"}}},
          {"set", Verb::Set, config_set_args, {{"TUNABLE"}}},
          {"help", Verb::Help, no_args}}},
        {Object::Fault,
         {"fault"},
         {{"show", Verb::Show, no_args},
          {"set", Verb::Set, fault_set_args, {{"POINT"}, {"nth", "every", "prob"}}},
          {"clear", Verb::Clear, fault_clear_args, {{"POINT", "all"}}},
          {"help", Verb::Help, no_args}}},
        {Object::Bench,
         {"bench"},
         {{"run",
           Verb::Run,
           bench_run_args,
           {{"ADDR"}},
           {{"op", {"rpc-null", "rdma-write", "rdma-read"}},
            {"transport", {"tcp", "rdma"}},
            {"port", {}},
            {"count", {}},
            {"concurrency", {}},
            {"program", {}},
            {"version", {}},
            {"size", {}},
            {"qps", {}},
            {"reply-size", {}}}},
          {"show", Verb::Show, bench_show_args, {{"BENCH"}}},
          {"help", Verb::Help, no_args}},
         true},
        // ping and monitor have options of their own: parse_command_line()
        // hands them over.
        {Object::Ping, {"ping"}, {{"help", Verb::Help, no_args}}},
        {Object::Monitor, {"monitor"}, {{"help", Verb::Help, no_args}}},
    };
    return objects;
}

constexpr int help_id = -1; // "help" in the place of an object

const ObjectSpec &object_spec(Object object)
{
    for (const ObjectSpec &spec : grammar()) {
        if (spec.object == object)
            return spec;
    }
    throw std::logic_error("object missing from the grammar");
}

// OBJECT, or help_id.
int lookup_object(const std::string &word, bool allow_help)
{
    std::vector<Name> names;
    for (const ObjectSpec &spec : grammar()) {
        for (const char *name : spec.names)
            names.push_back({name, static_cast<int>(spec.object)});
    }
    if (allow_help)
        names.push_back({"help", help_id});
    return lookup(names, word, "object");
}

const VerbSpec &lookup_verb(const ObjectSpec &spec, const std::string &word)
{
    std::vector<Name> names;
    for (size_t i = 0; i < spec.verbs.size(); i++)
        names.push_back({spec.verbs[i].name, static_cast<int>(i)});
    return spec.verbs.at(lookup(names, word, std::string(spec.names.front()) + " command"));
}

// help [OBJECT]
void help_args(Command &cmd, Words &words)
{
    cmd.action = Action::Help;
    if (!words.empty())
        cmd.object = static_cast<Object>(lookup_object(words.next(), false));
    words.expect_end("help");
}

// Whether word is a verb of spec or a prefix of one.
bool names_verb(const ObjectSpec &spec, const std::string &word)
{
    for (const VerbSpec &verb : spec.verbs) {
        if (!word.empty() && starts_with(verb.name, word))
            return true;
    }
    return false;
}

// OBJECT [COMMAND [ARGS]]
void object_command(Command &cmd, Words &words)
{
    int id = lookup_object(words.next(), true);
    if (id == help_id)
        return help_args(cmd, words);

    const ObjectSpec &spec = object_spec(static_cast<Object>(id));
    bool implied =
        words.empty() || (spec.default_verb_takes_args && !names_verb(spec, words.peek()));
    const VerbSpec &verb = implied ? spec.verbs.front() : lookup_verb(spec, words.next());
    cmd.object = spec.object;
    cmd.verb = verb.verb;
    if (verb.verb == Verb::Help)
        cmd.action = Action::Help;
    verb.parse_args(cmd, words, std::string(spec.names.front()) + ' ' + verb.name);
}

// Where the object is one with options of its own (ping, monitor), its
// index in argv, else 0. Only the options before it are rdmactl's: ping's
// own (-c, -V, ...) go to parse_ping_args(), monitor's to
// parse_monitor_args().
int own_args_index(int argc, const char *const *argv, Object &object)
{
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1])
            continue;
        try {
            object = static_cast<Object>(lookup_object(argv[i], false));
        } catch (const UsageError &) {
            return 0;
        }
        return object == Object::Ping || object == Object::Monitor ? i : 0;
    }
    return 0;
}

} // namespace

Command parse_command_line(int argc, const char *const *argv)
{
    Object own = Object::None;
    int own_at = own_args_index(argc, argv, own);
    CLI::App app{"rdmactl"};
    app.set_help_flag(); // usage() is ours
    bool help = false, version = false;
    std::vector<std::string> words;
    Command cmd;
    app.add_flag("-j,--json", cmd.output.json);
    app.add_flag("-p,--pretty", cmd.output.pretty);
    app.add_flag("-d,--details", cmd.output.details);
    app.add_flag("-V,--version", version);
    app.add_flag("-h,--help", help);
    app.add_option("words", words);
    try {
        app.parse(own_at ? own_at : argc, argv);
    } catch (const CLI::ParseError &e) {
        throw UsageError(e.what());
    }
    if (own_at && !version && !help) {
        cmd.object = own;
        std::vector<std::string> args{argv + own_at + 1, argv + argc};
        bool own_help;
        if (own == Object::Ping) {
            cmd.ping = parse_ping_args(args, cmd.output);
            own_help = cmd.ping.help;
        } else {
            cmd.monitor = parse_monitor_args(args, cmd.output);
            own_help = cmd.monitor.help;
        }
        if (own_help)
            cmd.action = Action::Help;
        return cmd;
    }

    Words rest(std::move(words));
    if (version) {
        cmd.action = Action::Version;
    } else if (help) {
        // "rdmactl dev --help" shows the usage of dev.
        cmd.action = Action::Help;
        if (own_at)
            cmd.object = own;
        else if (!rest.empty())
            cmd.object = static_cast<Object>(lookup_object(rest.next(), false));
    } else if (rest.empty()) {
        throw UsageError("no object given");
    } else {
        object_command(cmd, rest);
    }
    return cmd;
}

std::string listen_spec_text(const ListenSpec &spec)
{
    std::string text = !spec.addr                ? "*"
                       : spec.family == AF_INET6 ? "[" + *spec.addr + "]"
                                                 : *spec.addr;
    if (spec.port)
        text += ':' + std::to_string(*spec.port);
    return text;
}

std::vector<ObjectInfo> command_table()
{
    std::vector<ObjectInfo> table;
    for (const ObjectSpec &spec : grammar()) {
        ObjectInfo info{spec.object, {spec.names.begin(), spec.names.end()}, {}};
        for (const VerbSpec &verb : spec.verbs) {
            VerbInfo v{verb.name, {}};
            for (const auto &slot : verb.arg_slots)
                v.arg_slots.emplace_back(slot.begin(), slot.end());
            for (const auto &[key, values] : verb.keys)
                v.keys.push_back({key, {values.begin(), values.end()}});
            info.verbs.push_back(std::move(v));
        }
        table.push_back(std::move(info));
    }
    return table;
}


namespace {

std::string config_usage()
{
    std::string text =
        "Usage: rdmactl [OPTIONS] config [show] [transport ID]\n"
        "       rdmactl [OPTIONS] config set NAME VALUE [NAME VALUE...] [transport ID]\n"
        "       rdmactl config help\n"
        "show lists the defaults new transports start from, or the values transport\n"
        "ID was created with. set changes the defaults (new transports only), or\n"
        "with transport ID the values of that transport that can change live.\n"
        "Nothing is set unless every value is accepted. NAME (range, default):\n";
    for (const Tunable &t : tunables()) {
        std::string line = "  " + std::string(t.name);
        line.resize(22, ' ');
        text += line + std::to_string(t.min) + "-" + std::to_string(t.max) + " " + t.unit +
                " (" + std::to_string(t.def) + ")\n";
    }
    return text;
}

std::string bench_usage()
{
    return "Usage: rdmactl [OPTIONS] bench [run] ADDR[:PORT] [transport { tcp | rdma }]\n"
           "                              [port PORT] [count N] [concurrency N]\n"
           "                              [program P] [version V] [reply-size SIZE]\n"
           "                              [op rpc-null]\n"
           "       rdmactl [OPTIONS] bench [run] ADDR[:PORT] op { rdma-write | rdma-read }\n"
           "                              [size SIZE] [qps N] [port PORT] [count N]\n"
           "                              [concurrency N]\n"
           "       rdmactl [OPTIONS] bench show [ID]\n"
           "       rdmactl bench help\n"
           "where  ADDR := { IPV4ADDR | IPV6ADDR | [IPV6ADDR] }\n"
           "       SIZE := NUMBER[{ K | KiB | M | MiB }]\n"
           "run starts a benchmark in the kernel. With op rpc-null (the default), an\n"
           "RPC client of the module sends count NULL calls (1 to 1000000, default\n"
           "10000) to the server at ADDR, concurrency of them at a time (1 to 128,\n"
           "default 1), over transport tcp (the default, port 2049) or rdma (the\n"
           "transport registered as \"rdma\": xrpcrdma's client in drop-in mode, the\n"
           "in-tree rpcrdma otherwise; port 20049); :PORT or port PORT gives another\n"
           "port. program and version are the RPC program (default 100003, NFS) and\n"
           "its version (1 to 31, default 3). reply-size SIZE (0 to 64K, default 0)\n"
           "makes each call ask for room for SIZE bytes of reply beyond the RPC\n"
           "header: over RDMA, more than the client receives inline makes it offer\n"
           "a Reply chunk with each call, for testing how a server treats Reply\n"
           "chunks (a NULL reply leaves it unused). One benchmark runs at a time; run needs\n"
           "CAP_NET_ADMIN. run waits for it, with a progress bar on a terminal, and\n"
           "prints its result: the calls done and failed, the status (0, or the error\n"
           "that stopped it early, such as ECONNREFUSED), the time taken, the calls a\n"
           "second and the round-trip latencies (p50, p99, p99.9, max). Interrupted,\n"
           "run leaves the benchmark running in the kernel (it cannot be cancelled).\n"
           "show lists the last 8 benchmarks, or benchmark ID.\n"
           "\n"
           "op rdma-write and op rdma-read measure the RDMA device itself, without\n"
           "RPC: the module connects qps queue pairs (1 to 16, default 1) to a\n"
           "listener of its own on ADDR, a local address of the device (:PORT or port\n"
           "PORT, default any free one), and moves count messages of SIZE bytes (1 to\n"
           "4M, default 1M; K is 1024 bytes, M 1048576) over them with RDMA Writes or\n"
           "RDMA Reads, concurrency at a time on each queue pair; at the end the data\n"
           "is checked (status EIO when it differs). size and qps are for these ops\n"
           "only, transport, program, version and reply-size for rpc-null only. The\n"
           "result adds\n"
           "MiB/s, the payload moved a second; ops/s counts messages, and the\n"
           "latencies are those of one message, from its post to its completion.\n"
           "\n"
           "With -j, run prints one object with the keys id, op, transport, addr,\n"
           "port, program, version, reply-size, size, qps, count, concurrency,\n"
           "running, done,\n"
           "errors, status (0 or the errno's name), elapsed-ns, ops-per-sec,\n"
           "bytes-per-sec, lat-p50-ns, lat-p99-ns, lat-p999-ns and lat-max-ns\n"
           "(transport, program and version for op rpc-null only, reply-size when it\n"
           "is not 0; size, qps and bytes-per-sec for the RDMA ops only); show an\n"
           "array of such objects, or\n"
           "one for ID (status and what follows it absent while a benchmark runs).\n"
           "\n"
           "Exit status of run: 0 when the benchmark ran with status 0, 1 when the\n"
           "kernel refused it, it stopped with an error, or run was interrupted.\n";
}

} // namespace

std::string usage(Object object)
{
    switch (object) {
    case Object::Dev:
        return "Usage: rdmactl [OPTIONS] dev [show [NAME]]\n"
               "       rdmactl [OPTIONS] dev set NAME enabled { on | off }\n"
               "       rdmactl dev help\n"
               "The object may also be spelt 'device'.\n";
    case Object::Module:
        return "Usage: rdmactl [OPTIONS] module [show]\n"
               "       rdmactl module help\n"
               "The object may also be spelt 'mod' (or 'm').\n";
    case Object::Transport:
        return "Usage: rdmactl [OPTIONS] transport [show [ID]]\n"
               "       rdmactl transport help\n"
               "Lists the server's listeners and connections; -d adds the queues and\n"
               "the counters of each connection. The object may also be spelt 'xprt'.\n";
    case Object::Listener:
        return "Usage: rdmactl [OPTIONS] listener [show]\n"
               "       rdmactl [OPTIONS] listener add [ADDR][:PORT]\n"
               "       rdmactl [OPTIONS] listener del { id ID | [ADDR][:PORT] }\n"
               "       rdmactl listener help\n"
               "where  ADDR := { * | IPV4ADDR | [IPV6ADDR] }\n"
               "add makes the running nfsd listen on PORT through /proc/fs/nfsd/portlist,\n"
               "on every IPv4 and IPv6 address: ADDR may only be *, 0.0.0.0 or [::].\n"
               "del stops the listeners on PORT whose address is ADDR (any, for *),\n"
               "whoever created them, or the one listener ID. PORT defaults to 20050\n"
               "in side-by-side mode (class xrdma) and 20049 in drop-in mode (rdma).\n";
    case Object::Stats:
        return "Usage: rdmactl [OPTIONS] stats [show]\n"
               "       rdmactl stats help\n"
               "The server's counters for the whole module, connections gone included.\n"
               "The object may also be spelt 'statistics'.\n";
    case Object::Fault:
        return "Usage: rdmactl [OPTIONS] fault [show]\n"
               "       rdmactl [OPTIONS] fault set POINT TRIGGER [times T] [errno E]\n"
               "                              [delay MS] [transport ID]\n"
               "       rdmactl [OPTIONS] fault clear [POINT | all]\n"
               "       rdmactl fault help\n"
               "where  POINT := { post-send | post-recv | dma-map | sendctx-alloc | frwr-reg |\n"
               "                  completion-error | completion-delay | recv-drop | rw-ctx |\n"
               "                  addr-change | qp-fatal | write-chunk-long | reply-delay |\n"
               "                  bc-release-delay }\n"
               "       TRIGGER := { nth N | every N | prob PPM }\n"
               "Fault injection, for testing: an armed point makes the module fail there\n"
               "as a real failure would. nth N fires once, at the N-th hit; every N at\n"
               "every N-th hit; prob PPM at each hit with a chance of PPM per million;\n"
               "times T bounds the firings of every and prob (0: no limit). errno E\n"
               "(a name such as ENOMEM, or a number; default EIO) is what post-send,\n"
               "post-recv, dma-map, sendctx-alloc, frwr-reg and rw-ctx return; delay MS\n"
               "(1 to 10000, default 1000) is how long completion-delay holds a\n"
               "completion queue, reply-delay the client's reply worker and\n"
               "bc-release-delay the client's callback service. transport ID limits the\n"
               "point to one transport.\n"
               "show lists every point with its hits and firings since it was armed;\n"
               "clear disarms one point, or all. set and clear need CAP_NET_ADMIN.\n";
    case Object::Config:
        return config_usage();
    case Object::Bench:
        return bench_usage();
    case Object::Ping:
        return ping_usage();
    case Object::Monitor:
        return monitor_usage();
    case Object::None:
        break;
    }
    return "Usage: rdmactl [OPTIONS] OBJECT [COMMAND [ARGS]]\n"
           "       rdmactl help [OBJECT]\n"
           "       rdmactl [OPTIONS] ping [PING-OPTIONS] ADDR[:PORT]\n"
           "       rdmactl [OPTIONS] monitor [-t] [--log FILE]\n"
           "where  OBJECT := { dev | module | transport | listener | stats | config | fault |\n"
           "                  bench | monitor }\n"
           "Shows and configures xrpcrdma, the RPC-over-RDMA version 1 transport\n"
           "module, through its generic netlink family \"xrpcrdma\". Showing needs no\n"
           "privilege; changing anything needs CAP_NET_ADMIN.\n"
           "Objects and commands may be shortened to a unique prefix (rdmactl d sh).\n"
           "\n"
           "Options (before or after the object):\n"
           "  -j, --json      output JSON\n"
           "  -p, --pretty    indent the JSON output\n"
           "  -d, --details   show more details\n"
           "  -V, --version   print the version of rdmactl\n"
           "  -h, --help      print this help\n"
           "Exit status: 0 on success, 1 when the kernel or the system reports an\n"
           "error (the message says which) or the output cannot be written, 2 on\n"
           "usage errors.\n";
}

} // namespace rdmactl
