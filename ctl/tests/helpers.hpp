// SPDX-License-Identifier: GPL-2.0
// Building netlink messages the way the kernel would, for the tests.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <linux/xrpcrdma.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "nl.hpp"

namespace testing_helpers {

using rdmactl::MsgPtr;

constexpr int test_family = 0x1d;

// A generic netlink message of test_family, as a reply would be.
inline MsgPtr new_genl_msg(uint8_t cmd, int flags = 0)
{
    MsgPtr msg(nlmsg_alloc());
    if (!msg ||
        !genlmsg_put(msg.get(), 4242, 7, test_family, 0, flags, cmd, XRPCRDMA_FAMILY_VERSION))
        throw std::bad_alloc();
    return msg;
}

inline const nlmsghdr *hdr(const MsgPtr &msg)
{
    return nlmsg_hdr(msg.get());
}

// The types of all the attributes of a request, in order; none left over.
inline std::vector<int> attr_types(const MsgPtr &msg)
{
    auto *ghdr = static_cast<const genlmsghdr *>(nlmsg_data(hdr(msg)));
    std::vector<int> types;
    const nlattr *attr;
    int rem;

    nla_for_each_attr(attr, genlmsg_attrdata(ghdr, 0), genlmsg_attrlen(ghdr, 0), rem)
        types.push_back(nla_type(attr));
    EXPECT_EQ(rem, 0);
    return types;
}

// Appends raw bytes to a message as an attribute payload (any length).
inline void put_raw(nl_msg *msg, int type, const void *data, int len)
{
    if (nla_put(msg, type, len, data) < 0)
        throw std::bad_alloc();
}

inline void put_port(nl_msg *msg, uint32_t number, uint32_t state, const char *netdev = nullptr)
{
    nlattr *nest = nla_nest_start(msg, XRPCRDMA_A_DEVICE_PORT);
    nla_put_u32(msg, XRPCRDMA_A_PORT_NUMBER, number);
    nla_put_u32(msg, XRPCRDMA_A_PORT_STATE, state);
    if (netdev)
        nla_put_string(msg, XRPCRDMA_A_PORT_NETDEV, netdev);
    nla_nest_end(msg, nest);
}

// Puts attributes into a made-up reply unless the test left them out.
class OmitPut {
public:
    OmitPut(nl_msg *m, const std::vector<int> &omit) : m_(m), omit_(omit) {}
    bool keep(int type) const
    {
        for (int o : omit_) {
            if (o == type)
                return false;
        }
        return true;
    }
    void u8(int type, uint8_t v) const
    {
        if (keep(type))
            nla_put_u8(m_, type, v);
    }
    void u16(int type, uint16_t v) const
    {
        if (keep(type))
            nla_put_u16(m_, type, v);
    }
    void u32(int type, uint32_t v) const
    {
        if (keep(type))
            nla_put_u32(m_, type, v);
    }
    void u64(int type, uint64_t v) const
    {
        if (keep(type))
            nla_put_u64(m_, type, v);
    }
    void str(int type, const char *v) const
    {
        if (keep(type))
            nla_put_string(m_, type, v);
    }

private:
    nl_msg *m_;
    const std::vector<int> &omit_;
};

// The attributes of a device reply, each of which a test may leave out.
inline MsgPtr device_reply(const std::vector<int> &omit = {})
{
    MsgPtr msg = new_genl_msg(XRPCRDMA_CMD_DEVICE_GET);
    nl_msg *m = msg.get();
    OmitPut put(m, omit);
    put.u32(XRPCRDMA_A_DEVICE_INDEX, 3);
    put.str(XRPCRDMA_A_DEVICE_NAME, "rxe0");
    put.u64(XRPCRDMA_A_DEVICE_NODE_GUID, 0x505400fffe123456ULL);
    if (put.keep(XRPCRDMA_A_DEVICE_PORT))
        put_port(m, 1, XRPCRDMA_PORT_STATE_ACTIVE, "veth0");
    put.u8(XRPCRDMA_A_DEVICE_USABLE, 1);
    put.u8(XRPCRDMA_A_DEVICE_ENABLED, 1);
    return msg;
}

inline void put_live_object(nl_msg *msg, const char *name, uint64_t count)
{
    nlattr *nest = nla_nest_start(msg, XRPCRDMA_A_MODULE_LIVE_OBJECT);
    nla_put_string(msg, XRPCRDMA_A_LIVE_OBJECT_NAME, name);
    nla_put_u64(msg, XRPCRDMA_A_LIVE_OBJECT_COUNT, count);
    nla_nest_end(msg, nest);
}

inline void put_stat(nl_msg *msg, int type, const char *name, uint64_t value)
{
    nlattr *nest = nla_nest_start(msg, type);
    nla_put_string(msg, XRPCRDMA_A_STAT_NAME, name);
    nla_put_u64(msg, XRPCRDMA_A_STAT_VALUE, value);
    nla_nest_end(msg, nest);
}

// A transport-get reply for a listener on 0.0.0.0:20050 (id 1), or with
// connection, for a connection (id 3) from 10.99.0.1:851 to
// 10.99.0.1:20050 with two counters; a test may leave attributes out.
inline MsgPtr transport_reply(bool connection, const std::vector<int> &omit = {},
                              uint8_t cmd = XRPCRDMA_CMD_TRANSPORT_GET)
{
    const uint32_t ip = htonl(0x0a630001); // 10.99.0.1
    MsgPtr msg = new_genl_msg(cmd);
    nl_msg *m = msg.get();
    OmitPut put(m, omit);
    put.u32(XRPCRDMA_A_TRANSPORT_ID, connection ? 3 : 1);
    put.u32(XRPCRDMA_A_TRANSPORT_ROLE,
            connection ? XRPCRDMA_TRANSPORT_ROLE_SERVER_CONNECTION
                       : XRPCRDMA_TRANSPORT_ROLE_SERVER_LISTENER);
    put.u32(XRPCRDMA_A_TRANSPORT_STATE,
            connection ? XRPCRDMA_TRANSPORT_STATE_CONNECTED : XRPCRDMA_TRANSPORT_STATE_LISTENING);
    put.str(XRPCRDMA_A_TRANSPORT_CLASS, "xrdma");
    put.str(XRPCRDMA_A_TRANSPORT_SERV, "nfsd");
    put.u32(XRPCRDMA_A_TRANSPORT_LOCAL_ADDR4, connection ? ip : 0);
    put.u16(XRPCRDMA_A_TRANSPORT_LOCAL_PORT, htons(20050));
    if (!connection)
        return msg;
    put.u32(XRPCRDMA_A_TRANSPORT_PEER_ADDR4, ip);
    put.u16(XRPCRDMA_A_TRANSPORT_PEER_PORT, htons(851));
    put.u32(XRPCRDMA_A_TRANSPORT_CREDITS, 64);
    put.u32(XRPCRDMA_A_TRANSPORT_INLINE_SEND, 4096);
    put.u32(XRPCRDMA_A_TRANSPORT_INLINE_RECV, 4096);
    put.u32(XRPCRDMA_A_TRANSPORT_PEER_INLINE_SEND, 1024);
    put.u32(XRPCRDMA_A_TRANSPORT_PEER_INLINE_RECV, 2048);
    put.u32(XRPCRDMA_A_TRANSPORT_SQ_DEPTH, 64);
    put.u32(XRPCRDMA_A_TRANSPORT_SQ_FREE, 62);
    put.u32(XRPCRDMA_A_TRANSPORT_RQ_DEPTH, 65);
    put.u32(XRPCRDMA_A_TRANSPORT_SENDCTX_ALLOCATED, 3);
    put.u32(XRPCRDMA_A_TRANSPORT_SENDCTX_FREE, 1);
    put.u32(XRPCRDMA_A_TRANSPORT_RECVCTX_ALLOCATED, 66);
    put.u32(XRPCRDMA_A_TRANSPORT_RECVCTX_BYTES, 304128);
    if (put.keep(XRPCRDMA_A_TRANSPORT_STAT)) {
        put_stat(m, XRPCRDMA_A_TRANSPORT_STAT, "calls-received", 12);
        put_stat(m, XRPCRDMA_A_TRANSPORT_STAT, "bad-headers", 0);
    }
    return msg;
}

// A transport-get reply for a client transport (id 7, class rdma) of a
// server at 10.99.0.1:20049 with two counters; with connected, its
// connection from 10.99.0.1:47000 and the connection's numbers, else
// state connecting and neither. A test may leave attributes out.
inline MsgPtr client_reply(bool connected, const std::vector<int> &omit = {},
                           uint8_t cmd = XRPCRDMA_CMD_TRANSPORT_GET)
{
    const uint32_t ip = htonl(0x0a630001); // 10.99.0.1
    MsgPtr msg = new_genl_msg(cmd);
    nl_msg *m = msg.get();
    OmitPut put(m, omit);
    put.u32(XRPCRDMA_A_TRANSPORT_ID, 7);
    put.u32(XRPCRDMA_A_TRANSPORT_ROLE, XRPCRDMA_TRANSPORT_ROLE_CLIENT);
    put.u32(XRPCRDMA_A_TRANSPORT_STATE,
            connected ? XRPCRDMA_TRANSPORT_STATE_CONNECTED : XRPCRDMA_TRANSPORT_STATE_CONNECTING);
    put.str(XRPCRDMA_A_TRANSPORT_CLASS, "rdma");
    if (connected) {
        put.u32(XRPCRDMA_A_TRANSPORT_LOCAL_ADDR4, ip);
        put.u16(XRPCRDMA_A_TRANSPORT_LOCAL_PORT, htons(47000));
    }
    put.u32(XRPCRDMA_A_TRANSPORT_PEER_ADDR4, ip);
    put.u16(XRPCRDMA_A_TRANSPORT_PEER_PORT, htons(20049));
    if (connected) {
        put.u32(XRPCRDMA_A_TRANSPORT_CREDITS, 32);
        put.u32(XRPCRDMA_A_TRANSPORT_INLINE_SEND, 4096);
        put.u32(XRPCRDMA_A_TRANSPORT_INLINE_RECV, 4096);
        put.u32(XRPCRDMA_A_TRANSPORT_PEER_INLINE_SEND, 4096);
        put.u32(XRPCRDMA_A_TRANSPORT_PEER_INLINE_RECV, 4096);
        put.u32(XRPCRDMA_A_TRANSPORT_SQ_DEPTH, 544);
        put.u32(XRPCRDMA_A_TRANSPORT_SQ_FREE, 540);
        put.u32(XRPCRDMA_A_TRANSPORT_RQ_DEPTH, 32);
        put.u32(XRPCRDMA_A_TRANSPORT_SENDCTX_ALLOCATED, 2);
        put.u32(XRPCRDMA_A_TRANSPORT_SENDCTX_FREE, 2);
        put.u32(XRPCRDMA_A_TRANSPORT_RECVCTX_ALLOCATED, 32);
        put.u32(XRPCRDMA_A_TRANSPORT_RECVCTX_BYTES, 147456);
    }
    if (put.keep(XRPCRDMA_A_TRANSPORT_STAT)) {
        put_stat(m, XRPCRDMA_A_TRANSPORT_STAT, "rpcs-sent", 40);
        put_stat(m, XRPCRDMA_A_TRANSPORT_STAT, "read-chunk-calls", 2);
    }
    return msg;
}

// A bench-get reply (or, with cmd, a bench notification) as the module
// sends it: benchmark 3, rpc-null over tcp to 10.99.0.1:2049, 2000 calls
// 16 at a time; while running 700 done and no result, else all done with
// status and the figures. A test may leave attributes out.
inline MsgPtr bench_reply(bool running, int32_t status = 0, const std::vector<int> &omit = {},
                          uint8_t cmd = XRPCRDMA_CMD_BENCH_GET)
{
    MsgPtr msg = new_genl_msg(cmd);
    nl_msg *m = msg.get();
    OmitPut put(m, omit);
    put.u32(XRPCRDMA_A_BENCH_ID, 3);
    put.u32(XRPCRDMA_A_BENCH_OP, XRPCRDMA_BENCH_OP_RPC_NULL);
    put.u32(XRPCRDMA_A_BENCH_TRANSPORT, XRPCRDMA_BENCH_TRANSPORT_TCP);
    put.u32(XRPCRDMA_A_BENCH_ADDR4, htonl(0x0a630001)); // 10.99.0.1
    put.u16(XRPCRDMA_A_BENCH_PORT, 2049);
    put.u32(XRPCRDMA_A_BENCH_PROGRAM, 100003);
    put.u32(XRPCRDMA_A_BENCH_VERSION, 3);
    put.u32(XRPCRDMA_A_BENCH_COUNT, 2000);
    put.u32(XRPCRDMA_A_BENCH_CONCURRENCY, 16);
    put.u8(XRPCRDMA_A_BENCH_RUNNING, running);
    put.u32(XRPCRDMA_A_BENCH_DONE, running ? 700 : 2000);
    put.u32(XRPCRDMA_A_BENCH_ERRORS, status ? 2000 : 0);
    if (running)
        return msg;
    put.u32(XRPCRDMA_A_BENCH_STATUS, uint32_t(status));
    put.u64(XRPCRDMA_A_BENCH_ELAPSED_NS, 250000000);
    put.u64(XRPCRDMA_A_BENCH_OPS_PER_SEC, status ? 0 : 8000);
    put.u64(XRPCRDMA_A_BENCH_LAT_P50_NS, status ? 0 : 52100);
    put.u64(XRPCRDMA_A_BENCH_LAT_P99_NS, status ? 0 : 120000);
    put.u64(XRPCRDMA_A_BENCH_LAT_P999_NS, status ? 0 : 300000);
    put.u64(XRPCRDMA_A_BENCH_LAT_MAX_NS, status ? 0 : 1200000);
    return msg;
}

// The same of an RDMA op (op: rdma-write by default): benchmark 4, its
// listener on 10.99.0.1:41000, 10000 messages of 1 MiB over 4 queue
// pairs, 16 at a time on each; while running 2500 done and no result,
// else all done in 8.54 s, 1170 messages and 1227133513 bytes a second.
// Transport, program and version come too (as 0), as the module sends
// them for every op.
inline MsgPtr rdma_bench_reply(bool running, uint32_t op = XRPCRDMA_BENCH_OP_RDMA_WRITE,
                               const std::vector<int> &omit = {},
                               uint8_t cmd = XRPCRDMA_CMD_BENCH_GET)
{
    MsgPtr msg = new_genl_msg(cmd);
    nl_msg *m = msg.get();
    OmitPut put(m, omit);
    put.u32(XRPCRDMA_A_BENCH_ID, 4);
    put.u32(XRPCRDMA_A_BENCH_OP, op);
    put.u32(XRPCRDMA_A_BENCH_TRANSPORT, 0);
    put.u32(XRPCRDMA_A_BENCH_ADDR4, htonl(0x0a630001)); // 10.99.0.1
    put.u16(XRPCRDMA_A_BENCH_PORT, 41000);
    put.u32(XRPCRDMA_A_BENCH_PROGRAM, 0);
    put.u32(XRPCRDMA_A_BENCH_VERSION, 0);
    put.u32(XRPCRDMA_A_BENCH_SIZE, 1048576);
    put.u32(XRPCRDMA_A_BENCH_QPS, 4);
    put.u32(XRPCRDMA_A_BENCH_COUNT, 10000);
    put.u32(XRPCRDMA_A_BENCH_CONCURRENCY, 16);
    put.u8(XRPCRDMA_A_BENCH_RUNNING, running);
    put.u32(XRPCRDMA_A_BENCH_DONE, running ? 2500 : 10000);
    put.u32(XRPCRDMA_A_BENCH_ERRORS, 0);
    if (running)
        return msg;
    put.u32(XRPCRDMA_A_BENCH_STATUS, 0);
    put.u64(XRPCRDMA_A_BENCH_ELAPSED_NS, 8544800000);
    put.u64(XRPCRDMA_A_BENCH_OPS_PER_SEC, 1170);
    put.u64(XRPCRDMA_A_BENCH_BYTES_PER_SEC, 1227133513);
    put.u64(XRPCRDMA_A_BENCH_LAT_P50_NS, 54100000);
    put.u64(XRPCRDMA_A_BENCH_LAT_P99_NS, 61200000);
    put.u64(XRPCRDMA_A_BENCH_LAT_P999_NS, 63000000);
    put.u64(XRPCRDMA_A_BENCH_LAT_MAX_NS, 70500000);
    return msg;
}

// A bench-progress-ntf: benchmark 3, done of 2000, errors.
inline MsgPtr bench_progress_event(uint32_t done, uint32_t errors = 0)
{
    MsgPtr msg = new_genl_msg(XRPCRDMA_CMD_BENCH_PROGRESS_NTF);
    nla_put_u32(msg.get(), XRPCRDMA_A_BENCH_ID, 3);
    nla_put_u32(msg.get(), XRPCRDMA_A_BENCH_COUNT, 2000);
    nla_put_u32(msg.get(), XRPCRDMA_A_BENCH_DONE, done);
    nla_put_u32(msg.get(), XRPCRDMA_A_BENCH_ERRORS, errors);
    return msg;
}

// The first attribute of the given type of a generic netlink message.
inline nlattr *find_attr(const MsgPtr &msg, int type)
{
    auto *ghdr = static_cast<genlmsghdr *>(nlmsg_data(nlmsg_hdr(msg.get())));
    return nla_find(genlmsg_attrdata(ghdr, 0), genlmsg_attrlen(ghdr, 0), type);
}

} // namespace testing_helpers
