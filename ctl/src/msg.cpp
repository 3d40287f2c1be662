// SPDX-License-Identifier: GPL-2.0
#include "msg.hpp"

#include <cstdint>
#include <new>
#include <stdexcept>

#include <arpa/inet.h>
#include <linux/xrpcrdma.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <sys/socket.h>

#include "tunables.hpp"

namespace rdmactl {

namespace {

// A generic netlink request header. Sequence number and port are filled in
// when the message is sent. "Do" requests ask for an ACK so that success is
// confirmed (and warnings seen); dumps end with NLMSG_DONE instead.
MsgPtr new_request(int family, uint8_t cmd, bool dump)
{
    MsgPtr msg(nlmsg_alloc());
    if (!msg)
        throw std::bad_alloc();
    int flags = NLM_F_REQUEST | (dump ? NLM_F_DUMP : NLM_F_ACK);
    if (!genlmsg_put(msg.get(), NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, flags, cmd,
                     XRPCRDMA_FAMILY_VERSION))
        throw std::bad_alloc();
    return msg;
}

void put_device_name(nl_msg *msg, const std::string &name)
{
    // The kernel's policy would refuse these too; refusing here gives a
    // clearer message and keeps NUL bytes from cutting the name short.
    if (name.empty() || name.size() > XRPCRDMA_DEV_NAME_MAX_LEN ||
        name.find('\0') != std::string::npos)
        throw std::invalid_argument("invalid device name");
    if (nla_put_string(msg, XRPCRDMA_A_DEVICE_NAME, name.c_str()) < 0)
        throw std::bad_alloc();
}

} // namespace

MsgPtr device_get_request(int family, const std::string &name)
{
    MsgPtr msg = new_request(family, XRPCRDMA_CMD_DEVICE_GET, false);
    put_device_name(msg.get(), name);
    return msg;
}

MsgPtr device_dump_request(int family)
{
    return new_request(family, XRPCRDMA_CMD_DEVICE_GET, true);
}

MsgPtr device_set_request(int family, const std::string &name, bool enabled)
{
    MsgPtr msg = new_request(family, XRPCRDMA_CMD_DEVICE_SET, false);
    put_device_name(msg.get(), name);
    if (nla_put_u8(msg.get(), XRPCRDMA_A_DEVICE_ENABLED, enabled ? 1 : 0) < 0)
        throw std::bad_alloc();
    return msg;
}

MsgPtr module_get_request(int family)
{
    return new_request(family, XRPCRDMA_CMD_MODULE_GET, false);
}

namespace {

MsgPtr request_with_id(int family, uint8_t cmd, uint32_t id)
{
    MsgPtr msg = new_request(family, cmd, false);
    if (nla_put_u32(msg.get(), XRPCRDMA_A_TRANSPORT_ID, id) < 0)
        throw std::bad_alloc();
    return msg;
}

} // namespace

MsgPtr transport_get_request(int family, uint32_t id)
{
    return request_with_id(family, XRPCRDMA_CMD_TRANSPORT_GET, id);
}

MsgPtr transport_dump_request(int family)
{
    return new_request(family, XRPCRDMA_CMD_TRANSPORT_GET, true);
}

MsgPtr listener_dump_request(int family)
{
    return new_request(family, XRPCRDMA_CMD_LISTENER_GET, true);
}

MsgPtr listener_del_request(int family, uint32_t id)
{
    return request_with_id(family, XRPCRDMA_CMD_LISTENER_DEL, id);
}

MsgPtr stats_get_request(int family)
{
    return new_request(family, XRPCRDMA_CMD_STATS_GET, false);
}

MsgPtr fault_set_request(int family, const Fault &fault)
{
    MsgPtr msg = new_request(family, XRPCRDMA_CMD_FAULT_SET, false);
    auto put = [&](int type, std::optional<uint32_t> value) {
        if (value && nla_put_u32(msg.get(), type, *value) < 0)
            throw std::bad_alloc();
    };
    put(XRPCRDMA_A_FAULT_POINT, fault.point);
    if (fault.trigger != XRPCRDMA_FAULT_TRIGGER_OFF)
        put(XRPCRDMA_A_FAULT_TRIGGER, fault.trigger);
    put(XRPCRDMA_A_FAULT_N, fault.n);
    put(XRPCRDMA_A_FAULT_PROBABILITY, fault.probability);
    put(XRPCRDMA_A_FAULT_TIMES, fault.times);
    put(XRPCRDMA_A_FAULT_ERRNO, fault.error);
    put(XRPCRDMA_A_FAULT_DELAY_MS, fault.delay_ms);
    put(XRPCRDMA_A_FAULT_TRANSPORT_ID, fault.transport_id);
    return msg;
}

MsgPtr fault_dump_request(int family)
{
    return new_request(family, XRPCRDMA_CMD_FAULT_GET, true);
}

namespace {

MsgPtr config_request(int family, uint8_t cmd, std::optional<uint32_t> id)
{
    MsgPtr msg = new_request(family, cmd, false);
    if (id && nla_put_u32(msg.get(), XRPCRDMA_A_CONFIG_TRANSPORT_ID, *id) < 0)
        throw std::bad_alloc();
    return msg;
}

} // namespace

MsgPtr config_get_request(int family, std::optional<uint32_t> id)
{
    return config_request(family, XRPCRDMA_CMD_CONFIG_GET, id);
}

MsgPtr config_set_request(int family, std::optional<uint32_t> id,
                          const std::vector<ConfigValue> &values)
{
    MsgPtr msg = config_request(family, XRPCRDMA_CMD_CONFIG_SET, id);
    for (const ConfigValue &v : values) {
        const Tunable *t = find_tunable(v.name);
        if (!t)
            throw std::invalid_argument("unknown tunable " + v.name);
        if (nla_put_u32(msg.get(), t->attr, v.value) < 0)
            throw std::bad_alloc();
    }
    return msg;
}

namespace {

// The server's address as addr4 (network byte order) or addr6.
void put_bench_server(nl_msg *msg, const SockAddr &server)
{
    unsigned char addr[16];
    int family = server.family == AF_INET6 ? AF_INET6 : AF_INET;
    if ((server.family != AF_INET && server.family != AF_INET6) ||
        inet_pton(family, server.addr.c_str(), addr) != 1)
        throw std::invalid_argument("invalid server address " + server.addr);
    int rc = family == AF_INET ? nla_put(msg, XRPCRDMA_A_BENCH_ADDR4, 4, addr)
                               : nla_put(msg, XRPCRDMA_A_BENCH_ADDR6, 16, addr);
    if (rc < 0)
        throw std::bad_alloc();
}

} // namespace

MsgPtr bench_run_request(int family, const BenchRequest &req)
{
    MsgPtr msg = new_request(family, XRPCRDMA_CMD_BENCH_RUN, false);
    auto put = [&](int type, std::optional<uint32_t> value) {
        if (value && nla_put_u32(msg.get(), type, *value) < 0)
            throw std::bad_alloc();
    };
    put(XRPCRDMA_A_BENCH_TRANSPORT, req.transport);
    put_bench_server(msg.get(), req.server);
    // In host byte order, as the spec has it (no byte-order given).
    if (req.server.port && nla_put_u16(msg.get(), XRPCRDMA_A_BENCH_PORT, req.server.port) < 0)
        throw std::bad_alloc();
    put(XRPCRDMA_A_BENCH_PROGRAM, req.program);
    put(XRPCRDMA_A_BENCH_VERSION, req.version);
    put(XRPCRDMA_A_BENCH_COUNT, req.count);
    put(XRPCRDMA_A_BENCH_CONCURRENCY, req.concurrency);
    put(XRPCRDMA_A_BENCH_OP, req.op);
    put(XRPCRDMA_A_BENCH_SIZE, req.size);
    put(XRPCRDMA_A_BENCH_QPS, req.qps);
    put(XRPCRDMA_A_BENCH_REPLY_SIZE, req.reply_size);
    return msg;
}

MsgPtr bench_get_request(int family, uint32_t id)
{
    MsgPtr msg = new_request(family, XRPCRDMA_CMD_BENCH_GET, false);
    if (nla_put_u32(msg.get(), XRPCRDMA_A_BENCH_ID, id) < 0)
        throw std::bad_alloc();
    return msg;
}

MsgPtr bench_dump_request(int family)
{
    return new_request(family, XRPCRDMA_CMD_BENCH_GET, true);
}

} // namespace rdmactl
