// SPDX-License-Identifier: GPL-2.0
// An RPC-over-RDMA connection on librdmacm for `rdmactl ping`: a reliable
// connected queue pair to the server, RFC 8797 private data, Receives
// kept posted, and every wait bounded (completion channel and connection
// manager events under poll(); under StopSignals, SIGINT and SIGTERM end
// the waits of a connection that is up: wait() returns Interrupted).
#pragma once

#include <memory>

#include "ping.hpp"

namespace rdmactl {

// Resolves, connects and returns the connection; throws Error.
std::unique_ptr<Connection> connect_rdma(const ConnectParams &params);

} // namespace rdmactl
