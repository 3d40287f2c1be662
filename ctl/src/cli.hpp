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

enum class Object { None, Dev, Module, Transport, Listener, Stats, Config, Ping, Monitor };
enum class Verb { Show, Set, Add, Del, Help };
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
};

// Throws UsageError with a message for anything it cannot make sense of.
Command parse_command_line(int argc, const char *const *argv);

// The general usage, or that of one object.
std::string usage(Object object = Object::None);

} // namespace rdmactl
