// SPDX-License-Identifier: GPL-2.0
// Running a command line: parse, dispatch, print, map errors to exit codes.
#pragma once

#include <functional>
#include <memory>
#include <ostream>

#include "client.hpp"
#include "monitor.hpp"

namespace rdmactl {

// Exit codes.
constexpr int exit_ok = 0;
constexpr int exit_error = 1; // the kernel or netlink failed
constexpr int exit_usage = 2; // bad command line

// Makes the client when a command needs one (help and -V do not).
using ClientFactory = std::function<std::unique_ptr<Client>()>;

// The whole tool: output to out, messages ("rdmactl: ...") to err.
// monitor takes its events from make_source. Output that cannot be
// written (a full disk) is an error: "rdmactl: cannot write the output",
// exit 1, whatever the command (help and -V too).
int run(int argc, const char *const *argv, std::ostream &out, std::ostream &err,
        const ClientFactory &make_client,
        const EventSourceFactory &make_source = make_netlink_event_source);

// Flushes out; when that or an earlier write failed and rc is a success,
// says so on err and returns exit_error; else returns rc.
int finish_output(std::ostream &out, std::ostream &err, int rc);

} // namespace rdmactl
