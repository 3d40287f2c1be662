// SPDX-License-Identifier: GPL-2.0
#include "output.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <variant>

#include <sys/socket.h>

#include <linux/xrpcrdma.h>

namespace rdmactl {

namespace {

using Json = nlohmann::ordered_json;

// The value of one field; monostate when an optional field is absent, which
// then shows neither in text nor in JSON.
using Value = std::variant<std::monostate, uint64_t, bool, std::string>;

// A scalar field: JSON "key": value; text "label value", or "value:" for the
// header fields (label nullptr) that start a line, as in "0: rxe0: ...", or
// the bare value (label ""). A detail field shows in text only with -d.
template <typename T> struct Field {
    const char *key;
    const char *label;
    Value (*get)(const T &);
    bool detail = false;
    // The text form, when it is not the value itself (e.g. a name in
    // parentheses after a number); nullptr: the value.
    std::string (*text)(const T &) = nullptr;
};

// One end of a transport: JSON "key_addr": "10.0.0.1", "key_port": 20050;
// text "label 10.0.0.1:20050" ("[::1]:20050" for IPv6). Absent when get
// returns nullptr.
template <typename T> struct EndField {
    const char *key_addr;
    const char *key_port;
    const char *label;
    const SockAddr *(*get)(const T &);
};

// A list of sub-objects, each with its own fields; the first of those
// identifies an element (e.g. the port number).
template <typename T, typename E> struct ListField {
    const char *key;
    const std::vector<E> &(*get)(const T &);
    const std::vector<Field<E>> *fields;
};

// A list of name/count pairs: a JSON object, a "label: name count ..." line.
// With omit_empty, an empty list shows neither in JSON nor in text.
template <typename T> struct CounterField {
    const char *key;
    const char *label;
    const std::vector<Counter> &(*get)(const T &);
    bool omit_empty = false;
};

// ---- The descriptions ----

const std::vector<Field<Port>> &port_fields()
{
    static const std::vector<Field<Port>> fields = {
        {"port", "port", [](const Port &p) -> Value { return uint64_t{p.number}; }},
        {"state", "state", [](const Port &p) -> Value { return port_state_name(p.state); }},
        {"netdev", "netdev",
         [](const Port &p) -> Value { return p.netdev ? Value{*p.netdev} : Value{}; }},
    };
    return fields;
}

using DeviceItem = std::variant<Field<Device>, ListField<Device, Port>>;

const std::vector<DeviceItem> &device_items()
{
    static const std::vector<DeviceItem> items = {
        Field<Device>{"ifindex", nullptr,
                      [](const Device &d) -> Value { return uint64_t{d.index}; }},
        Field<Device>{"ifname", nullptr, [](const Device &d) -> Value { return d.name; }},
        Field<Device>{"node_guid", "node_guid",
                      [](const Device &d) -> Value { return format_guid(d.node_guid); }},
        ListField<Device, Port>{
            "ports", [](const Device &d) -> const std::vector<Port> & { return d.ports; },
            &port_fields()},
        Field<Device>{"usable", "usable", [](const Device &d) -> Value { return d.usable; }},
        Field<Device>{"enabled", "enabled", [](const Device &d) -> Value { return d.enabled; }},
    };
    return items;
}

const std::vector<Field<ModuleInfo>> &module_fields()
{
    static const std::vector<Field<ModuleInfo>> fields = {
        {"version", "version", [](const ModuleInfo &m) -> Value { return m.version; }},
        {"build_kernel", "kernel", [](const ModuleInfo &m) -> Value { return m.build_kernel; }},
        {"mode", "mode", [](const ModuleInfo &m) -> Value { return mode_name(m.mode); }},
    };
    return fields;
}

const CounterField<ModuleInfo> live_objects_field = {
    "live_objects", "live objects",
    [](const ModuleInfo &m) -> const std::vector<LiveObject> & { return m.live_objects; }};

// A connection's number, absent for a listener and a client without a
// connection.
template <uint32_t ConnectionInfo::*Member> Value conn_number(const Transport &t)
{
    return t.conn && t.conn->numbers ? Value{uint64_t{(*t.conn).*Member}} : Value{};
}

// The local end; a client without a connection has none.
const SockAddr *local_end(const Transport &t)
{
    return t.local.family ? &t.local : nullptr;
}

// The service; a client transport serves none.
Value serv_value(const Transport &t)
{
    return t.role == XRPCRDMA_TRANSPORT_ROLE_CLIENT && t.serv.empty() ? Value{} : Value{t.serv};
}

const std::vector<Counter> &conn_stats(const Transport &t)
{
    static const std::vector<Counter> none;
    return t.conn ? t.conn->stats : none;
}

using TransportItem = std::variant<Field<Transport>, EndField<Transport>, CounterField<Transport>>;

const std::vector<TransportItem> &transport_items()
{
    using F = Field<Transport>;
    using C = ConnectionInfo;
    static const std::vector<TransportItem> items = {
        F{"id", nullptr, [](const Transport &t) -> Value { return uint64_t{t.id}; }},
        F{"role", "", [](const Transport &t) -> Value { return transport_role_name(t.role); }},
        F{"class", "class", [](const Transport &t) -> Value { return t.cls; }},
        F{"serv", "serv", serv_value},
        F{"state", "state",
          [](const Transport &t) -> Value { return transport_state_name(t.state); }},
        EndField<Transport>{"local_addr", "local_port", "local", local_end},
        EndField<Transport>{"peer_addr", "peer_port", "peer",
                            [](const Transport &t) -> const SockAddr * {
                                return t.conn ? &t.conn->peer : nullptr;
                            }},
        F{"credits", "credits", conn_number<&C::credits>},
        F{"inline_send", "inline_send", conn_number<&C::inline_send>},
        F{"inline_recv", "inline_recv", conn_number<&C::inline_recv>},
        F{"peer_inline_send", "peer_inline_send", conn_number<&C::peer_inline_send>},
        F{"peer_inline_recv", "peer_inline_recv", conn_number<&C::peer_inline_recv>},
        F{"sq_depth", "sq_depth", conn_number<&C::sq_depth>, true},
        F{"sq_free", "sq_free", conn_number<&C::sq_free>, true},
        F{"rq_depth", "rq_depth", conn_number<&C::rq_depth>, true},
        F{"sendctx_allocated", "sendctx_allocated", conn_number<&C::sendctx_allocated>, true},
        F{"sendctx_free", "sendctx_free", conn_number<&C::sendctx_free>, true},
        F{"recvctx_allocated", "recvctx_allocated", conn_number<&C::recvctx_allocated>, true},
        F{"recvctx_bytes", "recvctx_bytes", conn_number<&C::recvctx_bytes>, true},
        CounterField<Transport>{"stats", "stats", conn_stats, true},
    };
    return items;
}

// A listener as listener show lists it: no role (all are listeners).
const std::vector<TransportItem> &listener_items()
{
    static const std::vector<TransportItem> items = [] {
        std::vector<TransportItem> picked;
        for (const TransportItem &item : transport_items()) {
            const auto *f = std::get_if<Field<Transport>>(&item);
            if (f && std::string(f->key) == "role")
                continue;
            picked.push_back(item);
            if (std::holds_alternative<EndField<Transport>>(item))
                break; // the local address is the last thing of a listener
        }
        return picked;
    }();
    return items;
}

const CounterField<Stats> server_stats_field = {
    "server", "server", [](const Stats &s) -> const std::vector<Counter> & { return s.server; }};

// An event: what follows its name. A transport event has what the
// notification carries, a listener's fields first, as transport show has
// them.
template <uint32_t ConnectionInfo::*Member> Value negotiated_number(const Event &e)
{
    return e.negotiated && e.transport.conn ? Value{uint64_t{(*e.transport.conn).*Member}}
                                            : Value{};
}

const std::vector<Counter> &event_stats(const Event &e)
{
    return conn_stats(e.transport);
}

using EventItem = std::variant<Field<Event>, EndField<Event>, CounterField<Event>>;

const std::vector<EventItem> &transport_event_items()
{
    using F = Field<Event>;
    using C = ConnectionInfo;
    static const std::vector<EventItem> items = {
        F{"id", nullptr, [](const Event &e) -> Value { return uint64_t{e.transport.id}; }},
        F{"role", "",
          [](const Event &e) -> Value { return transport_role_name(e.transport.role); }},
        F{"class", "class", [](const Event &e) -> Value { return e.transport.cls; }},
        F{"serv", "serv", [](const Event &e) -> Value { return serv_value(e.transport); }},
        F{"state", "state",
          [](const Event &e) -> Value { return transport_state_name(e.transport.state); }},
        EndField<Event>{"local_addr", "local_port", "local",
                        [](const Event &e) { return local_end(e.transport); }},
        EndField<Event>{"peer_addr", "peer_port", "peer",
                        [](const Event &e) -> const SockAddr * {
                            return e.transport.conn ? &e.transport.conn->peer : nullptr;
                        }},
        F{"credits", "credits", negotiated_number<&C::credits>},
        F{"inline_send", "inline_send", negotiated_number<&C::inline_send>},
        F{"inline_recv", "inline_recv", negotiated_number<&C::inline_recv>},
        F{"peer_inline_send", "peer_inline_send", negotiated_number<&C::peer_inline_send>},
        F{"peer_inline_recv", "peer_inline_recv", negotiated_number<&C::peer_inline_recv>},
        F{"reason", "reason",
          [](const Event &e) -> Value {
              return e.reason ? Value{close_reason_name(*e.reason)} : Value{};
          }},
        F{"reject_reason", "reason",
          [](const Event &e) -> Value {
              return e.reject_reason ? Value{reject_reason_name(*e.reject_reason)} : Value{};
          }},
        CounterField<Event>{"stats", "stats", event_stats, true},
    };
    return items;
}

const std::vector<EventItem> &completion_error_items()
{
    using F = Field<Event>;
    static const std::vector<EventItem> items = {
        F{"transport_id", "transport",
          [](const Event &e) -> Value {
              return e.wc.transport_id ? Value{uint64_t{*e.wc.transport_id}} : Value{};
          }},
        F{"device", "device", [](const Event &e) -> Value { return e.wc.device; }},
        F{"qp_num", "qp", [](const Event &e) -> Value { return uint64_t{e.wc.qp_num}; }},
        F{"kind", "kind", [](const Event &e) -> Value { return wc_kind_name(e.wc.kind); }},
        F{"status", "status", [](const Event &e) -> Value { return uint64_t{e.wc.status}; }, false,
          [](const Event &e) {
              std::string text = std::to_string(e.wc.status);
              return e.wc.status_msg.empty() ? text : text + " (" + e.wc.status_msg + ')';
          }},
        // In text, with the status above.
        F{"status_msg", "", [](const Event &e) -> Value { return e.wc.status_msg; }, false,
          [](const Event &) { return std::string(); }},
        F{"vendor_err", "vendor_err",
          [](const Event &e) -> Value { return uint64_t{e.wc.vendor_err}; }},
        F{"suppressed", "suppressed",
          [](const Event &e) -> Value { return uint64_t{e.wc.suppressed}; }},
    };
    return items;
}

const std::vector<EventItem> &other_event_items()
{
    using F = Field<Event>;
    static const std::vector<EventItem> items = {
        F{"cmd", "cmd",
          [](const Event &e) -> Value {
              return e.type == EventType::Unknown ? Value{uint64_t{e.cmd}} : Value{};
          }},
        F{"message", "",
          [](const Event &e) -> Value {
              return e.type == EventType::Error ? Value{e.message} : Value{};
          }},
    };
    return items;
}

// A benchmark: a line with what it runs, one with its progress and
// status, one with the latencies. The result's fields are absent while
// it runs.
using BenchItem = std::variant<Field<Bench>, EndField<Bench>>;

template <uint64_t BenchResult::*Member> Value result_number(const Bench &b)
{
    return b.result ? Value{(*b.result).*Member} : Value{};
}

template <uint64_t BenchResult::*Member> std::string result_duration(const Bench &b)
{
    return duration_text((*b.result).*Member);
}

Value bytes_per_sec(const Bench &b)
{
    return b.result && b.result->bytes_per_sec ? Value{*b.result->bytes_per_sec} : Value{};
}

// MiB a second, to a tenth: "1170.3".
std::string mib_per_sec_text(const Bench &b)
{
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.1f", double(*b.result->bytes_per_sec) / 1048576.0);
    return buf;
}

// "running", "finished", or "stopped" (an error ended it early).
std::string bench_state_text(const Bench &b)
{
    if (b.running)
        return "running";
    return b.result && b.result->status ? "stopped" : "finished";
}

// Transport, program and version are an RPC benchmark's: the module
// sends them for every op, but they mean nothing to the others.
bool rpc_bench(const Bench &b)
{
    return b.op == XRPCRDMA_BENCH_OP_RPC_NULL;
}

template <uint32_t Bench::*Member> Value rpc_setting(const Bench &b)
{
    return rpc_bench(b) ? Value{uint64_t{b.*Member}} : Value{};
}

template <std::optional<uint32_t> Bench::*Member> Value optional_setting(const Bench &b)
{
    return b.*Member ? Value{uint64_t{*(b.*Member)}} : Value{};
}

// The address of an RPC benchmark is its server's; that of the others a
// local one, where the benchmark's own listener listens.
const SockAddr *bench_server(const Bench &b)
{
    return rpc_bench(b) ? &b.server : nullptr;
}

const SockAddr *bench_local(const Bench &b)
{
    return rpc_bench(b) ? nullptr : &b.server;
}

const std::vector<BenchItem> &bench_head_items()
{
    using F = Field<Bench>;
    static const std::vector<BenchItem> items = {
        F{"id", nullptr, [](const Bench &b) -> Value { return uint64_t{b.id}; }},
        F{"op", "", [](const Bench &b) -> Value { return bench_op_name(b.op); }},
        F{"transport", "",
          [](const Bench &b) -> Value {
              return rpc_bench(b) ? Value{bench_transport_name(b.transport)} : Value{};
          }},
        EndField<Bench>{"addr", "port", "server", bench_server},
        EndField<Bench>{"addr", "port", "local", bench_local},
        F{"program", "program", rpc_setting<&Bench::program>},
        F{"version", "version", rpc_setting<&Bench::version>},
        F{"reply-size", "reply-size", optional_setting<&Bench::reply_size>, false,
          [](const Bench &b) { return bench_size_text(*b.reply_size); }},
        F{"size", "size", optional_setting<&Bench::size>, false,
          [](const Bench &b) { return bench_size_text(*b.size); }},
        F{"qps", "qps", optional_setting<&Bench::qps>},
        F{"count", "count", [](const Bench &b) -> Value { return uint64_t{b.count}; }},
        F{"concurrency", "concurrency",
          [](const Bench &b) -> Value { return uint64_t{b.concurrency}; }},
        F{"running", "", [](const Bench &b) -> Value { return b.running; }, false,
          bench_state_text},
    };
    return items;
}

const std::vector<BenchItem> &bench_progress_items()
{
    using F = Field<Bench>;
    using R = BenchResult;
    static const std::vector<BenchItem> items = {
        F{"done", "done", [](const Bench &b) -> Value { return uint64_t{b.done}; }},
        F{"errors", "errors", [](const Bench &b) -> Value { return uint64_t{b.errors}; }},
        F{"status", "status",
          [](const Bench &b) -> Value {
              if (!b.result)
                  return Value{};
              if (!b.result->status)
                  return Value{uint64_t{0}};
              return Value{bench_status_name(b.result->status)};
          }},
        F{"elapsed-ns", "elapsed", result_number<&R::elapsed_ns>, false,
          result_duration<&R::elapsed_ns>},
        F{"ops-per-sec", "ops/s", result_number<&R::ops_per_sec>},
        F{"bytes-per-sec", "MiB/s", bytes_per_sec, false, mib_per_sec_text},
    };
    return items;
}

const std::vector<BenchItem> &bench_latency_items()
{
    using F = Field<Bench>;
    using R = BenchResult;
    static const std::vector<BenchItem> items = {
        F{"lat-p50-ns", "latency p50", result_number<&R::lat_p50_ns>, false,
          result_duration<&R::lat_p50_ns>},
        F{"lat-p99-ns", "p99", result_number<&R::lat_p99_ns>, false,
          result_duration<&R::lat_p99_ns>},
        F{"lat-p999-ns", "p99.9", result_number<&R::lat_p999_ns>, false,
          result_duration<&R::lat_p999_ns>},
        F{"lat-max-ns", "max", result_number<&R::lat_max_ns>, false,
          result_duration<&R::lat_max_ns>},
    };
    return items;
}

// A bench-progress event: only what the notification carries.
const std::vector<BenchItem> &bench_event_progress_items()
{
    using F = Field<Bench>;
    static const std::vector<BenchItem> items = {
        F{"id", nullptr, [](const Bench &b) -> Value { return uint64_t{b.id}; }},
        F{"count", "count", [](const Bench &b) -> Value { return uint64_t{b.count}; }},
        F{"done", "done", [](const Bench &b) -> Value { return uint64_t{b.done}; }},
        F{"errors", "errors", [](const Bench &b) -> Value { return uint64_t{b.errors}; }},
    };
    return items;
}

// ---- JSON ----

void put_json(Json &obj, const char *key, const Value &value)
{
    if (const auto *n = std::get_if<uint64_t>(&value))
        obj[key] = *n;
    else if (const auto *b = std::get_if<bool>(&value))
        obj[key] = *b;
    else if (const auto *s = std::get_if<std::string>(&value))
        obj[key] = *s;
}

template <typename T> void add_json(Json &obj, const T &src, const Field<T> &field)
{
    put_json(obj, field.key, field.get(src));
}

template <typename T> Json object_json(const T &src, const std::vector<Field<T>> &fields)
{
    Json obj = Json::object();
    for (const auto &field : fields)
        add_json(obj, src, field);
    return obj;
}

template <typename T, typename E>
void add_json(Json &obj, const T &src, const ListField<T, E> &field)
{
    Json list = Json::array();
    for (const E &elem : field.get(src))
        list.push_back(object_json(elem, *field.fields));
    obj[field.key] = std::move(list);
}

template <typename T> void add_json(Json &obj, const T &src, const CounterField<T> &field)
{
    const std::vector<Counter> &list = field.get(src);
    if (list.empty() && field.omit_empty)
        return;
    Json counters = Json::object();
    for (const Counter &c : list)
        counters[c.name] = c.count;
    obj[field.key] = std::move(counters);
}

template <typename T> void add_json(Json &obj, const T &src, const EndField<T> &field)
{
    const SockAddr *end = field.get(src);
    if (!end)
        return;
    obj[field.key_addr] = end->addr;
    obj[field.key_port] = end->port;
}

template <typename T, typename Item> Json items_json(const T &src, const std::vector<Item> &items)
{
    Json obj = Json::object();
    for (const auto &item : items)
        std::visit([&](const auto &field) { add_json(obj, src, field); }, item);
    return obj;
}

// ---- Text ----

std::string text_value(const Value &value)
{
    if (const auto *n = std::get_if<uint64_t>(&value))
        return std::to_string(*n);
    if (const auto *b = std::get_if<bool>(&value))
        return *b ? "yes" : "no";
    if (const auto *s = std::get_if<std::string>(&value))
        return *s;
    return {};
}

void append_word(std::string &line, const std::string &word)
{
    if (!line.empty())
        line += ' ';
    line += word;
}

template <typename T> void append_text(std::string &line, const T &src, const Field<T> &field)
{
    Value value = field.get(src);
    if (std::holds_alternative<std::monostate>(value))
        return;
    std::string text = field.text ? field.text(src) : text_value(value);
    if (text.empty() && field.text)
        return; // shown in text with another field
    if (!field.label)
        append_word(line, text + ':');
    else if (!*field.label)
        append_word(line, text);
    else
        append_word(line, std::string(field.label) + ' ' + text);
}

// The fields of src from the first'th on, on one line.
template <typename T>
std::string fields_text(const T &src, const std::vector<Field<T>> &fields, size_t first = 0)
{
    std::string line;
    for (size_t i = first; i < fields.size(); i++)
        append_text(line, src, fields[i]);
    return line;
}

constexpr const char *indent = "    ";

// A lone element is shown inline, without its identifying first field;
// otherwise (or with details) each element gets an indented line of its own.
template <typename T, typename E>
void append_text(std::string &line, std::vector<std::string> &sub_lines, const T &src,
                 const ListField<T, E> &field, bool details)
{
    const std::vector<E> &elems = field.get(src);
    if (elems.size() == 1 && !details) {
        std::string rest = fields_text(elems.front(), *field.fields, 1);
        if (!rest.empty())
            append_word(line, rest);
        return;
    }
    for (const E &elem : elems)
        sub_lines.push_back(indent + fields_text(elem, *field.fields));
}

std::string join_lines(const std::string &first, const std::vector<std::string> &rest)
{
    std::string text = first + '\n';
    for (const auto &line : rest)
        text += line + '\n';
    return text;
}

// The fields of a line of items; detail fields only with details.
template <typename T>
void append_item(std::string &line, std::vector<std::string> &, const T &src, const Field<T> &field,
                 bool details)
{
    if (!field.detail || details)
        append_text(line, src, field);
}

template <typename T>
void append_item(std::string &line, std::vector<std::string> &, const T &src,
                 const EndField<T> &field, bool)
{
    if (const SockAddr *end = field.get(src))
        append_word(line, std::string(field.label) + ' ' + format_sockaddr(*end));
}

// Counters: with details, an indented "label: name count ..." line.
template <typename T>
void append_item(std::string &, std::vector<std::string> &sub_lines, const T &src,
                 const CounterField<T> &field, bool details)
{
    const std::vector<Counter> &list = field.get(src);
    if (!details || list.empty())
        return;
    std::string line = std::string(indent) + field.label + ':';
    for (const Counter &c : list)
        line += ' ' + c.name + ' ' + std::to_string(c.count);
    sub_lines.push_back(line);
}

template <typename T, typename Item>
std::string items_text(const T &src, const std::vector<Item> &items, bool details)
{
    std::string line;
    std::vector<std::string> sub_lines;
    for (const auto &item : items)
        std::visit([&](const auto &field) { append_item(line, sub_lines, src, field, details); },
                   item);
    return join_lines(line, sub_lines);
}

// "label: name count ...", or with details "label:" and a line per counter,
// or "label: none".
template <typename T>
std::string counters_text(const T &src, const CounterField<T> &field, bool details)
{
    const std::vector<Counter> &list = field.get(src);
    std::string line = std::string(field.label) + ':';
    if (list.empty())
        return line + " none\n";
    if (!details) {
        for (const Counter &c : list)
            line += ' ' + c.name + ' ' + std::to_string(c.count);
        return line + '\n';
    }
    std::string text = line + '\n';
    for (const Counter &c : list)
        text += indent + c.name + ' ' + std::to_string(c.count) + '\n';
    return text;
}

} // namespace

namespace {

// The fields of items on one line, without its newline.
template <typename T, typename Item>
std::string items_line(const T &src, const std::vector<Item> &items)
{
    std::string text = items_text(src, items, false);
    text.pop_back();
    return text;
}

} // namespace

std::string format_guid(uint64_t guid)
{
    char buf[sizeof("xxxx:xxxx:xxxx:xxxx")];
    std::snprintf(buf, sizeof(buf), "%04x:%04x:%04x:%04x", unsigned(guid >> 48) & 0xffff,
                  unsigned(guid >> 32) & 0xffff, unsigned(guid >> 16) & 0xffff,
                  unsigned(guid) & 0xffff);
    return buf;
}

std::string port_state_name(uint32_t state)
{
    switch (state) {
    case XRPCRDMA_PORT_STATE_NOP:
        return "NOP";
    case XRPCRDMA_PORT_STATE_DOWN:
        return "DOWN";
    case XRPCRDMA_PORT_STATE_INIT:
        return "INIT";
    case XRPCRDMA_PORT_STATE_ARMED:
        return "ARMED";
    case XRPCRDMA_PORT_STATE_ACTIVE:
        return "ACTIVE";
    case XRPCRDMA_PORT_STATE_ACTIVE_DEFER:
        return "ACTIVE_DEFER";
    }
    return std::to_string(state);
}

std::string mode_name(uint32_t mode)
{
    switch (mode) {
    case XRPCRDMA_MODE_DROPIN:
        return "dropin";
    case XRPCRDMA_MODE_SIDEBYSIDE:
        return "sidebyside";
    }
    return std::to_string(mode);
}

nlohmann::ordered_json device_json(const Device &dev)
{
    Json obj = Json::object();
    for (const auto &item : device_items())
        std::visit([&](const auto &field) { add_json(obj, dev, field); }, item);
    return obj;
}

nlohmann::ordered_json module_json(const ModuleInfo &info)
{
    Json obj = object_json(info, module_fields());
    add_json(obj, info, live_objects_field);
    return obj;
}

std::string device_text(const Device &dev, bool details)
{
    std::string line;
    std::vector<std::string> sub_lines;
    for (const auto &item : device_items()) {
        if (const auto *list = std::get_if<ListField<Device, Port>>(&item))
            append_text(line, sub_lines, dev, *list, details);
        else
            append_text(line, dev, std::get<Field<Device>>(item));
    }
    return join_lines(line, sub_lines);
}

// "xrpcrdma version V kernel K", then the counters on one line, or with
// details one per indented line.
std::string module_text(const ModuleInfo &info, bool details)
{
    std::string text = XRPCRDMA_FAMILY_NAME " " + fields_text(info, module_fields()) + '\n';
    return text + counters_text(info, live_objects_field, details);
}

std::string transport_role_name(uint32_t role)
{
    switch (role) {
    case XRPCRDMA_TRANSPORT_ROLE_SERVER_LISTENER:
        return "server-listener";
    case XRPCRDMA_TRANSPORT_ROLE_SERVER_CONNECTION:
        return "server-connection";
    case XRPCRDMA_TRANSPORT_ROLE_CLIENT:
        return "client";
    }
    return std::to_string(role);
}

std::string transport_state_name(uint32_t state)
{
    switch (state) {
    case XRPCRDMA_TRANSPORT_STATE_LISTENING:
        return "listening";
    case XRPCRDMA_TRANSPORT_STATE_CONNECTED:
        return "connected";
    case XRPCRDMA_TRANSPORT_STATE_CLOSING:
        return "closing";
    case XRPCRDMA_TRANSPORT_STATE_CONNECTING:
        return "connecting";
    case XRPCRDMA_TRANSPORT_STATE_DISCONNECTED:
        return "disconnected";
    }
    return std::to_string(state);
}

std::string format_sockaddr(const SockAddr &end)
{
    std::string addr = end.family == AF_INET6 ? '[' + end.addr + ']' : end.addr;
    return addr + ':' + std::to_string(end.port);
}

nlohmann::ordered_json transport_json(const Transport &t)
{
    return items_json(t, transport_items());
}

nlohmann::ordered_json listener_json(const Transport &t)
{
    return items_json(t, listener_items());
}

nlohmann::ordered_json stats_json(const Stats &stats)
{
    Json obj = Json::object();
    add_json(obj, stats, server_stats_field);
    return obj;
}

std::string transport_text(const Transport &t, bool details)
{
    return items_text(t, transport_items(), details);
}

std::string listener_text(const Transport &t)
{
    return items_text(t, listener_items(), false);
}

std::string stats_text(const Stats &stats, bool details)
{
    return counters_text(stats, server_stats_field, details);
}

void print_json(std::ostream &out, const Json &json, const OutputOptions &opts)
{
    out << json.dump(opts.pretty ? 4 : -1, ' ', false, Json::error_handler_t::replace) << '\n';
}

bool starts_with(std::string_view text, std::string_view prefix)
{
    return text.substr(0, prefix.size()) == prefix;
}

void print_devices(std::ostream &out, const std::vector<Device> &devs, const OutputOptions &opts)
{
    if (opts.json) {
        Json list = Json::array();
        for (const Device &dev : devs)
            list.push_back(device_json(dev));
        print_json(out, list, opts);
        return;
    }
    for (const Device &dev : devs)
        out << device_text(dev, opts.details);
}

void print_module(std::ostream &out, const ModuleInfo &info, const OutputOptions &opts)
{
    if (opts.json)
        print_json(out, module_json(info), opts);
    else
        out << module_text(info, opts.details);
}

void print_transports(std::ostream &out, const std::vector<Transport> &list,
                      const OutputOptions &opts)
{
    if (opts.json) {
        Json array = Json::array();
        for (const Transport &t : list)
            array.push_back(transport_json(t));
        print_json(out, array, opts);
        return;
    }
    for (const Transport &t : list)
        out << transport_text(t, opts.details);
}

void print_listeners(std::ostream &out, const std::vector<Transport> &list,
                     const OutputOptions &opts)
{
    if (opts.json) {
        Json array = Json::array();
        for (const Transport &t : list)
            array.push_back(listener_json(t));
        print_json(out, array, opts);
        return;
    }
    for (const Transport &t : list)
        out << listener_text(t);
}

Json config_json(const Config &cfg)
{
    Json j = Json::object();
    if (cfg.transport_id)
        j["transport-id"] = *cfg.transport_id;
    for (const ConfigValue &v : cfg.values)
        j[v.name] = v.value;
    return j;
}

std::string config_text(const Config &cfg)
{
    std::string text;
    if (cfg.transport_id)
        text += "transport " + std::to_string(*cfg.transport_id) + '\n';
    for (const ConfigValue &v : cfg.values)
        text += v.name + ' ' + std::to_string(v.value) + '\n';
    return text;
}

void print_config(std::ostream &out, const Config &cfg, const OutputOptions &opts)
{
    if (opts.json)
        print_json(out, config_json(cfg), opts);
    else
        out << config_text(cfg);
}

void print_stats(std::ostream &out, const Stats &stats, const OutputOptions &opts)
{
    if (opts.json)
        print_json(out, stats_json(stats), opts);
    else
        out << stats_text(stats, opts.details);
}

std::string fault_point_name(uint32_t point)
{
    switch (point) {
    case XRPCRDMA_FAULT_POINT_POST_SEND:
        return "post-send";
    case XRPCRDMA_FAULT_POINT_POST_RECV:
        return "post-recv";
    case XRPCRDMA_FAULT_POINT_DMA_MAP:
        return "dma-map";
    case XRPCRDMA_FAULT_POINT_SENDCTX_ALLOC:
        return "sendctx-alloc";
    case XRPCRDMA_FAULT_POINT_FRWR_REG:
        return "frwr-reg";
    case XRPCRDMA_FAULT_POINT_COMPLETION_ERROR:
        return "completion-error";
    case XRPCRDMA_FAULT_POINT_COMPLETION_DELAY:
        return "completion-delay";
    case XRPCRDMA_FAULT_POINT_RECV_DROP:
        return "recv-drop";
    case XRPCRDMA_FAULT_POINT_RW_CTX:
        return "rw-ctx";
    case XRPCRDMA_FAULT_POINT_ADDR_CHANGE:
        return "addr-change";
    case XRPCRDMA_FAULT_POINT_QP_FATAL:
        return "qp-fatal";
    case XRPCRDMA_FAULT_POINT_WRITE_CHUNK_LONG:
        return "write-chunk-long";
    case XRPCRDMA_FAULT_POINT_REPLY_DELAY:
        return "reply-delay";
    case XRPCRDMA_FAULT_POINT_BC_RELEASE_DELAY:
        return "bc-release-delay";
    }
    return std::to_string(point);
}

std::string fault_trigger_name(uint32_t trigger)
{
    switch (trigger) {
    case XRPCRDMA_FAULT_TRIGGER_OFF:
        return "off";
    case XRPCRDMA_FAULT_TRIGGER_NTH:
        return "nth";
    case XRPCRDMA_FAULT_TRIGGER_EVERY:
        return "every";
    case XRPCRDMA_FAULT_TRIGGER_PROBABILITY:
        return "prob";
    }
    return std::to_string(trigger);
}

namespace {

struct ErrnoName {
    const char *name;
    uint32_t error;
};

// The errors a failed post, mapping or allocation plausibly returns.
constexpr ErrnoName errno_names[] = {
    {"EPERM", EPERM},
    {"ENOENT", ENOENT},
    {"EIO", EIO},
    {"ENXIO", ENXIO},
    {"EAGAIN", EAGAIN},
    {"ENOMEM", ENOMEM},
    {"EFAULT", EFAULT},
    {"EBUSY", EBUSY},
    {"ENODEV", ENODEV},
    {"EINVAL", EINVAL},
    {"ENOSPC", ENOSPC},
    {"ENETDOWN", ENETDOWN},
    {"ENETUNREACH", ENETUNREACH},
    {"ECONNABORTED", ECONNABORTED},
    {"ECONNRESET", ECONNRESET},
    {"ENOBUFS", ENOBUFS},
    {"ENOTCONN", ENOTCONN},
    {"ETIMEDOUT", ETIMEDOUT},
    {"ECONNREFUSED", ECONNREFUSED},
    {"EHOSTUNREACH", EHOSTUNREACH},
};

} // namespace

std::string errno_name(uint32_t error)
{
    for (const ErrnoName &e : errno_names) {
        if (e.error == error)
            return e.name;
    }
    return std::to_string(error);
}

std::optional<uint32_t> errno_by_name(const std::string &name)
{
    for (const ErrnoName &e : errno_names) {
        if (name == e.name)
            return e.error;
    }
    return std::nullopt;
}

nlohmann::ordered_json fault_json(const Fault &f)
{
    Json obj = Json::object();
    obj["point"] = fault_point_name(f.point);
    obj["trigger"] = fault_trigger_name(f.trigger);
    auto put = [&](const char *key, const std::optional<uint32_t> &v) {
        if (v)
            obj[key] = *v;
    };
    put("n", f.n);
    put("probability", f.probability);
    put("times", f.times);
    if (f.error)
        obj["errno"] = errno_name(*f.error);
    put("delay_ms", f.delay_ms);
    put("transport", f.transport_id);
    obj["hits"] = f.hits;
    obj["fired"] = f.fired;
    return obj;
}

// "post-send: every 3 times 2 errno EIO transport 4 hits 9 fired 2"
std::string fault_text(const Fault &f)
{
    std::string text = fault_point_name(f.point) + ": " + fault_trigger_name(f.trigger);
    auto put = [&](const char *label, const std::optional<uint32_t> &v) {
        if (v)
            text += std::string(" ") + label + std::to_string(*v);
    };
    put("", f.n);
    put("", f.probability);
    if (f.times && *f.times)
        put("times ", f.times);
    if (f.error)
        text += " errno " + errno_name(*f.error);
    put("delay ", f.delay_ms);
    put("transport ", f.transport_id);
    text += " hits " + std::to_string(f.hits) + " fired " + std::to_string(f.fired) + "\n";
    return text;
}

void print_faults(std::ostream &out, const std::vector<Fault> &faults, const OutputOptions &opts)
{
    if (opts.json) {
        Json list = Json::array();
        for (const Fault &f : faults)
            list.push_back(fault_json(f));
        print_json(out, list, opts);
        return;
    }
    for (const Fault &f : faults)
        out << fault_text(f);
}

std::string bench_op_name(uint32_t op)
{
    switch (op) {
    case XRPCRDMA_BENCH_OP_RPC_NULL:
        return "rpc-null";
    case XRPCRDMA_BENCH_OP_RDMA_WRITE:
        return "rdma-write";
    case XRPCRDMA_BENCH_OP_RDMA_READ:
        return "rdma-read";
    }
    return std::to_string(op);
}

std::optional<uint32_t> bench_op_by_name(const std::string &name)
{
    for (uint32_t op :
         {XRPCRDMA_BENCH_OP_RPC_NULL, XRPCRDMA_BENCH_OP_RDMA_WRITE, XRPCRDMA_BENCH_OP_RDMA_READ}) {
        if (name == bench_op_name(op))
            return op;
    }
    return std::nullopt;
}

std::string bench_transport_name(uint32_t transport)
{
    switch (transport) {
    case XRPCRDMA_BENCH_TRANSPORT_TCP:
        return "tcp";
    case XRPCRDMA_BENCH_TRANSPORT_RDMA:
        return "rdma";
    }
    return std::to_string(transport);
}

std::optional<uint32_t> bench_transport_by_name(const std::string &name)
{
    for (uint32_t t : {XRPCRDMA_BENCH_TRANSPORT_TCP, XRPCRDMA_BENCH_TRANSPORT_RDMA}) {
        if (name == bench_transport_name(t))
            return t;
    }
    return std::nullopt;
}

std::string bench_status_name(int32_t status)
{
    if (!status)
        return "0";
    uint32_t error = status < 0 ? uint32_t(-int64_t{status}) : uint32_t(status);
    std::string name = errno_name(error);
    if (name != std::to_string(error))
        return name;
    const char *libc = strerrorname_np(int(error));
    return libc ? libc : name;
}

std::string bench_size_text(uint32_t bytes)
{
    if (bytes && bytes % 1048576 == 0)
        return std::to_string(bytes / 1048576) + "MiB";
    if (bytes && bytes % 1024 == 0)
        return std::to_string(bytes / 1024) + "KiB";
    return std::to_string(bytes);
}

std::string duration_text(uint64_t ns)
{
    static const struct {
        uint64_t scale;
        const char *unit;
    } units[] = {{1000000000, "s"}, {1000000, "ms"}, {1000, "us"}};
    for (const auto &u : units) {
        if (ns < u.scale)
            continue;
        double v = double(ns) / double(u.scale);
        char buf[32];
        std::snprintf(buf, sizeof(buf),
                      v < 10    ? "%.2f%s"
                      : v < 100 ? "%.1f%s"
                                : "%.0f%s",
                      v, u.unit);
        return buf;
    }
    return std::to_string(ns) + "ns";
}

nlohmann::ordered_json bench_json(const Bench &b)
{
    static const std::vector<BenchItem> all = [] {
        std::vector<BenchItem> items;
        for (const auto *part :
             {&bench_head_items(), &bench_progress_items(), &bench_latency_items()})
            items.insert(items.end(), part->begin(), part->end());
        return items;
    }();
    return items_json(b, all);
}

std::string bench_text(const Bench &b)
{
    std::string text = items_text(b, bench_head_items(), false);
    text += indent + items_text(b, bench_progress_items(), false);
    if (b.result)
        text += indent + items_text(b, bench_latency_items(), false);
    return text;
}

void print_benches(std::ostream &out, const std::vector<Bench> &list, const OutputOptions &opts)
{
    if (opts.json) {
        Json array = Json::array();
        for (const Bench &b : list)
            array.push_back(bench_json(b));
        print_json(out, array, opts);
        return;
    }
    for (const Bench &b : list)
        out << bench_text(b);
}

void print_bench(std::ostream &out, const Bench &b, const OutputOptions &opts)
{
    if (opts.json)
        print_json(out, bench_json(b), opts);
    else
        out << bench_text(b);
}

std::string bench_progress_bar(uint32_t done, uint32_t count, uint32_t errors)
{
    constexpr size_t width = 20;
    uint32_t shown = count ? std::min(done, count) : 0;
    size_t filled = count ? size_t(uint64_t{shown} * width / count) : 0;
    unsigned percent = count ? unsigned(uint64_t{shown} * 100 / count) : 0;
    std::string bar = '[' + std::string(filled, '#') + std::string(width - filled, '-') + ']';
    char buf[96];
    std::snprintf(buf, sizeof(buf), " %u/%u %3u%% errors %u", done, count, percent, errors);
    return bar + buf;
}

std::string reject_reason_name(uint32_t reason)
{
    switch (reason) {
    case XRPCRDMA_REJECT_REASON_DEVICE_DISABLED:
        return "device-disabled";
    case XRPCRDMA_REJECT_REASON_NO_RDMA_READ:
        return "no-rdma-read";
    }
    return std::to_string(reason);
}

std::string close_reason_name(uint32_t reason)
{
    switch (reason) {
    case XRPCRDMA_CLOSE_REASON_UNKNOWN:
        return "unknown";
    case XRPCRDMA_CLOSE_REASON_LOCAL:
        return "local";
    case XRPCRDMA_CLOSE_REASON_PEER:
        return "peer";
    case XRPCRDMA_CLOSE_REASON_DEVICE_REMOVAL:
        return "device-removal";
    case XRPCRDMA_CLOSE_REASON_SEND_ERROR:
        return "send-error";
    case XRPCRDMA_CLOSE_REASON_RECV_ERROR:
        return "recv-error";
    case XRPCRDMA_CLOSE_REASON_CM_ERROR:
        return "cm-error";
    case XRPCRDMA_CLOSE_REASON_TIMEOUT:
        return "timeout";
    case XRPCRDMA_CLOSE_REASON_SEND_TIMEOUT:
        return "send-timeout";
    case XRPCRDMA_CLOSE_REASON_QP_ERROR:
        return "qp-error";
    }
    return std::to_string(reason);
}

std::string wc_kind_name(uint32_t kind)
{
    switch (kind) {
    case XRPCRDMA_WC_KIND_SEND:
        return "send";
    case XRPCRDMA_WC_KIND_RECV:
        return "recv";
    case XRPCRDMA_WC_KIND_RDMA_READ:
        return "rdma-read";
    case XRPCRDMA_WC_KIND_RDMA_WRITE:
        return "rdma-write";
    }
    return std::to_string(kind);
}

std::string event_name(EventType type)
{
    switch (type) {
    case EventType::DeviceAdd:
        return "device-add";
    case EventType::DeviceDel:
        return "device-del";
    case EventType::ListenerAdd:
        return "listener-add";
    case EventType::ListenerDel:
        return "listener-del";
    case EventType::TransportConnect:
        return "transport-connect";
    case EventType::TransportDisconnect:
        return "transport-disconnect";
    case EventType::CompletionError:
        return "completion-error";
    case EventType::BenchProgress:
        return "bench-progress";
    case EventType::BenchDone:
        return "bench-done";
    case EventType::ConnectReject:
        return "connect-reject";
    case EventType::ModuleUnload:
        return "module-unload";
    case EventType::ModuleLoad:
        return "module-load";
    case EventType::EventsLost:
        return "events-lost";
    case EventType::Unknown:
        return "unknown";
    case EventType::Error:
        return "error";
    }
    return "unknown";
}

namespace {

const std::vector<EventItem> &event_items(EventType type)
{
    switch (type) {
    case EventType::ListenerAdd:
    case EventType::ListenerDel:
    case EventType::TransportConnect:
    case EventType::TransportDisconnect:
    case EventType::ConnectReject:
        return transport_event_items();
    case EventType::CompletionError:
        return completion_error_items();
    default:
        return other_event_items();
    }
}

bool device_event(EventType type)
{
    return type == EventType::DeviceAdd || type == EventType::DeviceDel;
}

// bench-done: the benchmark as bench show has it; bench-progress: what
// the notification carries.
Json bench_event_json(const Event &e)
{
    if (e.type == EventType::BenchDone)
        return bench_json(e.bench);
    return items_json(e.bench, bench_event_progress_items());
}

// bench_text()'s lines joined into one.
std::string bench_event_text(const Event &e)
{
    if (e.type == EventType::BenchProgress)
        return items_line(e.bench, bench_event_progress_items());
    std::string text = bench_text(e.bench);
    text.pop_back();
    for (size_t nl; (nl = text.find('\n')) != std::string::npos;)
        text.replace(nl, 1 + std::string(indent).size(), " ");
    return text;
}

bool bench_event(EventType type)
{
    return type == EventType::BenchProgress || type == EventType::BenchDone;
}

// The fields of an event on one line; counters (with details) inline.
std::string event_fields_text(const Event &e, bool details)
{
    std::string line;
    std::vector<std::string> unused;
    for (const EventItem &item : event_items(e.type)) {
        if (const auto *counters = std::get_if<CounterField<Event>>(&item)) {
            const std::vector<Counter> &list = counters->get(e);
            if (!details || list.empty())
                continue;
            append_word(line, std::string(counters->label) + ':');
            for (const Counter &c : list)
                line += ' ' + c.name + ' ' + std::to_string(c.count);
            continue;
        }
        std::visit([&](const auto &field) { append_item(line, unused, e, field, details); }, item);
    }
    return line;
}

} // namespace

nlohmann::ordered_json event_json(const Event &e)
{
    Json obj = Json::object();
    obj["event"] = event_name(e.type);
    if (!e.time.empty())
        obj["time"] = e.time;
    Json body = device_event(e.type)  ? device_json(e.device)
                : bench_event(e.type) ? bench_event_json(e)
                                      : items_json(e, event_items(e.type));
    for (auto &[key, value] : body.items())
        obj[key] = value;
    return obj;
}

std::string event_text(const Event &e, bool details)
{
    std::string line = e.time.empty() ? "" : '[' + e.time + "] ";
    line += event_name(e.type);
    std::string body;
    if (device_event(e.type)) {
        // device_text's indented port lines, joined to its first line.
        std::string text = device_text(e.device, details);
        text.pop_back();
        for (size_t nl; (nl = text.find('\n')) != std::string::npos;)
            text.replace(nl, 1 + std::string(indent).size(), " ");
        body = text;
    } else if (bench_event(e.type)) {
        body = bench_event_text(e);
    } else {
        body = event_fields_text(e, details);
    }
    if (!body.empty())
        line += ' ' + body;
    return line + '\n';
}

std::string event_line(const Event &e, const OutputOptions &opts)
{
    if (!opts.json)
        return event_text(e, opts.details);
    // One object a line, whatever -p says.
    return event_json(e).dump(-1, ' ', false, Json::error_handler_t::replace) + '\n';
}

} // namespace rdmactl
