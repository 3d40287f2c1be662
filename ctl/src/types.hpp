// SPDX-License-Identifier: GPL-2.0
// Plain C++ views of the objects of the xrpcrdma netlink family.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rdmactl {

struct Port {
    uint32_t number = 0;
    uint32_t state = 0; // enum xrpcrdma_port_state
    std::optional<std::string> netdev;
};

struct Device {
    uint32_t index = 0;
    std::string name;
    uint64_t node_guid = 0; // host byte order
    std::vector<Port> ports;
    bool usable = false;
    bool enabled = false;
};

struct LiveObject {
    std::string name;
    uint64_t count = 0;
};

struct ModuleInfo {
    std::string version;
    std::string build_kernel;
    uint32_t mode = 0;
    std::vector<LiveObject> live_objects;
};

} // namespace rdmactl
