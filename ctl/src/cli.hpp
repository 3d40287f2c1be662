// SPDX-License-Identifier: GPL-2.0
// Command line: rdmactl [OPTIONS] OBJECT [COMMAND [ARGS]], iproute2 style.
// Objects and commands may be shortened to any unique prefix.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "output.hpp"
#include "monitor.hpp"
#include "ping.hpp"
#include "types.hpp"

namespace rdmactl {

enum class Object {
    None,
    Dev,
    Module,
    Transport,
    Listener,
    Stats,
    Config,
    Fault,
    Bench,
    Ping,
    Monitor
};
enum class Verb { Show, Set, Add, Del, Clear, Run, Help };
enum class Action {
    Run,     // object + verb
    Help,    // usage: general (object None) or of one object
    Version, // -V
};

// [ADDR][:PORT] of listener add and del; either part may be left out.
struct ListenSpec {
    std::optional<std::string> addr; // normalised (inet_ntop); nullopt: any address ("*")
    int family = 0;                  // AF_INET or AF_INET6 with addr
    std::optional<uint16_t> port;
};

// "*:20050", "10.0.0.1:20050", "[fe80::1]:20050", "*" (no port known).
std::string listen_spec_text(const ListenSpec &spec);

struct Command {
    Action action = Action::Run;
    OutputOptions output;
    Object object = Object::None;
    Verb verb = Verb::Show;
    std::optional<std::string> dev_name;  // dev show [NAME], dev set NAME
    std::optional<bool> enabled;          // dev set NAME enabled {on|off}
    std::optional<uint32_t> transport_id; // transport show [ID], listener del id ID,
                                          // config ... transport ID
    std::vector<ConfigValue> config;      // config set NAME VALUE...
    std::optional<ListenSpec> listen;     // listener add/del [ADDR][:PORT]
    PingOptions ping;                     // ping ...
    MonitorOptions monitor;               // monitor ...
    std::optional<Fault> fault;           // fault set (trigger not off), fault clear POINT
                                          // (trigger off); clear all: nullopt
    std::optional<BenchRequest> bench;    // bench run ...
    std::optional<uint32_t> bench_id;     // bench show [ID]
};

// Throws UsageError with a message for anything it cannot make sense of.
Command parse_command_line(int argc, const char *const *argv);

// The general usage, or that of one object. These texts are the one
// source of the help, the manual page and the option completion.
std::string usage(Object object = Object::None);

// A KEY VALUE setting of a command: its key, and the literal words its
// value may be (none: a number).
struct KeyInfo {
    std::string name;
    std::vector<std::string> values;
};

// The grammar as data, for completion and the manual page.
struct VerbInfo {
    std::string name;
    // Per argument: the literal words it may be, or a placeholder in
    // capitals ("DEV", "TRANSPORT", "LISTENER", "POINT", "TUNABLE") for
    // values to look up.
    std::vector<std::vector<std::string>> arg_slots;
    // After the arguments, settings in any order, each at most once.
    std::vector<KeyInfo> keys = {};
};

struct ObjectInfo {
    Object object;
    std::vector<std::string> names; // the first is the canonical one
    std::vector<VerbInfo> verbs;    // the first is the default
};

// Every object in the order of the general usage.
std::vector<ObjectInfo> command_table();

} // namespace rdmactl
