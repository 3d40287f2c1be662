// SPDX-License-Identifier: GPL-2.0
#include "output.hpp"

#include <cstdio>
#include <variant>

#include <linux/xrpcrdma.h>

namespace rdmactl {

namespace {

using Json = nlohmann::ordered_json;

// The value of one field; monostate when an optional field is absent, which
// then shows neither in text nor in JSON.
using Value = std::variant<std::monostate, uint64_t, bool, std::string>;

// A scalar field: JSON "key": value; text "label value", or "value:" for the
// header fields (label nullptr) that start a line, as in "0: rxe0: ...".
template <typename T> struct Field {
    const char *key;
    const char *label;
    Value (*get)(const T &);
};

// A list of sub-objects, each with its own fields; the first of those
// identifies an element (e.g. the port number).
template <typename T, typename E> struct ListField {
    const char *key;
    const std::vector<E> &(*get)(const T &);
    const std::vector<Field<E>> *fields;
};

// A list of name/count pairs: a JSON object, a "label: name count ..." line.
template <typename T> struct CounterField {
    const char *key;
    const char *label;
    const std::vector<LiveObject> &(*get)(const T &);
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
    Json counters = Json::object();
    for (const LiveObject &c : field.get(src))
        counters[c.name] = c.count;
    obj[field.key] = std::move(counters);
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
    if (field.label)
        append_word(line, std::string(field.label) + ' ' + text_value(value));
    else
        append_word(line, text_value(value) + ':');
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
    const auto &counters = live_objects_field.get(info);
    std::string line = std::string(live_objects_field.label) + ':';
    if (counters.empty())
        return text + line + " none\n";
    if (!details) {
        for (const LiveObject &c : counters)
            line += ' ' + c.name + ' ' + std::to_string(c.count);
        return text + line + '\n';
    }
    text += line + '\n';
    for (const LiveObject &c : counters)
        text += indent + c.name + ' ' + std::to_string(c.count) + '\n';
    return text;
}

namespace {

void print_json(std::ostream &out, const Json &json, const OutputOptions &opts)
{
    // Names come from the kernel: never let invalid UTF-8 abort the output.
    out << json.dump(opts.pretty ? 4 : -1, ' ', false, Json::error_handler_t::replace) << '\n';
}

} // namespace

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

} // namespace rdmactl
