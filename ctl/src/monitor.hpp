// SPDX-License-Identifier: GPL-2.0
// `rdmactl monitor`: the events of the xrpcrdma family, one line each, until
// SIGINT or SIGTERM; with --log FILE in the background, appending to FILE.
// The monitor survives the module going away and coming back: it watches
// the generic netlink controller for the family, checks it by polling as
// well, and joins the new family's group when it is back.
//
// The loop runs over an abstract EventSource (tests drive it with a fake);
// the netlink source is make_netlink_event_source().
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "output.hpp"
#include "signals.hpp"
#include "types.hpp"

namespace rdmactl {

struct MonitorOptions {
    bool help = false;
    bool timestamps = false;         // -t: each line with the time it was read
    std::optional<std::string> log;  // --log FILE: daemonise, append to FILE
};

// Parses the words after "monitor" (-j, -p, -d go to output). Throws
// UsageError.
MonitorOptions parse_monitor_args(const std::vector<std::string> &args, OutputOptions &output);

std::string monitor_usage();

// Where events come from.
class EventSource {
public:
    virtual ~EventSource() = default;

    // Waits at most timeout_ms for events and returns those that came, in
    // order (none after a timeout or a signal). Throws Error when it cannot
    // go on.
    virtual std::vector<Event> wait(int timeout_ms) = 0;
};

using EventSourceFactory = std::function<std::unique_ptr<EventSource>()>;

// Joined to the family's events group and to the controller's notify
// group. Throws FamilyNotFound when the module is not loaded.
std::unique_ptr<EventSource> make_netlink_event_source();

// Reads a netlink socket until it is drained, for a netlink EventSource:
// read_one reads once, appending the events it parsed to events, and
// returns what nl_recvmsgs_report() did: messages read (> 0), nothing left
// (0 or -NLE_AGAIN), an overrun (-NLE_NOMEM: ENOBUFS) or another error,
// which throws NetlinkError. An overrun gives one events-lost, after the
// events read up to the drain: those were queued before the loss.
void drain_events(const std::function<int()> &read_one, std::vector<Event> &events);

// write(2)s all of line to fd (for --log, where O_APPEND makes each line
// one append). Under StopSignals, SIGINT and SIGTERM can end a write that
// blocks, on a pipe nobody reads for one; after a stop it writes only what
// fd takes without waiting. False when the line was not written whole.
bool write_line(int fd, const std::string &line);

// --log's FILE: opened for appending (created 0644), each line written with
// one write(2) (write_line()). The name is kept absolute, as the daemon
// leaves its directory. reopen() opens it again, for a log rotation that
// moved the file away (SIGHUP).
class LogFile {
public:
    // Throws Error ("cannot open FILE: ..."), also when a relative name
    // cannot be made absolute.
    explicit LogFile(const std::string &name);
    ~LogFile();
    LogFile(const LogFile &) = delete;
    LogFile &operator=(const LogFile &) = delete;

    bool write(const std::string &line) const { return write_line(fd_, line); }

    // Opens the name again, without waiting for a FIFO's reader, and
    // writes there from now on. When it cannot, the file open so far
    // stays and the error is thrown (Error).
    void reopen();

    const std::string &name() const { return name_; }

private:
    static int open_file(const std::string &name, int flags);

    std::string name_;
    int fd_ = -1;
};

// Receives each line; returns false when it could not be written (which
// ends monitor_loop() quietly when a stop was asked for meanwhile).
using LineSink = std::function<bool(const std::string &)>;

// The loop: every event, stamped with the time when asked, to sink, until
// request_stop() (SIGINT or SIGTERM under StopSignals). Throws Error (from
// the source, or when sink fails without a stop asked for).
void monitor_loop(EventSource &source, const OutputOptions &output, bool timestamps,
                  const LineSink &sink);

// The whole command. Foreground: lines to out; --log: opens FILE and joins
// the group first (errors go to err, exit 1), then forks; the parent prints
// the daemon's PID and returns 0, the daemon appends every line to FILE
// with one write(2) each, opens FILE again on SIGHUP (an "error" event in
// the file it has when it cannot), and returns when signalled (0) or on an
// error, which it logs as an "error" event (1).
int run_monitor(const MonitorOptions &opts, const OutputOptions &output, std::ostream &out,
                std::ostream &err, const EventSourceFactory &make_source);

} // namespace rdmactl
