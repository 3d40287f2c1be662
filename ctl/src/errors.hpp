// SPDX-License-Identifier: GPL-2.0
// Exception types. Their what() is the text printed after "rdmactl: ".
#pragma once

#include <stdexcept>
#include <string>

namespace rdmactl {

// Bad command line: exit code 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Any failure talking to the kernel: exit code 1.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The kernel answered a request with an error.
class KernelError : public Error {
public:
    // errnum is positive (EPERM, ...); message is the extended ACK text, maybe empty.
    KernelError(int errnum, std::string message);

    int errnum() const noexcept { return errnum_; }
    const std::string &kernel_message() const noexcept { return message_; }

private:
    int errnum_;
    std::string message_;
};

// The generic netlink family is not registered: its module is not loaded.
class FamilyNotFound : public Error {
public:
    explicit FamilyNotFound(const std::string &family);
};

// libnl failed locally (socket, send, receive); code is a negative NLE_* value.
class NetlinkError : public Error {
public:
    NetlinkError(const std::string &what, int code);

    int code() const noexcept { return code_; }

private:
    int code_;
};

// A stop was asked for (SIGINT or SIGTERM under StopSignals) while
// waiting: not a failure, the command ends early.
class InterruptedError : public Error {
public:
    using Error::Error;
};

// A reply did not have the expected form.
class ProtocolError : public Error {
public:
    explicit ProtocolError(const std::string &what);
};

} // namespace rdmactl
