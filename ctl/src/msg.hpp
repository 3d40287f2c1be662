// SPDX-License-Identifier: GPL-2.0
// Requests of the xrpcrdma family. Pure functions: they only build messages,
// so they can be checked without a kernel.
#pragma once

#include <string>

#include "nl.hpp"

namespace rdmactl {

// device-get "do": one device by name.
MsgPtr device_get_request(int family, const std::string &name);

// device-get dump: every device.
MsgPtr device_dump_request(int family);

// device-set: enable or disable a device.
MsgPtr device_set_request(int family, const std::string &name, bool enabled);

// module-get "do".
MsgPtr module_get_request(int family);

} // namespace rdmactl
