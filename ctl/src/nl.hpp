// SPDX-License-Identifier: GPL-2.0
// Thin RAII layer over libnl: sockets, messages, request/reply exchanges and
// extended ACK decoding. Nothing here knows about xrpcrdma.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <linux/netlink.h>
#include <netlink/handlers.h>
#include <netlink/msg.h>
#include <netlink/socket.h>

namespace rdmactl {

struct SockDeleter {
    void operator()(nl_sock *sk) const noexcept { nl_socket_free(sk); }
};
struct MsgDeleter {
    void operator()(nl_msg *msg) const noexcept { nlmsg_free(msg); }
};
struct CbDeleter {
    void operator()(nl_cb *cb) const noexcept { nl_cb_put(cb); }
};

using SockPtr = std::unique_ptr<nl_sock, SockDeleter>;
using MsgPtr = std::unique_ptr<nl_msg, MsgDeleter>;
using CbPtr = std::unique_ptr<nl_cb, CbDeleter>;

// The extended ACK attributes (NLMSGERR_ATTR_*) of an NLMSG_ERROR or NLMSG_DONE.
struct ExtAck {
    std::string message;                  // NLMSGERR_ATTR_MSG
    std::optional<uint32_t> offset;       // NLMSGERR_ATTR_OFFS: bad attribute in the request
    std::optional<uint32_t> missing_type; // NLMSGERR_ATTR_MISS_TYPE
    std::optional<uint32_t> missing_nest; // NLMSGERR_ATTR_MISS_NEST
};

// What an NLMSG_ERROR (error or ACK) or NLMSG_DONE (end of dump) reports.
struct Status {
    int error = 0; // 0, or the kernel's negative errno
    ExtAck ack;
};

// Decodes an NLMSG_ERROR or NLMSG_DONE message whose nlmsg_len bytes are all
// readable. The echoed request of an uncapped error is skipped. Throws
// ProtocolError for a message too short to hold its error code; garbled
// extended ACK attributes are ignored (the error code still counts).
Status decode_status(const nlmsghdr *nlh);

// The text to show for an extended ACK: the kernel's message, or a note about
// a missing attribute when that is all the kernel said. Empty if nothing.
std::string describe(const ExtAck &ack);

// Called for each reply message of the request's family that belongs to it.
using ReplyHandler = std::function<void(const nlmsghdr *)>;

// A generic netlink socket with extended ACKs enabled.
class Socket {
public:
    Socket();

    // The id of a generic netlink family; throws FamilyNotFound if absent.
    int resolve_family(const std::string &name);

    // The id of a multicast group of a family; throws FamilyNotFound if the
    // family (or its group) is absent.
    int resolve_group(const std::string &family, const std::string &group);

    // Sends a request and receives its answer: for a "do" request (which
    // must carry NLM_F_ACK) the reply and the ACK, for a dump (NLM_F_DUMP)
    // every part up to NLMSG_DONE. Throws KernelError when the kernel reports
    // an error, also one that ends a dump part way.
    void transact(MsgPtr request, const ReplyHandler &on_reply);

    // Messages the kernel attached to successful ACKs, oldest first.
    std::vector<std::string> take_warnings();

private:
    SockPtr sk_;
    std::vector<std::string> warnings_;
};

} // namespace rdmactl
