// SPDX-License-Identifier: GPL-2.0
#include "bench.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "errors.hpp"

namespace rdmactl {

namespace {

using Clock = std::chrono::steady_clock;

// The longest single wait for events: a stop is seen at least this often.
constexpr std::chrono::milliseconds max_wait{500};

std::string bench_name(uint32_t id)
{
    return "bench " + std::to_string(id);
}

// Folds an event about benchmark id into b. True when it is the result.
bool apply_event(const Event &e, uint32_t id, Bench &b)
{
    switch (e.type) {
    case EventType::BenchDone:
        if (e.bench.id != id)
            return false;
        b = e.bench;
        return true;
    case EventType::BenchProgress:
        if (e.bench.id != id)
            return false;
        b.count = e.bench.count;
        b.done = e.bench.done;
        b.errors = e.bench.errors;
        return false;
    case EventType::ModuleUnload:
        throw Error("the xrpcrdma module went away while " + bench_name(id) + " ran");
    default:
        return false;
    }
}

bool about(const Event &e, uint32_t id)
{
    return (e.type == EventType::BenchDone || e.type == EventType::BenchProgress) &&
           e.bench.id == id;
}

// Draws the progress bar on a terminal, and clears it.
class ProgressBar {
public:
    ProgressBar(std::ostream &err, bool enabled) : err_(err), enabled_(enabled) {}
    ~ProgressBar() { clear(); }

    // Nothing before the first figures: a bar of 0/0 says nothing.
    void draw(const Bench &b)
    {
        if (!enabled_ || !b.count)
            return;
        err_ << '\r' << bench_progress_bar(b.done, b.count, b.errors) << "\033[K" << std::flush;
        drawn_ = true;
    }

    void clear()
    {
        if (drawn_)
            err_ << "\r\033[K" << std::flush;
        drawn_ = false;
    }

private:
    std::ostream &err_;
    bool enabled_;
    bool drawn_ = false;
};

} // namespace

std::optional<Bench> wait_for_bench(uint32_t id, Client &client, EventSource &source,
                                    const BenchWaitOptions &opts, const BenchProgress &progress)
{
    Bench b;
    b.id = id;
    b.running = true;
    Clock::time_point last_news = Clock::now(), last_change = last_news;
    uint32_t last_done = 0;
    int wait_ms = int(std::max<long>(1, std::min(max_wait, opts.poll).count()));
    while (!stop_requested()) {
        bool news = false;
        for (const Event &e : source.wait(wait_ms)) {
            news = news || about(e, id);
            if (apply_event(e, id, b))
                return b;
        }
        Clock::time_point now = Clock::now();
        if (!news && now - last_news >= opts.poll) {
            Bench polled = client.get_bench(id);
            if (!polled.running)
                return polled;
            b = polled;
            news = true;
        }
        if (news)
            last_news = now;
        if (b.done != last_done) {
            last_done = b.done;
            last_change = now;
        } else if (now - last_change >= opts.stall) {
            auto secs = std::chrono::duration_cast<std::chrono::seconds>(opts.stall).count();
            throw Error(bench_name(id) + " made no progress for " + std::to_string(secs) +
                        " s; 'rdmactl bench show " + std::to_string(id) + "' shows it");
        }
        progress(b);
    }
    return std::nullopt;
}

namespace {

// Starts the benchmark and waits for it; the result, or nullopt when
// interrupted (the message is printed).
std::optional<Bench> start_and_wait(const BenchRequest &req, std::ostream &err, Client &client,
                                    EventSource &source, const BenchWaitOptions &opts)
{
    uint32_t id = client.run_bench(req);
    for (const std::string &warning : client.take_warnings())
        err << "rdmactl: warning: " << warning << '\n';
    ProgressBar bar(err, opts.progress);
    std::optional<Bench> result;
    {
        StopSignals signals;
        result = wait_for_bench(id, client, source, opts, [&](const Bench &b) { bar.draw(b); });
    }
    bar.clear();
    if (!result)
        err << "rdmactl: interrupted: " << bench_name(id)
            << " goes on in the kernel (it cannot be cancelled); 'rdmactl bench show " << id
            << "' shows it\n";
    return result;
}

} // namespace

int run_bench(const BenchRequest &req, const OutputOptions &output, std::ostream &out,
              std::ostream &err, const std::function<std::unique_ptr<Client>()> &make_client,
              const EventSourceFactory &make_source, const BenchWaitOptions &opts)
{
    std::optional<Bench> result;
    try {
        // First the group, so that no event of the new benchmark is missed.
        std::unique_ptr<EventSource> source = make_source();
        std::unique_ptr<Client> client = make_client();
        result = start_and_wait(req, err, *client, *source, opts);
    } catch (const Error &e) {
        err << "rdmactl: " << e.what() << '\n';
        return 1;
    }
    if (!result)
        return 1;
    print_bench(out, *result, output);
    out.flush();
    if (!out) {
        err << "rdmactl: cannot write the output\n";
        return 1;
    }
    int32_t status = result->result ? result->result->status : 0;
    if (status) {
        err << "rdmactl: " << bench_name(result->id)
            << " stopped: " << std::strerror(status < 0 ? -status : status) << '\n';
        return 1;
    }
    return 0;
}

} // namespace rdmactl
