// SPDX-License-Identifier: GPL-2.0
#include "client.hpp"

#include <optional>

#include <linux/xrpcrdma.h>

#include "errors.hpp"
#include "msg.hpp"
#include "nfsd.hpp"
#include "nl.hpp"
#include "parse.hpp"

namespace rdmactl {

namespace {

class NetlinkClient : public Client {
public:
    NetlinkClient() : family_(socket_.resolve_family(XRPCRDMA_FAMILY_NAME)) {}

    std::vector<Device> list_devices() override
    {
        std::vector<Device> devs;
        socket_.transact(device_dump_request(family_),
                         [&](const nlmsghdr *nlh) { devs.push_back(parse_device(nlh)); });
        return devs;
    }

    Device get_device(const std::string &name) override
    {
        return single_reply<Device>(device_get_request(family_, name), parse_device);
    }

    void set_device_enabled(const std::string &name, bool on) override
    {
        socket_.transact(device_set_request(family_, name, on), [](const nlmsghdr *) {});
    }

    ModuleInfo get_module() override
    {
        return single_reply<ModuleInfo>(module_get_request(family_), parse_module);
    }

    std::vector<Transport> list_transports() override
    {
        return dump<Transport>(transport_dump_request(family_), parse_transport);
    }

    Transport get_transport(uint32_t id) override
    {
        return single_reply<Transport>(transport_get_request(family_, id), parse_transport);
    }

    std::vector<Transport> list_listeners() override
    {
        return dump<Transport>(listener_dump_request(family_), parse_transport);
    }

    void delete_listener(uint32_t id) override
    {
        socket_.transact(listener_del_request(family_, id), [](const nlmsghdr *) {});
    }

    Stats get_stats() override
    {
        return single_reply<Stats>(stats_get_request(family_), parse_stats);
    }

    std::vector<Fault> list_faults() override
    {
        return dump<Fault>(fault_dump_request(family_), parse_fault);
    }

    void set_fault(const Fault &fault) override
    {
        socket_.transact(fault_set_request(family_, fault), [](const nlmsghdr *) {});
    }

    Config get_config(std::optional<uint32_t> id) override
    {
        return single_reply<Config>(config_get_request(family_, id), parse_config);
    }

    void set_config(std::optional<uint32_t> id, const std::vector<ConfigValue> &values) override
    {
        socket_.transact(config_set_request(family_, id, values), [](const nlmsghdr *) {});
    }

    uint32_t run_bench(const BenchRequest &req) override
    {
        return single_reply<uint32_t>(bench_run_request(family_, req), parse_bench_id);
    }

    Bench get_bench(uint32_t id) override
    {
        return single_reply<Bench>(bench_get_request(family_, id), parse_bench);
    }

    std::vector<Bench> list_benches() override
    {
        return dump<Bench>(bench_dump_request(family_), parse_bench);
    }

    void add_nfsd_listener(const std::string &cls, uint16_t port) override
    {
        nfsd_add_listener(cls, port);
    }

    std::vector<std::string> take_warnings() override { return socket_.take_warnings(); }

private:
    // Every message of a dump.
    template <typename T> std::vector<T> dump(MsgPtr request, T (*parse)(const nlmsghdr *))
    {
        std::vector<T> items;
        socket_.transact(std::move(request),
                         [&](const nlmsghdr *nlh) { items.push_back(parse(nlh)); });
        return items;
    }

    // A "do" request answered by exactly one message.
    template <typename T> T single_reply(MsgPtr request, T (*parse)(const nlmsghdr *))
    {
        std::optional<T> result;
        socket_.transact(std::move(request), [&](const nlmsghdr *nlh) {
            if (result)
                throw ProtocolError("more than one reply to a single request");
            result = parse(nlh);
        });
        if (!result)
            throw ProtocolError("the kernel acknowledged the request without a reply");
        return std::move(*result);
    }

    Socket socket_;
    int family_;
};

} // namespace

std::unique_ptr<Client> make_netlink_client()
{
    return std::make_unique<NetlinkClient>();
}

} // namespace rdmactl
