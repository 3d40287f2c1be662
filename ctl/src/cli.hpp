// SPDX-License-Identifier: GPL-2.0
// Command line: rdmactl [OPTIONS] OBJECT [COMMAND [ARGS]], iproute2 style.
// Objects and commands may be shortened to any unique prefix.
#pragma once

#include <optional>
#include <string>

#include "output.hpp"
#include "ping.hpp"

namespace rdmactl {

enum class Object { None, Dev, Module, Ping };
enum class Verb { Show, Set, Help };
enum class Action {
    Run,     // object + verb
    Help,    // usage: general (object None) or of one object
    Version, // -V
};

struct Command {
    Action action = Action::Run;
    OutputOptions output;
    Object object = Object::None;
    Verb verb = Verb::Show;
    std::optional<std::string> dev_name; // dev show [NAME], dev set NAME
    std::optional<bool> enabled;         // dev set NAME enabled {on|off}
    PingOptions ping;                    // ping ...
};

// Throws UsageError with a message for anything it cannot make sense of.
Command parse_command_line(int argc, const char *const *argv);

// The general usage, or that of one object.
std::string usage(Object object = Object::None);

} // namespace rdmactl
