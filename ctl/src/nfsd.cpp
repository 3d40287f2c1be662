// SPDX-License-Identifier: GPL-2.0
#include "nfsd.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

#include "errors.hpp"

namespace rdmactl {

namespace {

// A file descriptor that closes itself.
class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd()
    {
        if (fd_ >= 0)
            close(fd_);
    }
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;

    int get() const { return fd_; }

private:
    int fd_;
};

std::string errno_text(int err)
{
    return std::strerror(err);
}

// nfsd's thread count, from DIR/threads.
unsigned long nfsd_threads(const std::string &dir)
{
    const std::string path = dir + "/threads";
    Fd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0 && errno == ENOENT)
        throw Error("nfsd is not running: cannot open " + path + ": " + errno_text(errno) +
                    " (load nfsd and mount its file system on " + dir + ")");
    if (fd.get() < 0)
        throw Error("cannot open " + path + ": " + errno_text(errno));
    char buf[32] = {};
    ssize_t n = read(fd.get(), buf, sizeof(buf) - 1);
    if (n < 0)
        throw Error("cannot read " + path + ": " + errno_text(errno));
    char *end = nullptr;
    unsigned long threads = std::strtoul(buf, &end, 10);
    if (end == buf || (*end != '\n' && *end != '\0'))
        throw Error("cannot make sense of " + path + ": '" + std::string(buf, n) + "'");
    return threads;
}

// Why nfsd may refuse a listener, in words.
std::string refusal_hint(int err, const std::string &cls)
{
    switch (err) {
    case EADDRINUSE:
    case EADDRNOTAVAIL: // what rdma_cm says when the port is taken
        return " (does something listen on that port already?)";
    case EPROTONOSUPPORT:
    case ENOENT:
        return " (no transport class '" + cls + "' is registered: is xrpcrdma loaded?)";
    case ENODEV:
        return " (no usable RDMA device)";
    }
    return {};
}

} // namespace

void nfsd_add_listener(const std::string &cls, uint16_t port, const std::string &dir)
{
    if (nfsd_threads(dir) == 0)
        throw Error("nfsd is not running (" + dir + "/threads is 0): start it first");

    const std::string path = dir + "/portlist";
    Fd fd(open(path.c_str(), O_WRONLY | O_CLOEXEC));
    if (fd.get() < 0)
        throw Error("cannot open " + path + ": " + errno_text(errno));

    const std::string request = cls + ' ' + std::to_string(port);
    const std::string line = request + '\n';
    ssize_t n = write(fd.get(), line.data(), line.size());
    if (n < 0) {
        int err = errno;
        throw Error("nfsd refused '" + request + "': " + errno_text(err) + refusal_hint(err, cls));
    }
    if (static_cast<size_t>(n) != line.size())
        throw Error("nfsd took only " + std::to_string(n) + " bytes of '" + request + "'");
}

} // namespace rdmactl
