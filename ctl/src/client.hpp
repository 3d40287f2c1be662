// SPDX-License-Identifier: GPL-2.0
// The operations of the xrpcrdma family, behind an interface so that the
// commands can be run against a fake in the tests.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
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
    virtual std::vector<Transport> list_transports() = 0;                  // transport-get dump
    virtual Transport get_transport(uint32_t id) = 0;                      // transport-get do
    virtual std::vector<Transport> list_listeners() = 0;                   // listener-get dump
    virtual void delete_listener(uint32_t id) = 0;                         // listener-del
    virtual Stats get_stats() = 0;                                         // stats-get
    virtual std::vector<Fault> list_faults() = 0;                          // fault-get dump
    virtual void set_fault(const Fault &fault) = 0;                        // fault-set
    // config-get, config-set: the defaults, or with id one transport's values.
    virtual Config get_config(std::optional<uint32_t> id) = 0;
    virtual void set_config(std::optional<uint32_t> id, const std::vector<ConfigValue> &values) = 0;

    virtual uint32_t run_bench(const BenchRequest &req) = 0; // bench-run: the id
    virtual Bench get_bench(uint32_t id) = 0;                // bench-get do
    virtual std::vector<Bench> list_benches() = 0;           // bench-get dump

    // Not the family: makes nfsd listen on PORT through class CLS, by
    // writing /proc/fs/nfsd/portlist (see nfsd.hpp).
    virtual void add_nfsd_listener(const std::string &cls, uint16_t port) = 0;

    // Warnings the kernel sent with successful replies since the last call.
    virtual std::vector<std::string> take_warnings() { return {}; }
};

// A client on a generic netlink socket. Throws FamilyNotFound when the
// xrpcrdma family is not registered.
std::unique_ptr<Client> make_netlink_client();

} // namespace rdmactl
