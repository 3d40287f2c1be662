// SPDX-License-Identifier: GPL-2.0
// `rdmactl bench run`: starts a benchmark in the kernel (bench-run) and
// waits for its result, from its bench-done-ntf or, should a notification
// be lost, from bench-get. The benchmark runs on in the kernel whatever
// happens here: there is no way to cancel it.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>

#include "client.hpp"
#include "monitor.hpp"
#include "output.hpp"
#include "types.hpp"

namespace rdmactl {

struct BenchWaitOptions {
    // bench-get when no event about the benchmark came for this long.
    std::chrono::milliseconds poll{2000};
    // Give up when done has not changed for this long: longer than the
    // module's own bound on the last calls (60 s).
    std::chrono::milliseconds stall{90000};
    bool progress = false; // draw the progress bar on err (a terminal)
};

// Called with what is known of the benchmark each time the wait wakes up.
using BenchProgress = std::function<void(const Bench &)>;

// Waits for benchmark id to finish: its events come from source (which
// must have joined the events group before the benchmark started).
// Returns the finished benchmark, or nullopt when a stop was asked for
// (request_stop(), SIGINT or SIGTERM under StopSignals). Throws
// Error when the module goes away, bench-get fails, or done stays the same
// for opts.stall.
std::optional<Bench> wait_for_bench(uint32_t id, Client &client, EventSource &source,
                                    const BenchWaitOptions &opts, const BenchProgress &progress);

// The whole of bench run after the command line: joins the events group
// (make_source), starts the benchmark, waits, prints the result to out
// (text or JSON) and returns the exit code: 0 when the benchmark finished
// with status 0, 1 when anything failed, the benchmark stopped with an
// error, or the wait was interrupted (messages to err).
int run_bench(const BenchRequest &req, const OutputOptions &output, std::ostream &out,
              std::ostream &err, const std::function<std::unique_ptr<Client>()> &make_client,
              const EventSourceFactory &make_source, const BenchWaitOptions &opts);

} // namespace rdmactl
