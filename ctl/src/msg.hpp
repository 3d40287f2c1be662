// SPDX-License-Identifier: GPL-2.0
// Requests of the xrpcrdma family. Pure functions: they only build messages,
// so they can be checked without a kernel.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nl.hpp"
#include "types.hpp"

namespace rdmactl {

// device-get "do": one device by name.
MsgPtr device_get_request(int family, const std::string &name);

// device-get dump: every device.
MsgPtr device_dump_request(int family);

// device-set: enable or disable a device.
MsgPtr device_set_request(int family, const std::string &name, bool enabled);

// module-get "do".
MsgPtr module_get_request(int family);

// transport-get "do": one transport by id.
MsgPtr transport_get_request(int family, uint32_t id);

// transport-get dump: every transport.
MsgPtr transport_dump_request(int family);

// listener-get dump: every listener.
MsgPtr listener_dump_request(int family);

// listener-del: stop one listener, by id.
MsgPtr listener_del_request(int family, uint32_t id);

// stats-get "do".
MsgPtr stats_get_request(int family);

// fault-set: arm the point (trigger off: disarm it), with the fields given.
MsgPtr fault_set_request(int family, const Fault &fault);

// fault-get, dump.
MsgPtr fault_dump_request(int family);

// config-get "do": the defaults, or with id the values of one transport.
MsgPtr config_get_request(int family, std::optional<uint32_t> id);

// config-set: the defaults, or with id the live values of one transport.
// Every name must be a tunable's (std::invalid_argument otherwise).
MsgPtr config_set_request(int family, std::optional<uint32_t> id,
                          const std::vector<ConfigValue> &values);

// bench-run: start a benchmark of req.server (an IPv4 or IPv6 address;
// std::invalid_argument otherwise) with the settings req has.
MsgPtr bench_run_request(int family, const BenchRequest &req);

// bench-get "do": one benchmark by id.
MsgPtr bench_get_request(int family, uint32_t id);

// bench-get dump: every benchmark the module keeps.
MsgPtr bench_dump_request(int family);

} // namespace rdmactl
