// SPDX-License-Identifier: GPL-2.0
// rdmactl monitor: its command line, every notification parsed as the
// kernel sends it, every event type formatted as text and as JSON, and the
// loop and the command over a scripted event source.
#include <gtest/gtest.h>

#include <csignal>
#include <deque>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <sys/socket.h>

#include <linux/xrpcrdma.h>
#include <netlink/errno.h>

#include "argv.hpp"
#include "cli.hpp"
#include "commands.hpp"
#include "errors.hpp"
#include "helpers.hpp"
#include "monitor.hpp"
#include "output.hpp"
#include "parse.hpp"

using namespace rdmactl;
using namespace testing_helpers;
using Json = nlohmann::json;

namespace {

// ---- Command line ----

TEST(MonitorCli, Plain)
{
    Command cmd = parse({"monitor"});
    EXPECT_EQ(cmd.action, Action::Run);
    EXPECT_EQ(cmd.object, Object::Monitor);
    EXPECT_FALSE(cmd.output.json);
    EXPECT_FALSE(cmd.monitor.timestamps);
    EXPECT_FALSE(cmd.monitor.log);
}

TEST(MonitorCli, OptionsBeforeAndAfter)
{
    Command before = parse({"-j", "-d", "monitor"});
    EXPECT_TRUE(before.output.json);
    EXPECT_TRUE(before.output.details);
    Command after = parse({"monitor", "-j", "-t"});
    EXPECT_TRUE(after.output.json);
    EXPECT_TRUE(after.monitor.timestamps);
    Command both = parse({"-j", "mon", "--json", "--details", "--timestamp"});
    EXPECT_EQ(both.object, Object::Monitor);
    EXPECT_TRUE(both.output.json && both.output.details && both.monitor.timestamps);
}

TEST(MonitorCli, LogImpliesTimestamps)
{
    Command cmd = parse({"monitor", "-j", "--log", "/var/log/x.log"});
    ASSERT_TRUE(cmd.monitor.log);
    EXPECT_EQ(*cmd.monitor.log, "/var/log/x.log");
    EXPECT_TRUE(cmd.monitor.timestamps);
    EXPECT_EQ(parse({"monitor", "--log=f"}).monitor.log, "f");
}

TEST(MonitorCli, Help)
{
    for (auto args : std::vector<std::vector<std::string>>{
             {"monitor", "help"}, {"monitor", "-h"}, {"help", "monitor"}, {"monitor", "--help"}}) {
        Command cmd = parse(args);
        EXPECT_EQ(cmd.action, Action::Help) << case_name(0, args);
        EXPECT_EQ(cmd.object, Object::Monitor) << case_name(0, args);
    }
    EXPECT_NE(monitor_usage().find("--log FILE"), std::string::npos);
    EXPECT_NE(usage(Object::Monitor).find("module-unload"), std::string::npos);
}

TEST(MonitorCli, UsageErrors)
{
    EXPECT_NE(usage_error({"monitor", "extra"}).find("unexpected argument 'extra'"),
              std::string::npos);
    EXPECT_NE(usage_error({"monitor", "--log"}).find("--log"), std::string::npos);
    EXPECT_NE(usage_error({"monitor", "--log="}).find("--log"), std::string::npos);
    EXPECT_NE(usage_error({"monitor", "-c", "3"}).find("monitor:"), std::string::npos);
    EXPECT_NE(usage_error({"mo"}).find("ambiguous object 'mo'"), std::string::npos);
}

TEST(MonitorCli, MStillMeansModule)
{
    EXPECT_EQ(parse({"m"}).object, Object::Module);
    EXPECT_EQ(parse({"mod"}).object, Object::Module);
    EXPECT_EQ(parse({"moni"}).object, Object::Monitor);
}

// ---- Parsing notifications ----

MsgPtr listener_event(uint8_t cmd, std::optional<uint32_t> reason = std::nullopt)
{
    MsgPtr msg = transport_reply(false, {}, cmd);
    if (reason)
        nla_put_u32(msg.get(), XRPCRDMA_A_TRANSPORT_REASON, *reason);
    return msg;
}

const std::vector<int> queue_attrs = {
    XRPCRDMA_A_TRANSPORT_SQ_DEPTH,          XRPCRDMA_A_TRANSPORT_SQ_FREE,
    XRPCRDMA_A_TRANSPORT_RQ_DEPTH,          XRPCRDMA_A_TRANSPORT_SENDCTX_ALLOCATED,
    XRPCRDMA_A_TRANSPORT_SENDCTX_FREE,      XRPCRDMA_A_TRANSPORT_RECVCTX_ALLOCATED,
    XRPCRDMA_A_TRANSPORT_RECVCTX_BYTES,
};

// What the module sends: connect with the negotiated numbers, no queues
// nor counters.
MsgPtr connect_event()
{
    std::vector<int> omit = queue_attrs;
    omit.push_back(XRPCRDMA_A_TRANSPORT_STAT);
    return transport_reply(true, omit, XRPCRDMA_CMD_TRANSPORT_CONNECT_NTF);
}

// Disconnect: the peer, the reason and the counters.
MsgPtr disconnect_event(uint32_t reason = XRPCRDMA_CLOSE_REASON_PEER)
{
    std::vector<int> omit = queue_attrs;
    for (int type : {XRPCRDMA_A_TRANSPORT_CREDITS, XRPCRDMA_A_TRANSPORT_INLINE_SEND,
                     XRPCRDMA_A_TRANSPORT_INLINE_RECV, XRPCRDMA_A_TRANSPORT_PEER_INLINE_SEND,
                     XRPCRDMA_A_TRANSPORT_PEER_INLINE_RECV, XRPCRDMA_A_TRANSPORT_STATE})
        omit.push_back(type);
    MsgPtr msg = transport_reply(true, omit, XRPCRDMA_CMD_TRANSPORT_DISCONNECT_NTF);
    nla_put_u32(msg.get(), XRPCRDMA_A_TRANSPORT_STATE, XRPCRDMA_TRANSPORT_STATE_CLOSING);
    nla_put_u32(msg.get(), XRPCRDMA_A_TRANSPORT_REASON, reason);
    return msg;
}

// A client transport's connection: up with its numbers, or gone with a
// reason and the transport's counters.
MsgPtr client_connect_event()
{
    std::vector<int> omit = queue_attrs;
    omit.push_back(XRPCRDMA_A_TRANSPORT_STAT);
    return client_reply(true, omit, XRPCRDMA_CMD_TRANSPORT_CONNECT_NTF);
}

MsgPtr client_disconnect_event(uint32_t reason)
{
    std::vector<int> omit = queue_attrs;
    for (int type : {XRPCRDMA_A_TRANSPORT_CREDITS, XRPCRDMA_A_TRANSPORT_INLINE_SEND,
                     XRPCRDMA_A_TRANSPORT_INLINE_RECV, XRPCRDMA_A_TRANSPORT_PEER_INLINE_SEND,
                     XRPCRDMA_A_TRANSPORT_PEER_INLINE_RECV, XRPCRDMA_A_TRANSPORT_STATE})
        omit.push_back(type);
    MsgPtr msg = client_reply(true, omit, XRPCRDMA_CMD_TRANSPORT_DISCONNECT_NTF);
    nla_put_u32(msg.get(), XRPCRDMA_A_TRANSPORT_STATE, XRPCRDMA_TRANSPORT_STATE_CLOSING);
    nla_put_u32(msg.get(), XRPCRDMA_A_TRANSPORT_REASON, reason);
    return msg;
}

MsgPtr wc_event(bool with_id = true)
{
    MsgPtr msg = new_genl_msg(XRPCRDMA_CMD_COMPLETION_ERROR_NTF);
    nl_msg *m = msg.get();
    if (with_id)
        nla_put_u32(m, XRPCRDMA_A_WC_ERROR_TRANSPORT_ID, 3);
    nla_put_string(m, XRPCRDMA_A_WC_ERROR_DEVICE, "rxe0");
    nla_put_u32(m, XRPCRDMA_A_WC_ERROR_QP_NUM, 17);
    nla_put_u32(m, XRPCRDMA_A_WC_ERROR_KIND, XRPCRDMA_WC_KIND_SEND);
    nla_put_u32(m, XRPCRDMA_A_WC_ERROR_STATUS, 12);
    nla_put_string(m, XRPCRDMA_A_WC_ERROR_STATUS_MSG, "transport retry counter exceeded");
    nla_put_u32(m, XRPCRDMA_A_WC_ERROR_VENDOR_ERR, 0);
    nla_put_u32(m, XRPCRDMA_A_WC_ERROR_SUPPRESSED, 4);
    return msg;
}

MsgPtr device_event(uint8_t cmd)
{
    MsgPtr msg = device_reply();
    genlmsg_hdr(nlmsg_hdr(msg.get()))->cmd = cmd;
    return msg;
}

TEST(ParseEvent, DeviceAddAndDel)
{
    MsgPtr add = device_event(XRPCRDMA_CMD_DEVICE_ADD_NTF);
    Event e = parse_event(hdr(add));
    EXPECT_EQ(e.type, EventType::DeviceAdd);
    EXPECT_EQ(e.device.name, "rxe0");
    EXPECT_EQ(e.device.index, 3u);
    ASSERT_EQ(e.device.ports.size(), 1u);
    MsgPtr del = device_event(XRPCRDMA_CMD_DEVICE_DEL_NTF);
    EXPECT_EQ(parse_event(hdr(del)).type, EventType::DeviceDel);
}

TEST(ParseEvent, ListenerAdd)
{
    MsgPtr msg = listener_event(XRPCRDMA_CMD_LISTENER_ADD_NTF);
    Event e = parse_event(hdr(msg));
    EXPECT_EQ(e.type, EventType::ListenerAdd);
    EXPECT_EQ(e.transport.id, 1u);
    EXPECT_EQ(e.transport.cls, "xrdma");
    EXPECT_EQ(e.transport.local.addr, "0.0.0.0");
    EXPECT_EQ(e.transport.local.port, 20050);
    EXPECT_FALSE(e.transport.conn);
    EXPECT_FALSE(e.reason);
}

TEST(ParseEvent, ListenerDelHasReason)
{
    MsgPtr msg = listener_event(XRPCRDMA_CMD_LISTENER_DEL_NTF, XRPCRDMA_CLOSE_REASON_LOCAL);
    Event e = parse_event(hdr(msg));
    EXPECT_EQ(e.type, EventType::ListenerDel);
    EXPECT_EQ(e.reason, uint32_t(XRPCRDMA_CLOSE_REASON_LOCAL));

    MsgPtr no_reason = listener_event(XRPCRDMA_CMD_LISTENER_DEL_NTF);
    EXPECT_THROW(parse_event(hdr(no_reason)), ProtocolError);
}

TEST(ParseEvent, TransportConnect)
{
    MsgPtr msg = connect_event();
    Event e = parse_event(hdr(msg));
    EXPECT_EQ(e.type, EventType::TransportConnect);
    EXPECT_TRUE(e.negotiated);
    ASSERT_TRUE(e.transport.conn);
    EXPECT_EQ(e.transport.conn->peer.addr, "10.99.0.1");
    EXPECT_EQ(e.transport.conn->peer.port, 851);
    EXPECT_EQ(e.transport.conn->credits, 64u);
    EXPECT_EQ(e.transport.conn->peer_inline_recv, 2048u);
    EXPECT_TRUE(e.transport.conn->stats.empty());

    MsgPtr no_peer = transport_reply(
        true, {XRPCRDMA_A_TRANSPORT_PEER_ADDR4}, XRPCRDMA_CMD_TRANSPORT_CONNECT_NTF);
    EXPECT_THROW(parse_event(hdr(no_peer)), ProtocolError);
    MsgPtr no_credits = transport_reply(
        true, {XRPCRDMA_A_TRANSPORT_CREDITS}, XRPCRDMA_CMD_TRANSPORT_CONNECT_NTF);
    EXPECT_THROW(parse_event(hdr(no_credits)), ProtocolError);
}

TEST(ParseEvent, TransportDisconnect)
{
    MsgPtr msg = disconnect_event(XRPCRDMA_CLOSE_REASON_SEND_ERROR);
    Event e = parse_event(hdr(msg));
    EXPECT_EQ(e.type, EventType::TransportDisconnect);
    EXPECT_FALSE(e.negotiated);
    EXPECT_EQ(e.reason, uint32_t(XRPCRDMA_CLOSE_REASON_SEND_ERROR));
    EXPECT_EQ(e.transport.state, uint32_t(XRPCRDMA_TRANSPORT_STATE_CLOSING));
    ASSERT_TRUE(e.transport.conn);
    ASSERT_EQ(e.transport.conn->stats.size(), 2u);
    EXPECT_EQ(e.transport.conn->stats[0].name, "calls-received");
    EXPECT_EQ(e.transport.conn->stats[0].count, 12u);
}

TEST(ParseEvent, ClientConnectAndDisconnect)
{
    MsgPtr up = client_connect_event();
    Event e = parse_event(hdr(up));
    EXPECT_EQ(e.type, EventType::TransportConnect);
    EXPECT_EQ(e.transport.role, uint32_t(XRPCRDMA_TRANSPORT_ROLE_CLIENT));
    EXPECT_TRUE(e.transport.serv.empty());
    EXPECT_EQ(e.transport.local.port, 47000);
    ASSERT_TRUE(e.transport.conn);
    EXPECT_EQ(e.transport.conn->peer.port, 20049);
    EXPECT_EQ(e.transport.conn->credits, 32u);

    MsgPtr down = client_disconnect_event(XRPCRDMA_CLOSE_REASON_TIMEOUT);
    e = parse_event(hdr(down));
    EXPECT_EQ(e.type, EventType::TransportDisconnect);
    EXPECT_EQ(e.reason, uint32_t(XRPCRDMA_CLOSE_REASON_TIMEOUT));
    ASSERT_TRUE(e.transport.conn);
    ASSERT_EQ(e.transport.conn->stats.size(), 2u);
    EXPECT_EQ(e.transport.conn->stats[0].name, "rpcs-sent");

    MsgPtr no_server = client_reply(true, {XRPCRDMA_A_TRANSPORT_PEER_ADDR4},
                                    XRPCRDMA_CMD_TRANSPORT_CONNECT_NTF);
    EXPECT_THROW(parse_event(hdr(no_server)), ProtocolError);
}

TEST(ParseEvent, CompletionError)
{
    MsgPtr msg = wc_event();
    Event e = parse_event(hdr(msg));
    EXPECT_EQ(e.type, EventType::CompletionError);
    EXPECT_EQ(e.wc.transport_id, 3u);
    EXPECT_EQ(e.wc.device, "rxe0");
    EXPECT_EQ(e.wc.qp_num, 17u);
    EXPECT_EQ(e.wc.kind, uint32_t(XRPCRDMA_WC_KIND_SEND));
    EXPECT_EQ(e.wc.status, 12u);
    EXPECT_EQ(e.wc.status_msg, "transport retry counter exceeded");
    EXPECT_EQ(e.wc.suppressed, 4u);

    MsgPtr anonymous = wc_event(false);
    EXPECT_FALSE(parse_event(hdr(anonymous)).wc.transport_id);
}

TEST(ParseEvent, CompletionErrorMalformed)
{
    MsgPtr no_status = new_genl_msg(XRPCRDMA_CMD_COMPLETION_ERROR_NTF);
    nla_put_string(no_status.get(), XRPCRDMA_A_WC_ERROR_DEVICE, "rxe0");
    nla_put_u32(no_status.get(), XRPCRDMA_A_WC_ERROR_QP_NUM, 1);
    nla_put_u32(no_status.get(), XRPCRDMA_A_WC_ERROR_KIND, 0);
    EXPECT_THROW(parse_event(hdr(no_status)), ProtocolError);

    MsgPtr short_status = wc_event();
    uint8_t one = 1;
    put_raw(short_status.get(), XRPCRDMA_A_WC_ERROR_STATUS, &one, 1);
    EXPECT_THROW(parse_event(hdr(short_status)), ProtocolError);
}

TEST(ParseEvent, UnknownCommandIsNoError)
{
    MsgPtr msg = new_genl_msg(XRPCRDMA_CMD_MAX + 3);
    Event e = parse_event(hdr(msg));
    EXPECT_EQ(e.type, EventType::Unknown);
    EXPECT_EQ(e.cmd, uint32_t(XRPCRDMA_CMD_MAX + 3));
}

// ---- Formatting ----

Event parsed(const MsgPtr &msg)
{
    return parse_event(hdr(msg));
}

Event simple(EventType type)
{
    Event e;
    e.type = type;
    return e;
}

struct FormatCase {
    const char *name;
    std::function<Event()> make;
    std::string text;
    std::string json;
};

const std::vector<FormatCase> &format_cases()
{
    static const std::vector<FormatCase> cases = {
        {"device_add", [] { return parsed(device_event(XRPCRDMA_CMD_DEVICE_ADD_NTF)); },
         "device-add 3: rxe0: node_guid 5054:00ff:fe12:3456 state ACTIVE netdev veth0 usable yes "
         "enabled yes\n",
         R"({"event":"device-add","ifindex":3,"ifname":"rxe0","node_guid":"5054:00ff:fe12:3456",)"
         R"("ports":[{"port":1,"state":"ACTIVE","netdev":"veth0"}],"usable":true,"enabled":true})"},
        {"device_del", [] { return parsed(device_event(XRPCRDMA_CMD_DEVICE_DEL_NTF)); },
         "device-del 3: rxe0: node_guid 5054:00ff:fe12:3456 state ACTIVE netdev veth0 usable yes "
         "enabled yes\n",
         R"({"event":"device-del","ifindex":3,"ifname":"rxe0","node_guid":"5054:00ff:fe12:3456",)"
         R"("ports":[{"port":1,"state":"ACTIVE","netdev":"veth0"}],"usable":true,"enabled":true})"},
        {"listener_add", [] { return parsed(listener_event(XRPCRDMA_CMD_LISTENER_ADD_NTF)); },
         "listener-add 1: server-listener class xrdma serv nfsd state listening local "
         "0.0.0.0:20050\n",
         R"({"event":"listener-add","id":1,"role":"server-listener","class":"xrdma",)"
         R"("serv":"nfsd","state":"listening","local_addr":"0.0.0.0","local_port":20050})"},
        {"listener_del",
         [] {
             return parsed(
                 listener_event(XRPCRDMA_CMD_LISTENER_DEL_NTF, XRPCRDMA_CLOSE_REASON_LOCAL));
         },
         "listener-del 1: server-listener class xrdma serv nfsd state listening local "
         "0.0.0.0:20050 reason local\n",
         R"({"event":"listener-del","id":1,"role":"server-listener","class":"xrdma",)"
         R"("serv":"nfsd","state":"listening","local_addr":"0.0.0.0","local_port":20050,)"
         R"("reason":"local"})"},
        {"transport_connect", [] { return parsed(connect_event()); },
         "transport-connect 3: server-connection class xrdma serv nfsd state connected local "
         "10.99.0.1:20050 peer 10.99.0.1:851 credits 64 inline_send 4096 inline_recv 4096 "
         "peer_inline_send 1024 peer_inline_recv 2048\n",
         R"({"event":"transport-connect","id":3,"role":"server-connection","class":"xrdma",)"
         R"("serv":"nfsd","state":"connected","local_addr":"10.99.0.1","local_port":20050,)"
         R"("peer_addr":"10.99.0.1","peer_port":851,"credits":64,"inline_send":4096,)"
         R"("inline_recv":4096,"peer_inline_send":1024,"peer_inline_recv":2048})"},
        {"transport_disconnect", [] { return parsed(disconnect_event()); },
         "transport-disconnect 3: server-connection class xrdma serv nfsd state closing local "
         "10.99.0.1:20050 peer 10.99.0.1:851 reason peer\n",
         R"({"event":"transport-disconnect","id":3,"role":"server-connection","class":"xrdma",)"
         R"("serv":"nfsd","state":"closing","local_addr":"10.99.0.1","local_port":20050,)"
         R"("peer_addr":"10.99.0.1","peer_port":851,"reason":"peer",)"
         R"("stats":{"calls-received":12,"bad-headers":0}})"},
        {"client_connect", [] { return parsed(client_connect_event()); },
         "transport-connect 7: client class rdma state connected local 10.99.0.1:47000 peer "
         "10.99.0.1:20049 credits 32 inline_send 4096 inline_recv 4096 peer_inline_send 4096 "
         "peer_inline_recv 4096\n",
         R"({"event":"transport-connect","id":7,"role":"client","class":"rdma",)"
         R"("state":"connected","local_addr":"10.99.0.1","local_port":47000,)"
         R"("peer_addr":"10.99.0.1","peer_port":20049,"credits":32,"inline_send":4096,)"
         R"("inline_recv":4096,"peer_inline_send":4096,"peer_inline_recv":4096})"},
        {"client_disconnect",
         [] { return parsed(client_disconnect_event(XRPCRDMA_CLOSE_REASON_TIMEOUT)); },
         "transport-disconnect 7: client class rdma state closing local 10.99.0.1:47000 peer "
         "10.99.0.1:20049 reason timeout\n",
         R"({"event":"transport-disconnect","id":7,"role":"client","class":"rdma",)"
         R"("state":"closing","local_addr":"10.99.0.1","local_port":47000,)"
         R"("peer_addr":"10.99.0.1","peer_port":20049,"reason":"timeout",)"
         R"("stats":{"rpcs-sent":40,"read-chunk-calls":2}})"},
        {"completion_error", [] { return parsed(wc_event()); },
         "completion-error transport 3 device rxe0 qp 17 kind send status 12 (transport retry "
         "counter exceeded) vendor_err 0 suppressed 4\n",
         R"({"event":"completion-error","transport_id":3,"device":"rxe0","qp_num":17,)"
         R"("kind":"send","status":12,"status_msg":"transport retry counter exceeded",)"
         R"("vendor_err":0,"suppressed":4})"},
        {"completion_error_no_transport", [] { return parsed(wc_event(false)); },
         "completion-error device rxe0 qp 17 kind send status 12 (transport retry counter "
         "exceeded) vendor_err 0 suppressed 4\n",
         R"({"event":"completion-error","device":"rxe0","qp_num":17,"kind":"send","status":12,)"
         R"("status_msg":"transport retry counter exceeded","vendor_err":0,"suppressed":4})"},
        {"bench_progress", [] { return parsed(bench_progress_event(1400, 2)); },
         "bench-progress 3: count 2000 done 1400 errors 2\n",
         R"({"event":"bench-progress","id":3,"count":2000,"done":1400,"errors":2})"},
        {"bench_done",
         [] { return parsed(bench_reply(false, 0, {}, XRPCRDMA_CMD_BENCH_DONE_NTF)); },
         "bench-done 3: rpc-null tcp server 10.99.0.1:2049 program 100003 version 3 count "
         "2000 concurrency 16 finished done 2000 errors 0 status 0 elapsed 250ms ops/s 8000 "
         "latency p50 52.1us p99 120us p99.9 300us max 1.20ms\n",
         R"({"event":"bench-done","id":3,"op":"rpc-null","transport":"tcp",)"
         R"("addr":"10.99.0.1","port":2049,"program":100003,"version":3,"count":2000,)"
         R"("concurrency":16,"running":false,"done":2000,"errors":0,"status":0,"elapsed-ns":250000000,"ops-per-sec":8000,)"
         R"("lat-p50-ns":52100,"lat-p99-ns":120000,"lat-p999-ns":300000,)"
         R"("lat-max-ns":1200000})"},
        {"bench_stopped",
         [] {
             return parsed(bench_reply(false, -EPROTONOSUPPORT, {}, XRPCRDMA_CMD_BENCH_DONE_NTF));
         },
         "bench-done 3: rpc-null tcp server 10.99.0.1:2049 program 100003 version 3 count "
         "2000 concurrency 16 stopped done 2000 errors 2000 status EPROTONOSUPPORT elapsed "
         "250ms ops/s 0 latency p50 0ns p99 0ns p99.9 0ns max 0ns\n",
         R"({"event":"bench-done","id":3,"op":"rpc-null","transport":"tcp",)"
         R"("addr":"10.99.0.1","port":2049,"program":100003,"version":3,"count":2000,)"
         R"("concurrency":16,"running":false,"done":2000,"errors":2000,"status":"EPROTONOSUPPORT","elapsed-ns":250000000,)"
         R"("ops-per-sec":0,"lat-p50-ns":0,"lat-p99-ns":0,"lat-p999-ns":0,"lat-max-ns":0})"},
        {"bench_done_rdma",
         [] {
             return parsed(rdma_bench_reply(false, XRPCRDMA_BENCH_OP_RDMA_READ, {},
                                            XRPCRDMA_CMD_BENCH_DONE_NTF));
         },
         "bench-done 4: rdma-read local 10.99.0.1:41000 size 1MiB qps 4 count 10000 "
         "concurrency 16 finished done 10000 errors 0 status 0 elapsed 8.54s ops/s 1170 "
         "MiB/s 1170.3 latency p50 54.1ms p99 61.2ms p99.9 63.0ms max 70.5ms\n",
         R"({"event":"bench-done","id":4,"op":"rdma-read","addr":"10.99.0.1","port":41000,)"
         R"("size":1048576,"qps":4,"count":10000,"concurrency":16,"running":false,)"
         R"("done":10000,"errors":0,"status":0,"elapsed-ns":8544800000,"ops-per-sec":1170,)"
         R"("bytes-per-sec":1227133513,"lat-p50-ns":54100000,"lat-p99-ns":61200000,)"
         R"("lat-p999-ns":63000000,"lat-max-ns":70500000})"},
        {"module_unload", [] { return simple(EventType::ModuleUnload); }, "module-unload\n",
         R"({"event":"module-unload"})"},
        {"module_load", [] { return simple(EventType::ModuleLoad); }, "module-load\n",
         R"({"event":"module-load"})"},
        {"events_lost", [] { return simple(EventType::EventsLost); }, "events-lost\n",
         R"({"event":"events-lost"})"},
        {"unknown",
         [] {
             Event e = simple(EventType::Unknown);
             e.cmd = 42;
             return e;
         },
         "unknown cmd 42\n", R"({"event":"unknown","cmd":42})"},
        {"error",
         [] {
             Event e = simple(EventType::Error);
             e.message = "malformed event: x";
             return e;
         },
         "error malformed event: x\n", R"({"event":"error","message":"malformed event: x"})"},
    };
    return cases;
}

class Formats : public ::testing::TestWithParam<FormatCase> {};

TEST_P(Formats, TextAndJson)
{
    const FormatCase &c = GetParam();
    Event e = c.make();
    EXPECT_EQ(event_text(e, false), c.text);
    OutputOptions text_opts;
    EXPECT_EQ(event_line(e, text_opts), c.text);
    OutputOptions json_opts;
    json_opts.json = true;
    json_opts.pretty = true; // still one line
    EXPECT_EQ(event_line(e, json_opts), c.json + "\n");
    EXPECT_EQ(event_json(e).dump(), c.json);
}

INSTANTIATE_TEST_SUITE_P(Events, Formats, ::testing::ValuesIn(format_cases()),
                         [](const ::testing::TestParamInfo<FormatCase> &info) {
                             return std::string(info.param.name);
                         });

TEST(FormatEvent, EveryTypeHasAName)
{
    for (EventType t :
         {EventType::DeviceAdd, EventType::DeviceDel, EventType::ListenerAdd,
          EventType::ListenerDel, EventType::TransportConnect, EventType::TransportDisconnect,
          EventType::CompletionError, EventType::BenchProgress, EventType::BenchDone,
          EventType::ModuleUnload, EventType::ModuleLoad, EventType::EventsLost, EventType::Unknown,
          EventType::Error})
        EXPECT_FALSE(event_name(t).empty());
}

TEST(FormatEvent, DisconnectCountersWithDetails)
{
    Event e = parsed(disconnect_event());
    EXPECT_EQ(event_text(e, true),
              "transport-disconnect 3: server-connection class xrdma serv nfsd state closing "
              "local 10.99.0.1:20050 peer 10.99.0.1:851 reason peer stats: calls-received 12 "
              "bad-headers 0\n");
}

TEST(FormatEvent, TimeComesFirst)
{
    Event e = simple(EventType::ModuleLoad);
    e.time = "2026-11-22T03:40:00.123Z";
    EXPECT_EQ(event_text(e, false), "[2026-11-22T03:40:00.123Z] module-load\n");
    EXPECT_EQ(event_json(e).dump(),
              R"({"event":"module-load","time":"2026-11-22T03:40:00.123Z"})");
}

TEST(FormatEvent, SeveralPortsStayOnOneLine)
{
    MsgPtr msg = device_event(XRPCRDMA_CMD_DEVICE_ADD_NTF);
    put_port(msg.get(), 2, XRPCRDMA_PORT_STATE_DOWN);
    EXPECT_EQ(event_text(parsed(msg), false),
              "device-add 3: rxe0: node_guid 5054:00ff:fe12:3456 usable yes enabled yes "
              "port 1 state ACTIVE netdev veth0 port 2 state DOWN\n");
}

TEST(FormatEvent, ReasonsAndKindsByName)
{
    EXPECT_EQ(close_reason_name(XRPCRDMA_CLOSE_REASON_UNKNOWN), "unknown");
    EXPECT_EQ(close_reason_name(XRPCRDMA_CLOSE_REASON_DEVICE_REMOVAL), "device-removal");
    EXPECT_EQ(close_reason_name(XRPCRDMA_CLOSE_REASON_RECV_ERROR), "recv-error");
    EXPECT_EQ(close_reason_name(XRPCRDMA_CLOSE_REASON_CM_ERROR), "cm-error");
    EXPECT_EQ(close_reason_name(XRPCRDMA_CLOSE_REASON_TIMEOUT), "timeout");
    EXPECT_EQ(close_reason_name(XRPCRDMA_CLOSE_REASON_SEND_TIMEOUT), "send-timeout");
    EXPECT_EQ(close_reason_name(XRPCRDMA_CLOSE_REASON_QP_ERROR), "qp-error");
    EXPECT_EQ(close_reason_name(99), "99");
    EXPECT_EQ(wc_kind_name(XRPCRDMA_WC_KIND_RECV), "recv");
    EXPECT_EQ(wc_kind_name(XRPCRDMA_WC_KIND_RDMA_READ), "rdma-read");
    EXPECT_EQ(wc_kind_name(XRPCRDMA_WC_KIND_RDMA_WRITE), "rdma-write");
    EXPECT_EQ(wc_kind_name(7), "7");
}

// ---- The loop and the command ----

// Hands out scripted batches, then asks the loop to stop.
class FakeSource : public EventSource {
public:
    explicit FakeSource(std::deque<std::vector<Event>> batches) : batches_(std::move(batches)) {}

    std::vector<Event> wait(int timeout_ms) override
    {
        EXPECT_GT(timeout_ms, 0);
        waits++;
        if (batches_.empty()) {
            request_stop();
            return {};
        }
        std::vector<Event> batch = std::move(batches_.front());
        batches_.pop_front();
        return batch;
    }

    int waits = 0;

private:
    std::deque<std::vector<Event>> batches_;
};

TEST(MonitorLoop, EveryEventALineInOrder)
{
    FakeSource source({{parsed(listener_event(XRPCRDMA_CMD_LISTENER_ADD_NTF))},
                       {},
                       {simple(EventType::ModuleUnload), simple(EventType::ModuleLoad)}});
    std::vector<std::string> lines;
    OutputOptions opts;
    opts.json = true;
    monitor_loop(source, opts, false, [&](const std::string &line) {
        lines.push_back(line);
        return true;
    });
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(Json::parse(lines[0])["event"], "listener-add");
    EXPECT_EQ(lines[1], "{\"event\":\"module-unload\"}\n");
    EXPECT_EQ(lines[2], "{\"event\":\"module-load\"}\n");
    EXPECT_EQ(source.waits, 4);
}

TEST(MonitorLoop, Timestamps)
{
    FakeSource source({{simple(EventType::EventsLost)}});
    std::vector<std::string> lines;
    monitor_loop(source, OutputOptions{}, true, [&](const std::string &line) {
        lines.push_back(line);
        return true;
    });
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_TRUE(::testing::internal::RE::FullMatch(
        lines[0], "\\[20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9:]+\\.[0-9][0-9][0-9]Z\\] "
                  "events-lost\n"))
        << lines[0];
}

TEST(MonitorLoop, WriteFailureIsAnError)
{
    FakeSource source({{simple(EventType::ModuleLoad)}});
    EXPECT_THROW(monitor_loop(source, OutputOptions{}, false,
                              [](const std::string &) { return false; }),
                 Error);
}

// A write given up for a stop (SIGINT during a blocked write) ends the
// loop as the stop does, without an error.
TEST(MonitorLoop, WriteGivenUpForAStop)
{
    FakeSource source({{simple(EventType::ModuleLoad), simple(EventType::ModuleUnload)}});
    int writes = 0;
    EXPECT_NO_THROW(monitor_loop(source, OutputOptions{}, false, [&](const std::string &) {
        writes++;
        request_stop();
        return false;
    }));
    EXPECT_EQ(writes, 1);
    EXPECT_EQ(source.waits, 1);
    clear_stop_request();
}

// ---- Writing lines ----

// A pipe whose reader never reads; full() fills it to the last byte.
class MonitorPipe {
public:
    MonitorPipe() { EXPECT_EQ(pipe(fds_), 0); }
    ~MonitorPipe()
    {
        close(fds_[0]);
        close(fds_[1]);
    }
    int write_end() const { return fds_[1]; }

    void fill()
    {
        int flags = fcntl(fds_[1], F_GETFL);
        ASSERT_EQ(fcntl(fds_[1], F_SETFL, flags | O_NONBLOCK), 0);
        char block[4096] = {};
        size_t chunk = sizeof(block);
        while (chunk) {
            if (write(fds_[1], block, chunk) < 0)
                chunk /= 2; // EAGAIN: what is left is smaller
        }
        ASSERT_EQ(fcntl(fds_[1], F_SETFL, flags), 0);
    }

    std::string drain()
    {
        int flags = fcntl(fds_[0], F_GETFL);
        fcntl(fds_[0], F_SETFL, flags | O_NONBLOCK);
        std::string data;
        char buf[4096];
        ssize_t n;
        while ((n = read(fds_[0], buf, sizeof(buf))) > 0)
            data.append(buf, size_t(n));
        fcntl(fds_[0], F_SETFL, flags);
        return data;
    }

private:
    int fds_[2] = {-1, -1};
};

// A broken write_line would block for ever on a full pipe: SIGALRM ends
// the test binary instead. Never reached by one that works, whatever the
// speed of the machine.
class WriteGuard {
public:
    WriteGuard() { alarm(60); }
    ~WriteGuard() { alarm(0); }
};

TEST(WriteLine, WholeLine)
{
    MonitorPipe p;
    EXPECT_TRUE(write_line(p.write_end(), "module-load\n"));
    EXPECT_EQ(p.drain(), "module-load\n");
    StopSignals signals;
    EXPECT_TRUE(write_line(p.write_end(), "module-unload\n"));
    EXPECT_EQ(p.drain(), "module-unload\n");
}

// SIGINT while the line waits for a reader that does not read: the write
// is given up, not waited out.
TEST(WriteLine, SignalEndsABlockedWrite)
{
    MonitorPipe p;
    p.fill();
    StopSignals signals;
    // Blocked until write_line lets it in: it comes while the write waits.
    ASSERT_EQ(raise(SIGINT), 0);
    WriteGuard guard;
    EXPECT_FALSE(write_line(p.write_end(), "module-load\n"));
    EXPECT_TRUE(stop_requested());
    clear_stop_request();
}

// After a stop, a line is written when it fits, given up when it would
// wait.
TEST(WriteLine, AfterAStopNoWaiting)
{
    MonitorPipe p;
    StopSignals signals;
    request_stop();
    EXPECT_TRUE(write_line(p.write_end(), "module-load\n"));
    EXPECT_EQ(p.drain(), "module-load\n");
    p.fill();
    WriteGuard guard;
    EXPECT_FALSE(write_line(p.write_end(), "module-unload\n"));
    clear_stop_request();
}

// Whether SIGINT was blocked at each flush of the output.
class MaskAtFlush : public std::stringbuf {
public:
    std::vector<bool> blocked;

protected:
    int sync() override
    {
        sigset_t mask;
        sigprocmask(SIG_BLOCK, nullptr, &mask);
        blocked.push_back(sigismember(&mask, SIGINT));
        return 0;
    }
};

// The foreground writes with SIGINT and SIGTERM let in, so that a stop
// ends a write blocked on a pipe; they are blocked again for the rest.
TEST(RunMonitor, WritesWithTheStopSignalsLetIn)
{
    MaskAtFlush buf;
    std::ostream out(&buf);
    std::ostringstream err;
    int rc = run_monitor(MonitorOptions{}, OutputOptions{}, out, err, [] {
        return std::make_unique<FakeSource>(std::deque<std::vector<Event>>{
            {simple(EventType::ModuleUnload), simple(EventType::ModuleLoad)}});
    });
    EXPECT_EQ(rc, exit_ok);
    EXPECT_EQ(buf.str(), "module-unload\nmodule-load\n");
    EXPECT_EQ(buf.blocked, (std::vector<bool>{false, false}));
    EXPECT_EQ(stop_wait_mask(), nullptr);
}

// ---- Draining the socket ----

// A socket's reads as scripted: each step appends its events and returns
// its result, as nl_recvmsgs_report() with the monitor's callbacks does.
struct ScriptedRead {
    std::vector<Event> events;
    int rc;
};

std::vector<Event> drain(std::deque<ScriptedRead> reads)
{
    std::vector<Event> events;
    drain_events(
        [&] {
            if (reads.empty()) {
                ADD_FAILURE() << "read after the socket was drained";
                return -NLE_AGAIN;
            }
            ScriptedRead r = std::move(reads.front());
            reads.pop_front();
            events.insert(events.end(), r.events.begin(), r.events.end());
            return r.rc;
        },
        events);
    EXPECT_TRUE(reads.empty());
    return events;
}

std::vector<EventType> types(const std::vector<Event> &events)
{
    std::vector<EventType> out;
    for (const Event &e : events)
        out.push_back(e.type);
    return out;
}

TEST(DrainEvents, EverythingQueuedInOrder)
{
    Event a = parsed(listener_event(XRPCRDMA_CMD_LISTENER_ADD_NTF));
    Event b = parsed(disconnect_event());
    EXPECT_EQ(types(drain({{{a}, 1}, {{b}, 1}, {{}, -NLE_AGAIN}})),
              (std::vector<EventType>{EventType::ListenerAdd, EventType::TransportDisconnect}));
    EXPECT_EQ(types(drain({{{a, b}, 2}, {{}, 0}})),
              (std::vector<EventType>{EventType::ListenerAdd, EventType::TransportDisconnect}));
    EXPECT_TRUE(drain({{{}, -NLE_AGAIN}}).empty());
}

// ENOBUFS comes before the events still queued, which are older than the
// loss: events-lost follows them.
TEST(DrainEvents, LostAfterTheEventsStillQueued)
{
    Event a = parsed(listener_event(XRPCRDMA_CMD_LISTENER_ADD_NTF));
    Event b = parsed(disconnect_event());
    EXPECT_EQ(types(drain({{{}, -NLE_NOMEM}, {{a}, 1}, {{b}, 1}, {{}, -NLE_AGAIN}})),
              (std::vector<EventType>{EventType::ListenerAdd, EventType::TransportDisconnect,
                                      EventType::EventsLost}));
    EXPECT_EQ(types(drain({{{a}, 1}, {{}, -NLE_NOMEM}, {{b}, 1}, {{}, 0}})),
              (std::vector<EventType>{EventType::ListenerAdd, EventType::TransportDisconnect,
                                      EventType::EventsLost}));
    // Nothing left after the overrun, and two overruns in one drain: one
    // events-lost, at the end.
    EXPECT_EQ(types(drain({{{}, -NLE_NOMEM}, {{}, -NLE_AGAIN}})),
              (std::vector<EventType>{EventType::EventsLost}));
    EXPECT_EQ(types(drain({{{}, -NLE_NOMEM}, {{a}, 1}, {{}, -NLE_NOMEM}, {{b}, 1},
                           {{}, -NLE_AGAIN}})),
              (std::vector<EventType>{EventType::ListenerAdd, EventType::TransportDisconnect,
                                      EventType::EventsLost}));
}

TEST(DrainEvents, OtherErrorsThrow)
{
    std::vector<Event> events;
    EXPECT_THROW(drain_events([] { return -NLE_FAILURE; }, events), NetlinkError);
}

int run_monitor_cmd(std::vector<std::string> args, std::ostringstream &out,
                    std::ostringstream &err, const EventSourceFactory &make_source)
{
    Argv argv(std::move(args));
    return run(
        argv.argc(), argv.argv(), out, err,
        []() -> std::unique_ptr<Client> { throw std::logic_error("monitor needs no client"); },
        make_source);
}

TEST(RunMonitor, ForegroundUntilStopped)
{
    std::ostringstream out, err;
    int rc = run_monitor_cmd({"-j", "monitor"}, out, err, [] {
        return std::make_unique<FakeSource>(std::deque<std::vector<Event>>{
            {parsed(connect_event()), parsed(disconnect_event())}});
    });
    EXPECT_EQ(rc, exit_ok);
    EXPECT_EQ(err.str(), "");
    std::istringstream lines(out.str());
    std::string line;
    std::vector<std::string> events;
    while (std::getline(lines, line))
        events.push_back(Json::parse(line)["event"]);
    EXPECT_EQ(events, (std::vector<std::string>{"transport-connect", "transport-disconnect"}));
}

TEST(RunMonitor, BenchEvents)
{
    std::ostringstream out, err;
    int rc = run_monitor_cmd({"monitor"}, out, err, [] {
        return std::make_unique<FakeSource>(std::deque<std::vector<Event>>{
            {parsed(bench_progress_event(700)),
             parsed(bench_reply(false, 0, {}, XRPCRDMA_CMD_BENCH_DONE_NTF))}});
    });
    EXPECT_EQ(rc, exit_ok);
    std::istringstream lines(out.str());
    std::string line;
    std::vector<std::string> firsts;
    while (std::getline(lines, line))
        firsts.push_back(line.substr(0, line.find(':')));
    EXPECT_EQ(firsts, (std::vector<std::string>{"bench-progress 3", "bench-done 3"}));
}

TEST(RunMonitor, NoModuleIsExit1)
{
    std::ostringstream out, err;
    int rc = run_monitor_cmd({"monitor"}, out, err, []() -> std::unique_ptr<EventSource> {
        throw FamilyNotFound(XRPCRDMA_FAMILY_NAME);
    });
    EXPECT_EQ(rc, exit_error);
    EXPECT_NE(err.str().find("the xrpcrdma module is not loaded"), std::string::npos);
    EXPECT_EQ(out.str(), "");
}

TEST(RunMonitor, UnwritableLogIsExit1)
{
    std::ostringstream out, err;
    bool made = false;
    int rc = run_monitor_cmd({"monitor", "--log", "/nonexistent/dir/log"}, out, err, [&] {
        made = true;
        return std::make_unique<FakeSource>(std::deque<std::vector<Event>>{});
    });
    EXPECT_EQ(rc, exit_error);
    EXPECT_FALSE(made);
    EXPECT_NE(err.str().find("cannot open /nonexistent/dir/log"), std::string::npos);
}

// ---- The --log file ----

namespace fs = std::filesystem;

class LogFileTest : public ::testing::Test {
protected:
    fs::path dir;

    void SetUp() override
    {
        std::string tmpl = (fs::temp_directory_path() / "rdmactl-log-XXXXXX").string();
        ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
        dir = tmpl;
    }

    void TearDown() override { fs::remove_all(dir); }

    std::string read(const fs::path &file)
    {
        std::ifstream in(file);
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    }
};

// A rotation moves the file away; the reopen writes to a new one by the
// name, and the old file keeps what was written before.
TEST_F(LogFileTest, ReopenFollowsARotation)
{
    fs::path name = dir / "monitor.log";
    LogFile log(name.string());
    EXPECT_TRUE(log.write("first\n"));
    fs::rename(name, dir / "monitor.log.1");
    EXPECT_TRUE(log.write("second\n"));
    log.reopen();
    EXPECT_TRUE(log.write("third\n"));
    EXPECT_EQ(read(dir / "monitor.log.1"), "first\nsecond\n");
    EXPECT_EQ(read(name), "third\n");
    EXPECT_EQ(fs::status(name).permissions() & fs::perms::all,
              fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                  fs::perms::others_read);
}

// Appends to what is there, never truncates.
TEST_F(LogFileTest, Appends)
{
    fs::path name = dir / "monitor.log";
    std::ofstream(name) << "before\n";
    LogFile log(name.string());
    EXPECT_TRUE(log.write("after\n"));
    EXPECT_EQ(read(name), "before\nafter\n");
}

// When the name cannot be opened again, the file open so far stays.
TEST_F(LogFileTest, AFailedReopenKeepsTheOldFile)
{
    fs::path name = dir / "monitor.log";
    LogFile log(name.string());
    fs::rename(name, dir / "old.log");
    fs::create_directory(name); // O_WRONLY on a directory: EISDIR
    try {
        log.reopen();
        ADD_FAILURE() << "reopen did not throw";
    } catch (const Error &e) {
        EXPECT_NE(std::string(e.what()).find("cannot open " + name.string()), std::string::npos)
            << e.what();
    }
    EXPECT_TRUE(log.write("kept\n"));
    EXPECT_EQ(read(dir / "old.log"), "kept\n");
}

// The daemon leaves its directory: a relative name is kept absolute, so
// that a reopen finds the same file.
TEST_F(LogFileTest, ARelativeNameIsMadeAbsolute)
{
    fs::path cwd = fs::current_path();
    fs::current_path(dir);
    {
        LogFile log("rel.log");
        EXPECT_EQ(fs::path(log.name()), dir / "rel.log");
        fs::current_path("/");
        fs::rename(dir / "rel.log", dir / "rel.log.1");
        log.reopen();
        EXPECT_TRUE(log.write("x\n"));
    }
    fs::current_path(cwd);
    EXPECT_EQ(read(dir / "rel.log"), "x\n");
}

// A FIFO nobody reads would block the reopen, where a stop cannot end
// it: it is an error at once, and the old file stays.
TEST_F(LogFileTest, AReopenDoesNotWaitForAFifoReader)
{
    fs::path name = dir / "monitor.log";
    LogFile log(name.string());
    fs::rename(name, dir / "old.log");
    ASSERT_EQ(mkfifo(name.c_str(), 0644), 0);
    EXPECT_THROW(log.reopen(), Error);
    EXPECT_TRUE(log.write("kept\n"));
    EXPECT_EQ(read(dir / "old.log"), "kept\n");
}

// A relative name in a directory that is gone cannot be made absolute:
// an error, not a name that a later reopen takes from "/".
TEST_F(LogFileTest, AnUnresolvableRelativeNameThrows)
{
    fs::path cwd = fs::current_path();
    fs::path gone = dir / "gone";
    fs::create_directory(gone);
    fs::current_path(gone);
    fs::remove(gone);
    EXPECT_THROW(LogFile("x.log"), Error);
    fs::current_path(cwd);
}

TEST_F(LogFileTest, UnopenableThrows)
{
    EXPECT_THROW(LogFile((dir / "no" / "such.log").string()), Error);
}

TEST(RunMonitor, UsageErrorIsExit2)
{
    std::ostringstream out, err;
    int rc = run_monitor_cmd({"monitor", "now"}, out, err,
                             [] { return std::unique_ptr<EventSource>(); });
    EXPECT_EQ(rc, exit_usage);
}

TEST(RunMonitor, Help)
{
    std::ostringstream out, err;
    EXPECT_EQ(run_monitor_cmd({"monitor", "help"}, out, err,
                              [] { return std::unique_ptr<EventSource>(); }),
              exit_ok);
    EXPECT_EQ(out.str(), monitor_usage());
}

} // namespace
