// SPDX-License-Identifier: GPL-2.0
// xr-metaload: a metadata-heavy load on a file system, for `make bench`
// (bench/guest.sh runs it on an NFS mount), in the manner of fsstress.
//
//   xr-metaload [-w WORKERS] [-t SECONDS] [-n OPS] [--files N] [--seed S] DIR
//
// WORKERS threads each make a directory of their own under DIR
// (DIR/metaload.I), fill two thirds of its N file slots with empty files,
// and then, all started together, run a seeded mix of operations on those
// slots until SECONDS have passed or each has done OPS operations:
//
//   create   20%  open(O_CREAT | O_EXCL) of a free slot, close
//   write    16%  open(O_APPEND), write 1 to 8 KiB, close (a WRITE and,
//                 with NFS's close-to-open, its flush)
//   stat     28%  stat, whose size must be what the worker wrote
//   rename   12%  a file to another slot, replacing the file there if any
//   unlink   12%
//   readdir  12%  list the directory: it must hold exactly the worker's files
//
// An operation that needs a file while the directory has none creates
// one, and a create when every slot is taken unlinks one instead: the
// same seed gives every worker the same sequence of operations. Each
// worker knows what its directory holds, so any error is unexpected: the
// first one stops every worker, is printed on stderr, and the exit
// status is 1 (the files are left for a look). Otherwise the workers
// remove their files and directories and the result is printed on stdout
// as one JSON object: operations, operations per second, and latency
// percentiles, in all and per kind of operation. Exit status 2 is a
// usage error.

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace {

using Clock = std::chrono::steady_clock;

enum Kind { Create, Write, Stat, Rename, Unlink, Readdir, NKinds };

constexpr std::array<const char *, NKinds> kind_names = {"create", "write",  "stat",
                                                         "rename", "unlink", "readdir"};
// Percent of the operations of each kind, in Kind's order.
constexpr std::array<unsigned, NKinds> kind_weights = {20, 16, 28, 12, 12, 12};

constexpr size_t min_write = 1024, max_write = 8192;

struct Options {
    unsigned workers = 8;
    double seconds = 10;
    uint64_t ops = 0; // per worker; 0: no limit but the time
    unsigned files = 32;
    uint64_t seed = 1;
    std::string dir;
};

// An operation that failed: what it was and its errno, for the message.
class OpError : public std::runtime_error {
public:
    OpError(const std::string &what, int err)
        : std::runtime_error(err ? what + ": " + std::strerror(err) : what)
    {}
};

// The first failure of any worker, and the flag that stops the others.
struct Failure {
    std::mutex lock;
    std::string message;
    std::atomic<bool> failed{false};

    void set(const std::string &m)
    {
        std::lock_guard<std::mutex> g(lock);
        if (!failed.exchange(true))
            message = m;
    }
};

// Workers wait here once their directories are filled; the main thread
// then notes the start time and releases them together.
struct StartGate {
    std::mutex lock;
    std::condition_variable cv;
    unsigned ready = 0;
    bool open = false;
    Clock::time_point deadline;

    void arrive_and_wait()
    {
        std::unique_lock<std::mutex> g(lock);
        ready++;
        cv.notify_all();
        cv.wait(g, [this] { return open; });
    }
    void wait_for_all(unsigned n)
    {
        std::unique_lock<std::mutex> g(lock);
        cv.wait(g, [&] { return ready == n; });
    }
    void release(Clock::time_point dl)
    {
        std::lock_guard<std::mutex> g(lock);
        deadline = dl;
        open = true;
        cv.notify_all();
    }
};

// Closes a file descriptor on scope exit.
class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
    ~Fd()
    {
        if (fd_ >= 0)
            ::close(fd_);
    }
    int get() const { return fd_; }
    // Closing is part of an NFS operation (close-to-open flushes): its
    // error counts.
    void close(const std::string &what)
    {
        int fd = fd_;
        fd_ = -1;
        if (::close(fd) < 0)
            throw OpError("close " + what, errno);
    }

private:
    int fd_;
};

class Worker {
public:
    Worker(const Options &o, unsigned index, Failure &failure, StartGate &gate)
        : o_(o), index_(index), failure_(failure), gate_(gate), rng_(o.seed * 1000003 + index),
          present_(o.files, false), size_(o.files, 0), latencies_(NKinds)
    {
        buf_.resize(max_write);
        for (size_t i = 0; i < buf_.size(); i++)
            buf_[i] = static_cast<char>('a' + (i + index) % 26);
    }

    void run()
    {
        try {
            setup();
        } catch (const std::exception &e) {
            failure_.set(label() + e.what());
        }
        // Arrive even after a failure: the main thread waits for all.
        gate_.arrive_and_wait();
        if (failure_.failed)
            return;
        try {
            load(gate_.deadline);
            end_ = Clock::now();
            if (!failure_.failed)
                teardown();
        } catch (const std::exception &e) {
            failure_.set(label() + e.what());
        }
    }

    const std::vector<std::vector<uint32_t>> &latencies() const { return latencies_; }
    Clock::time_point end() const { return end_; }

private:
    std::string label() const { return "worker " + std::to_string(index_) + ": "; }

    static std::string slot_name(unsigned slot)
    {
        char name[16];
        std::snprintf(name, sizeof(name), "f%04u", slot);
        return name;
    }

    // A number below n from the worker's generator: the same on every
    // platform (std::uniform_int_distribution's mapping is not specified).
    unsigned pick(unsigned n) { return static_cast<unsigned>(rng_() % n); }

    unsigned population() const
    {
        return static_cast<unsigned>(std::count(present_.begin(), present_.end(), true));
    }

    // A slot that holds a file (want true) or none (false), chosen at
    // random; the caller knows there is one.
    unsigned pick_slot(bool want)
    {
        unsigned s = pick(o_.files);
        while (present_[s] != want)
            s = (s + 1) % o_.files;
        return s;
    }

    void setup()
    {
        dir_ = o_.dir + "/metaload." + std::to_string(index_);
        if (::mkdir(dir_.c_str(), 0755) < 0)
            throw OpError("mkdir " + dir_, errno);
        dirfd_ = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dirfd_ < 0)
            throw OpError("open " + dir_, errno);
        for (unsigned s = 0; s < o_.files * 2 / 3; s++)
            create(s);
    }

    void teardown()
    {
        for (unsigned s = 0; s < o_.files; s++)
            if (present_[s])
                unlink(s);
        ::close(dirfd_);
        dirfd_ = -1;
        if (::rmdir(dir_.c_str()) < 0)
            throw OpError("rmdir " + dir_, errno);
    }

    Kind choose()
    {
        unsigned p = pick(100);
        for (unsigned k = 0; k < NKinds; k++) {
            if (p < kind_weights[k])
                return static_cast<Kind>(k);
            p -= kind_weights[k];
        }
        return Readdir;
    }

    void load(Clock::time_point deadline)
    {
        for (uint64_t n = 0; o_.ops == 0 || n < o_.ops; n++) {
            if (failure_.failed || (o_.seconds > 0 && Clock::now() >= deadline))
                break;
            Kind k = choose();
            unsigned pop = population();
            if (pop == 0 && k != Readdir)
                k = Create;
            else if (pop == o_.files && k == Create)
                k = Unlink;
            auto t0 = Clock::now();
            switch (k) {
            case Create:
                create(pick_slot(false));
                break;
            case Write:
                write(pick_slot(true), min_write + pick(max_write - min_write + 1));
                break;
            case Stat:
                stat(pick_slot(true));
                break;
            case Rename: {
                unsigned from = pick_slot(true);
                unsigned to = (from + 1 + pick(o_.files - 1)) % o_.files;
                rename(from, to);
                break;
            }
            case Unlink:
                unlink(pick_slot(true));
                break;
            default:
                readdir();
                break;
            }
            auto us = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - t0);
            latencies_[k].push_back(static_cast<uint32_t>(us.count()));
        }
    }

    void create(unsigned s)
    {
        std::string name = slot_name(s);
        Fd fd(::openat(dirfd_, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
        if (fd.get() < 0)
            throw OpError("create " + name, errno);
        fd.close(name);
        present_[s] = true;
        size_[s] = 0;
    }

    void write(unsigned s, size_t len)
    {
        std::string name = slot_name(s);
        Fd fd(::openat(dirfd_, name.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC));
        if (fd.get() < 0)
            throw OpError("open " + name, errno);
        ssize_t n = ::write(fd.get(), buf_.data(), len);
        if (n < 0)
            throw OpError("write " + name, errno);
        if (static_cast<size_t>(n) != len)
            throw OpError("write " + name + ": " + std::to_string(n) + " of " +
                              std::to_string(len) + " bytes",
                          0);
        fd.close(name);
        size_[s] += len;
    }

    void stat(unsigned s)
    {
        std::string name = slot_name(s);
        struct stat st;
        if (::fstatat(dirfd_, name.c_str(), &st, 0) < 0)
            throw OpError("stat " + name, errno);
        if (static_cast<uint64_t>(st.st_size) != size_[s])
            throw OpError("stat " + name + ": size " + std::to_string(st.st_size) + ", written " +
                              std::to_string(size_[s]),
                          0);
    }

    void rename(unsigned from, unsigned to)
    {
        std::string a = slot_name(from), b = slot_name(to);
        if (::renameat(dirfd_, a.c_str(), dirfd_, b.c_str()) < 0)
            throw OpError("rename " + a + " to " + b, errno);
        present_[from] = false;
        present_[to] = true;
        size_[to] = size_[from];
    }

    void unlink(unsigned s)
    {
        std::string name = slot_name(s);
        if (::unlinkat(dirfd_, name.c_str(), 0) < 0)
            throw OpError("unlink " + name, errno);
        present_[s] = false;
    }

    void readdir()
    {
        int fd = ::openat(dirfd_, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
            throw OpError("open " + dir_, errno);
        DIR *d = ::fdopendir(fd);
        if (!d) {
            int err = errno;
            ::close(fd);
            throw OpError("fdopendir " + dir_, err);
        }
        unsigned n = 0;
        std::vector<bool> seen(o_.files, false);
        std::string stray;
        for (;;) {
            errno = 0;
            struct dirent *e = ::readdir(d);
            if (!e)
                break;
            std::string name = e->d_name;
            if (name == "." || name == "..")
                continue;
            unsigned s = 0;
            if (std::sscanf(name.c_str(), "f%4u", &s) == 1 && s < o_.files &&
                name == slot_name(s) && present_[s] && !seen[s]) {
                seen[s] = true;
                n++;
            } else if (stray.empty()) {
                stray = name;
            }
        }
        int err = errno;
        ::closedir(d);
        if (err)
            throw OpError("readdir " + dir_, err);
        if (!stray.empty())
            throw OpError("readdir " + dir_ + ": unexpected entry " + stray, 0);
        if (n != population())
            throw OpError("readdir " + dir_ + ": " + std::to_string(n) + " of " +
                              std::to_string(population()) + " files listed",
                          0);
    }

    const Options &o_;
    unsigned index_;
    Failure &failure_;
    StartGate &gate_;
    std::mt19937_64 rng_;
    std::vector<bool> present_;
    std::vector<uint64_t> size_;
    std::vector<std::vector<uint32_t>> latencies_;
    std::vector<char> buf_;
    std::string dir_;
    int dirfd_ = -1;
    Clock::time_point end_;
};

// Nearest-rank percentile P of xs (sorted here), in microseconds.
uint32_t percentile(std::vector<uint32_t> &xs, unsigned p)
{
    if (xs.empty())
        return 0;
    size_t i = std::min(xs.size() - 1, xs.size() * p / 100);
    std::nth_element(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(i), xs.end());
    return xs[i];
}

nlohmann::ordered_json figures(std::vector<uint32_t> &xs)
{
    nlohmann::ordered_json j;
    j["ops"] = xs.size();
    j["p50_us"] = percentile(xs, 50);
    j["p99_us"] = percentile(xs, 99);
    return j;
}

int run(const Options &o)
{
    Failure failure;
    StartGate gate;
    std::vector<Worker> workers;
    workers.reserve(o.workers);
    for (unsigned i = 0; i < o.workers; i++)
        workers.emplace_back(o, i, failure, gate);
    std::vector<std::thread> threads;
    threads.reserve(o.workers);
    for (auto &w : workers)
        threads.emplace_back([&w] { w.run(); });
    gate.wait_for_all(o.workers);
    auto start = Clock::now();
    gate.release(start + std::chrono::duration_cast<Clock::duration>(
                             std::chrono::duration<double>(o.seconds)));
    for (auto &t : threads)
        t.join();
    if (failure.failed) {
        std::cerr << "xr-metaload: " << failure.message << "\n";
        return 1;
    }
    // The load ended when the last worker's did, before the removal of
    // the files.
    auto end = start;
    for (auto &w : workers)
        end = std::max(end, w.end());
    double elapsed = std::chrono::duration<double>(end - start).count();

    nlohmann::ordered_json out, kinds;
    std::vector<uint32_t> all;
    for (unsigned k = 0; k < NKinds; k++) {
        std::vector<uint32_t> xs;
        for (auto &w : workers)
            xs.insert(xs.end(), w.latencies()[k].begin(), w.latencies()[k].end());
        all.insert(all.end(), xs.begin(), xs.end());
        kinds[kind_names[k]] = figures(xs);
    }
    out["workers"] = o.workers;
    out["seconds"] = elapsed;
    out["ops"] = all.size();
    out["ops_s"] = static_cast<double>(all.size()) / elapsed;
    auto total = figures(all);
    out["p50_us"] = total["p50_us"];
    out["p99_us"] = total["p99_us"];
    out["kinds"] = kinds;
    std::cout << out.dump() << "\n";
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    Options o;
    CLI::App app{"A metadata-heavy load of many workers on a file system, results as JSON."};
    app.add_option("dir", o.dir, "directory to work in (each worker makes one of its own there)")
        ->required()
        ->check(CLI::ExistingDirectory);
    app.add_option("-w,--workers", o.workers, "workers (threads), each in its own directory")
        ->capture_default_str()
        ->check(CLI::Range(1u, 1024u));
    app.add_option("-t,--seconds", o.seconds, "stop after this time (0: no limit but --ops)")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 86400.0));
    app.add_option("-n,--ops", o.ops, "stop each worker after this many operations (0: no limit)")
        ->capture_default_str();
    app.add_option("--files", o.files, "file slots of each worker")
        ->capture_default_str()
        ->check(CLI::Range(3u, 9999u));
    app.add_option("--seed", o.seed, "seed of the mix of operations")->capture_default_str();
    try {
        app.parse(argc, argv);
        if (o.seconds == 0 && o.ops == 0)
            throw CLI::ValidationError("--seconds 0 needs --ops");
    } catch (const CLI::ParseError &e) {
        return app.exit(e) ? 2 : 0;
    }
    try {
        return run(o);
    } catch (const std::exception &e) {
        // A thread or memory the system could not give.
        std::cerr << "xr-metaload: " << e.what() << "\n";
        return 1;
    }
}
