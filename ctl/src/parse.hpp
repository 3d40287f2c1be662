// SPDX-License-Identifier: GPL-2.0
// Replies of the xrpcrdma family to plain structs. Every attribute is checked
// against a policy (type and length); a reply that fails is a ProtocolError.
#pragma once

#include <linux/netlink.h>

#include "types.hpp"

namespace rdmactl {

// A device-get reply (do or one part of a dump). nlh->nlmsg_len bytes must be
// readable. Attributes of unknown types are ignored.
Device parse_device(const nlmsghdr *nlh);

// A module-get reply.
ModuleInfo parse_module(const nlmsghdr *nlh);

// A transport-get or listener-get reply. Every transport has an id, role,
// state, class, service and local address; a connection in a transport-get
// reply also its peer's address, its numbers and its counters. Those come
// all or none, and a listener has none.
Transport parse_transport(const nlmsghdr *nlh);

// A stats-get reply.
Stats parse_stats(const nlmsghdr *nlh);

// A fault-get reply.
Fault parse_fault(const nlmsghdr *nlh);

// A config-get reply: the tunables present, in the spec's order.
Config parse_config(const nlmsghdr *nlh);

// A bench-get reply or a bench-done-ntf: the settings, the progress and,
// once it no longer runs, the result.
Bench parse_bench(const nlmsghdr *nlh);

// A bench-run reply: the new benchmark's id.
uint32_t parse_bench_id(const nlmsghdr *nlh);

// A notification of the events group: device, listener and transport
// events carry what device-get and transport-get would show (connect: the
// peer and the negotiated numbers; disconnect: the peer, the reason and the
// counters; listener-del: the reason). A command this tool does not know
// is an EventType::Unknown event, not an error.
Event parse_event(const nlmsghdr *nlh);

} // namespace rdmactl
