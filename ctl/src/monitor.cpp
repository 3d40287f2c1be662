// SPDX-License-Identifier: GPL-2.0
#include "monitor.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <exception>
#include <filesystem>
#include <new>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <linux/genetlink.h>
#include <linux/xrpcrdma.h>
#include <netlink/attr.h>
#include <netlink/errno.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>

#include "errors.hpp"
#include "nl.hpp"
#include "parse.hpp"
#include "signals.hpp"

namespace rdmactl {

namespace {

// "2026-11-22T03:40:00.123Z"
std::string now_text()
{
    timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    tm utc;
    gmtime_r(&ts.tv_sec, &utc);
    char buf[64];
    size_t n = std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &utc);
    std::snprintf(buf + n, sizeof(buf) - n, ".%03ldZ", ts.tv_nsec / 1000000);
    return buf;
}

Event simple_event(EventType type)
{
    Event e;
    e.type = type;
    return e;
}

using Clock = std::chrono::steady_clock;

// How often the family is looked up, besides the controller's
// notifications: while subscribed, to notice a reload that the
// notifications missed; while the module is away, to come back soon.
constexpr std::chrono::milliseconds check_subscribed{1000};
constexpr std::chrono::milliseconds check_lost{250};

constexpr int receive_buffer = 1 << 20;

// Receives on one socket (the events group and the controller's notify
// group); looks families up on another, so that no event is consumed by
// a lookup's exchange.
class NetlinkEventSource : public EventSource {
public:
    NetlinkEventSource() : sk_(nl_socket_alloc()), cb_(nl_cb_alloc(NL_CB_DEFAULT))
    {
        if (!sk_ || !cb_)
            throw std::bad_alloc();
        nl_socket_disable_seq_check(sk_.get());
        int rc = genl_connect(sk_.get());
        if (rc < 0)
            throw NetlinkError("cannot open a generic netlink socket", rc);
        nl_socket_set_nonblocking(sk_.get());
        nl_socket_enable_msg_peek(sk_.get());
        nl_socket_set_buffer_size(sk_.get(), receive_buffer, 0);

        nl_cb_set(cb_.get(), NL_CB_SEQ_CHECK, NL_CB_CUSTOM, accept_any, nullptr);
        nl_cb_set(cb_.get(), NL_CB_VALID, NL_CB_CUSTOM, on_message, this);

        rc = nl_socket_add_membership(sk_.get(), query_.resolve_group("nlctrl", "notify"));
        if (rc < 0)
            throw NetlinkError("cannot join the generic netlink controller's group", rc);
        if (!try_subscribe())
            throw FamilyNotFound(XRPCRDMA_FAMILY_NAME);
        next_check_ = Clock::now() + check_subscribed;
    }

    std::vector<Event> wait(int timeout_ms) override
    {
        std::vector<Event> events;
        pending_ = &events;
        Clock::time_point now = Clock::now();
        if (now >= next_check_) {
            check_family();
            next_check_ = now + (subscribed_ ? check_subscribed : check_lost);
        }
        auto until_check =
            std::chrono::duration_cast<std::chrono::milliseconds>(next_check_ - now).count();
        long wait_ms = std::max(0L, std::min(long(timeout_ms), long(until_check)));
        timespec ts{wait_ms / 1000, (wait_ms % 1000) * 1000000};
        pollfd pfd{nl_socket_get_fd(sk_.get()), POLLIN, 0};
        int n = ppoll(&pfd, 1, &ts, stop_wait_mask());
        if (n < 0 && errno != EINTR)
            throw Error(std::string("poll: ") + std::strerror(errno));
        if (n > 0)
            receive();
        pending_ = nullptr;
        return events;
    }

private:
    static int accept_any(nl_msg *, void *) { return NL_OK; }

    static int on_message(nl_msg *msg, void *arg)
    {
        auto *self = static_cast<NetlinkEventSource *>(arg);
        try {
            self->dispatch(nlmsg_hdr(msg));
        } catch (...) {
            self->exception_ = std::current_exception();
            return NL_STOP;
        }
        return NL_OK;
    }

    void dispatch(const nlmsghdr *nlh)
    {
        if (nlh->nlmsg_type == GENL_ID_CTRL) {
            on_controller(nlh);
            return;
        }
        if (!subscribed_ || nlh->nlmsg_type != family_)
            return;
        try {
            pending_->push_back(parse_event(nlh));
        } catch (const ProtocolError &e) {
            Event ev = simple_event(EventType::Error);
            ev.message = std::string("malformed event: ") + e.what();
            pending_->push_back(ev);
        }
    }

    // CTRL_CMD_NEWFAMILY / DELFAMILY of our family.
    void on_controller(const nlmsghdr *nlh)
    {
        auto *hdr = const_cast<nlmsghdr *>(nlh);
        nlattr *tb[CTRL_ATTR_MAX + 1] = {};
        if (genlmsg_parse(hdr, 0, tb, CTRL_ATTR_MAX, nullptr) < 0 || !tb[CTRL_ATTR_FAMILY_NAME])
            return;
        if (std::string(nla_get_string(tb[CTRL_ATTR_FAMILY_NAME]),
                        strnlen(nla_get_string(tb[CTRL_ATTR_FAMILY_NAME]),
                                nla_len(tb[CTRL_ATTR_FAMILY_NAME]))) != XRPCRDMA_FAMILY_NAME)
            return;
        switch (genlmsg_hdr(hdr)->cmd) {
        case CTRL_CMD_DELFAMILY:
            if (subscribed_)
                lost();
            break;
        case CTRL_CMD_NEWFAMILY:
            if (!subscribed_ && try_subscribe())
                pending_->push_back(simple_event(EventType::ModuleLoad));
            break;
        }
    }

    void lost()
    {
        subscribed_ = false;
        pending_->push_back(simple_event(EventType::ModuleUnload));
        next_check_ = Clock::now() + check_lost;
    }

    // Joins the events group of the family as it is registered now.
    bool try_subscribe()
    {
        int family, group;
        try {
            family = query_.resolve_family(XRPCRDMA_FAMILY_NAME);
            group = query_.resolve_group(XRPCRDMA_FAMILY_NAME, XRPCRDMA_MCGRP_EVENTS);
        } catch (const FamilyNotFound &) {
            return false;
        }
        // The kernel left the old group when the family went; this is in
        // case it did not (the number may belong to another family now).
        if (group_ > 0)
            nl_socket_drop_membership(sk_.get(), group_);
        int rc = nl_socket_add_membership(sk_.get(), group);
        if (rc < 0)
            throw NetlinkError("cannot join the events group", rc);
        family_ = family;
        group_ = group;
        subscribed_ = true;
        return true;
    }

    // Polling: the family is still the one joined, or is back.
    void check_family()
    {
        if (subscribed_) {
            int family = 0;
            try {
                family = query_.resolve_family(XRPCRDMA_FAMILY_NAME);
            } catch (const FamilyNotFound &) {
            }
            if (family == family_)
                return;
            lost();
        }
        if (try_subscribe())
            pending_->push_back(simple_event(EventType::ModuleLoad));
    }

    // Everything queued on the socket, in order.
    void receive()
    {
        drain_events(
            [this] {
                int rc = nl_recvmsgs_report(sk_.get(), cb_.get());
                if (exception_) {
                    std::exception_ptr e = exception_;
                    exception_ = nullptr;
                    std::rethrow_exception(e);
                }
                return rc;
            },
            *pending_);
    }

    Socket query_;
    SockPtr sk_;
    CbPtr cb_;
    bool subscribed_ = false;
    int family_ = 0;
    int group_ = 0;
    Clock::time_point next_check_;
    std::vector<Event> *pending_ = nullptr;
    std::exception_ptr exception_;
};

} // namespace

void drain_events(const std::function<int()> &read_one, std::vector<Event> &events)
{
    // ENOBUFS says the socket's queue overflowed: what the kernel dropped
    // came after everything still queued, which the next reads return.
    // events-lost goes after those, or it would come before older events.
    bool overrun = false;
    for (;;) {
        int rc = read_one();
        if (rc == 0 || rc == -NLE_AGAIN)
            break;
        if (rc == -NLE_NOMEM) { // ENOBUFS: the kernel dropped some
            overrun = true;
            continue;
        }
        if (rc < 0)
            throw NetlinkError("cannot receive events", rc);
    }
    if (overrun)
        events.push_back(simple_event(EventType::EventsLost));
}

namespace {

// Waits until fd takes more bytes; false when it will not. The wait lets
// SIGINT and SIGTERM in, as the wait for events does, and after a stop it
// does not wait at all: a reader that does not read cannot hold the
// monitor, yet the lines that fit are still written.
bool wait_for_room(int fd)
{
    for (;;) {
        pollfd pfd{fd, POLLOUT, 0};
        timespec now{0, 0};
        int n = ppoll(&pfd, 1, stop_requested() ? &now : nullptr, stop_wait_mask());
        if (n > 0)
            return true; // room, or an error that write(2) reports
        if (n == 0 || errno != EINTR)
            return false;
    }
}

} // namespace

bool write_line(int fd, const std::string &line)
{
    const char *p = line.data();
    size_t left = line.size();
    while (left) {
        if (!wait_for_room(fd))
            return false;
        ssize_t n;
        {
            // More than the room blocks in write(2) itself: a signal
            // must be able to end it there too.
            StopWindow window;
            n = write(fd, p, left);
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        left -= size_t(n);
    }
    return true;
}

namespace {

// The daemon's source: after each wait, a SIGHUP's reopen of the log, and
// an "error" event (written to the file kept) when it failed.
class ReopeningSource : public EventSource {
public:
    ReopeningSource(EventSource &inner, LogFile &log) : inner_(inner), log_(log) {}

    // Before the wait too: a SIGHUP taken while a line was written ends
    // no wait.
    std::vector<Event> wait(int timeout_ms) override
    {
        std::vector<Event> events;
        reopen_if_asked(events);
        for (Event &e : inner_.wait(timeout_ms))
            events.push_back(std::move(e));
        reopen_if_asked(events);
        return events;
    }

private:
    void reopen_if_asked(std::vector<Event> &events)
    {
        if (!take_hangup())
            return;
        try {
            log_.reopen();
        } catch (const Error &e) {
            Event ev = simple_event(EventType::Error);
            ev.message = e.what();
            events.push_back(std::move(ev));
        }
    }

    EventSource &inner_;
    LogFile &log_;
};

// The daemon's side of --log: detached from the terminal, lines to the log.
int run_daemon(EventSource &source, LogFile &log, const OutputOptions &output, bool timestamps)
{
    setsid();
    if (chdir("/") != 0) {
        // Only to not keep a directory busy; nothing depends on it.
    }
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null >= 0) {
        dup2(null, STDIN_FILENO);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        if (null > STDERR_FILENO)
            close(null);
    }
    StopSignals signals(true);
    ReopeningSource reopening(source, log);
    try {
        monitor_loop(reopening, output, timestamps,
                     [&log](const std::string &line) { return log.write(line); });
    } catch (const std::exception &e) {
        Event ev = simple_event(EventType::Error);
        ev.time = now_text();
        ev.message = e.what();
        log.write(event_line(ev, output));
        return 1;
    }
    return 0;
}

} // namespace

MonitorOptions parse_monitor_args(const std::vector<std::string> &args, OutputOptions &output)
{
    CLI::App app{"rdmactl monitor"};
    app.set_help_flag();
    MonitorOptions o;
    std::string log;
    std::vector<std::string> words;
    bool json = false, pretty = false, details = false;
    CLI::Option *opt_log = app.add_option("--log", log);
    app.add_flag("-t,--timestamp", o.timestamps);
    app.add_flag("-j,--json", json);
    app.add_flag("-p,--pretty", pretty);
    app.add_flag("-d,--details", details);
    app.add_flag("-h,--help", o.help);
    app.add_option("words", words);

    std::vector<const char *> argv{"monitor"};
    for (const std::string &arg : args)
        argv.push_back(arg.c_str());
    try {
        app.parse(int(argv.size()), argv.data());
    } catch (const CLI::ParseError &e) {
        throw UsageError(std::string("monitor: ") + e.what());
    }
    output.json = output.json || json;
    output.pretty = output.pretty || pretty;
    output.details = output.details || details;
    if (o.help || (words.size() == 1 && words[0] == "help")) {
        o.help = true;
        return o;
    }
    if (!words.empty())
        throw UsageError("unexpected argument '" + words[0] + "' for 'monitor'");
    if (*opt_log) {
        if (log.empty())
            throw UsageError("--log needs a file name");
        o.log = log;
        o.timestamps = true;
    }
    return o;
}

std::string monitor_usage()
{
    return "Usage: rdmactl [-j] [-d] monitor [-t] [--log FILE]\n"
           "       rdmactl monitor help\n"
           "Prints the module's events, one line each (-j: one JSON object a line),\n"
           "until interrupted: RDMA devices, listeners and connections coming and\n"
           "going (with the reason a listener or connection went), completion\n"
           "errors (at most 10 a second, the next one says how many were left\n"
           "out), the progress and the result of kernel-side benchmarks (bench\n"
           "run), and module-unload / module-load when the module goes away and\n"
           "comes back (the monitor keeps running and listens to it again).\n"
           "\n"
           "  -t, --timestamp   start each line with the time it was read (UTC)\n"
           "  --log FILE        run in the background: print the daemon's PID, then\n"
           "                    append every line to FILE as it comes (with -t);\n"
           "                    SIGHUP opens FILE again (after a log rotation)\n"
           "  -d, --details     with a connection's disconnect, its final counters\n"
           "  -j, --json        one JSON object a line\n"
           "Exit status: 0 after SIGINT or SIGTERM, 1 when the module is not loaded\n"
           "at the start or netlink fails, 2 on usage errors.\n";
}

LogFile::LogFile(const std::string &name)
{
    std::error_code ec;
    std::filesystem::path absolute = std::filesystem::absolute(name, ec);
    if (ec)
        throw Error("cannot open " + name + ": " + ec.message());
    name_ = absolute.string();
    fd_ = open_file(name_, 0);
}

LogFile::~LogFile()
{
    if (fd_ >= 0)
        close(fd_);
}

// Never the controlling terminal of the daemon, a session leader.
int LogFile::open_file(const std::string &name, int flags)
{
    int fd = open(name.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY | flags,
                  0644);
    if (fd < 0)
        throw Error("cannot open " + name + ": " + std::strerror(errno));
    return fd;
}

// Without waiting, as SIGINT and SIGTERM cannot end the open here: a FIFO
// that nobody reads is an error (ENXIO). The writes block again after.
void LogFile::reopen()
{
    int fd = open_file(name_, O_NONBLOCK);
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
        int err = errno;
        close(fd);
        throw Error("cannot open " + name_ + ": " + std::strerror(err));
    }
    close(fd_);
    fd_ = fd;
}

std::unique_ptr<EventSource> make_netlink_event_source()
{
    return std::make_unique<NetlinkEventSource>();
}

void monitor_loop(EventSource &source, const OutputOptions &output, bool timestamps,
                  const LineSink &sink)
{
    clear_stop_request();
    while (!stop_requested()) {
        for (Event &e : source.wait(500)) {
            if (timestamps)
                e.time = now_text();
            if (!sink(event_line(e, output))) {
                if (stop_requested())
                    return; // the write was given up for the stop
                throw Error("cannot write the output");
            }
        }
    }
}

int run_monitor(const MonitorOptions &opts, const OutputOptions &output, std::ostream &out,
                std::ostream &err, const EventSourceFactory &make_source)
{
    std::unique_ptr<LogFile> log;
    std::unique_ptr<EventSource> source;
    try {
        if (opts.log)
            log = std::make_unique<LogFile>(*opts.log);
        source = make_source();
    } catch (const Error &e) {
        err << "rdmactl: " << e.what() << '\n';
        return 1;
    }

    if (log) {
        out.flush();
        err.flush();
        std::fflush(nullptr);
        pid_t pid = fork();
        if (pid < 0) {
            err << "rdmactl: cannot start the monitor in the background: "
                << std::strerror(errno) << '\n';
            return 1;
        }
        if (pid > 0) {
            out << pid << '\n';
            out.flush();
            return 0;
        }
        return run_daemon(*source, *log, output, opts.timestamps);
    }

    StopSignals signals;
    try {
        monitor_loop(*source, output, opts.timestamps, [&out](const std::string &line) {
            // A reader that does not read blocks the write: a stop ends it
            // (the write fails with EINTR, and the loop stops quietly).
            StopWindow window;
            out << line;
            out.flush();
            return bool(out);
        });
    } catch (const Error &e) {
        err << "rdmactl: " << e.what() << '\n';
        return 1;
    }
    return 0;
}

} // namespace rdmactl
