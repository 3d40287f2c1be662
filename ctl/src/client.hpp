// SPDX-License-Identifier: GPL-2.0
// The operations of the xrpcrdma family, behind an interface so that the
// commands can be run against a fake in the tests.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "types.hpp"

namespace rdmactl {

class Client {
public:
    virtual ~Client() = default;

    virtual std::vector<Device> list_devices() = 0;                        // device-get dump
    virtual Device get_device(const std::string &name) = 0;                // device-get do
    virtual void set_device_enabled(const std::string &name, bool on) = 0; // device-set
    virtual ModuleInfo get_module() = 0;                                   // module-get

    // Warnings the kernel sent with successful replies since the last call.
    virtual std::vector<std::string> take_warnings() { return {}; }
};

// A client on a generic netlink socket. Throws FamilyNotFound when the
// xrpcrdma family is not registered.
std::unique_ptr<Client> make_netlink_client();

} // namespace rdmactl
