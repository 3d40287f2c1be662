// SPDX-License-Identifier: GPL-2.0
#include "errors.hpp"

#include <cstring>

#include <netlink/errno.h>

namespace rdmactl {

namespace {

std::string kernel_error_text(int errnum, const std::string &message)
{
    std::string text = std::strerror(errnum);
    if (!message.empty())
        text += ": " + message;
    return text;
}

} // namespace

KernelError::KernelError(int errnum, std::string message)
    : Error(kernel_error_text(errnum, message)), errnum_(errnum), message_(std::move(message))
{}

FamilyNotFound::FamilyNotFound(const std::string &family)
    : Error("the " + family + " module is not loaded (generic netlink family \"" + family +
            "\" not found)")
{}

NetlinkError::NetlinkError(const std::string &what, int code)
    : Error("netlink: " + what + ": " + nl_geterror(code)), code_(code)
{}

ProtocolError::ProtocolError(const std::string &what) : Error("malformed reply: " + what) {}

} // namespace rdmactl
