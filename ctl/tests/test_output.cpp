// SPDX-License-Identifier: GPL-2.0
// Text and JSON output. Selftests read both: exact strings are pinned here.
#include <gtest/gtest.h>

#include <sstream>

#include <sys/socket.h>

#include <linux/xrpcrdma.h>

#include "output.hpp"

using namespace rdmactl;

namespace {

Port port(uint32_t number, uint32_t state, std::optional<std::string> netdev = std::nullopt)
{
    return Port{number, state, std::move(netdev)};
}

Device device(std::vector<Port> ports)
{
    Device dev;
    dev.index = 0;
    dev.name = "rxe0";
    dev.node_guid = 0x505400fffe123456ULL;
    dev.ports = std::move(ports);
    dev.usable = true;
    dev.enabled = true;
    return dev;
}

Device one_port()
{
    return device({port(1, XRPCRDMA_PORT_STATE_ACTIVE, "veth0")});
}

Device two_ports()
{
    return device(
        {port(1, XRPCRDMA_PORT_STATE_ACTIVE, "veth0"), port(2, XRPCRDMA_PORT_STATE_DOWN)});
}

ModuleInfo module()
{
    return ModuleInfo{"0.1.0", "6.1.0-31-amd64", XRPCRDMA_MODE_DROPIN,
                      {{"device", 1}, {"transport", 0}}};
}

std::string devices_out(const std::vector<Device> &devs, OutputOptions opts)
{
    std::ostringstream out;
    print_devices(out, devs, opts);
    return out.str();
}

std::string module_out(const ModuleInfo &info, OutputOptions opts)
{
    std::ostringstream out;
    print_module(out, info, opts);
    return out.str();
}

constexpr OutputOptions text{false, false, false};
constexpr OutputOptions details{false, false, true};
constexpr OutputOptions json{true, false, false};
constexpr OutputOptions pretty{true, true, false};

TEST(Guid, FourGroupsOfFourHexDigits)
{
    EXPECT_EQ(format_guid(0x505400fffe123456ULL), "5054:00ff:fe12:3456");
    EXPECT_EQ(format_guid(0), "0000:0000:0000:0000");
    EXPECT_EQ(format_guid(~0ULL), "ffff:ffff:ffff:ffff");
    EXPECT_EQ(format_guid(0x0001000200030004ULL), "0001:0002:0003:0004");
}

TEST(PortState, Names)
{
    EXPECT_EQ(port_state_name(XRPCRDMA_PORT_STATE_NOP), "NOP");
    EXPECT_EQ(port_state_name(XRPCRDMA_PORT_STATE_DOWN), "DOWN");
    EXPECT_EQ(port_state_name(XRPCRDMA_PORT_STATE_INIT), "INIT");
    EXPECT_EQ(port_state_name(XRPCRDMA_PORT_STATE_ARMED), "ARMED");
    EXPECT_EQ(port_state_name(XRPCRDMA_PORT_STATE_ACTIVE), "ACTIVE");
    EXPECT_EQ(port_state_name(XRPCRDMA_PORT_STATE_ACTIVE_DEFER), "ACTIVE_DEFER");
    EXPECT_EQ(port_state_name(6), "6");
    EXPECT_EQ(port_state_name(4000000000u), "4000000000");
}

TEST(DeviceText, OnePortInline)
{
    EXPECT_EQ(devices_out({one_port()}, text),
              "0: rxe0: node_guid 5054:00ff:fe12:3456 state ACTIVE netdev veth0 usable yes "
              "enabled yes\n");
}

TEST(DeviceText, OnePortWithoutNetdev)
{
    Device dev = device({port(1, XRPCRDMA_PORT_STATE_INIT)});
    dev.usable = false;
    EXPECT_EQ(device_text(dev, false),
              "0: rxe0: node_guid 5054:00ff:fe12:3456 state INIT usable no enabled yes\n");
}

TEST(DeviceText, NoPorts)
{
    Device dev = device({});
    dev.index = 7;
    dev.name = "mlx5_0";
    dev.usable = false;
    dev.enabled = false;
    EXPECT_EQ(device_text(dev, false),
              "7: mlx5_0: node_guid 5054:00ff:fe12:3456 usable no enabled no\n");
    EXPECT_EQ(device_text(dev, true), device_text(dev, false));
}

TEST(DeviceText, TwoPortsOnLinesOfTheirOwn)
{
    EXPECT_EQ(device_text(two_ports(), false),
              "0: rxe0: node_guid 5054:00ff:fe12:3456 usable yes enabled yes\n"
              "    port 1 state ACTIVE netdev veth0\n"
              "    port 2 state DOWN\n");
}

TEST(DeviceText, DetailsPutEvenOnePortOnItsLine)
{
    EXPECT_EQ(devices_out({one_port()}, details),
              "0: rxe0: node_guid 5054:00ff:fe12:3456 usable yes enabled yes\n"
              "    port 1 state ACTIVE netdev veth0\n");
}

TEST(DeviceText, UnknownStateAsNumber)
{
    EXPECT_EQ(device_text(device({port(1, 9)}), false),
              "0: rxe0: node_guid 5054:00ff:fe12:3456 state 9 usable yes enabled yes\n");
}

TEST(DeviceText, SeveralDevicesOnePerLine)
{
    Device second = device({});
    second.index = 1;
    second.name = "rxe1";
    EXPECT_EQ(devices_out({one_port(), second}, text),
              device_text(one_port(), false) + device_text(second, false));
    EXPECT_EQ(devices_out({}, text), "");
}

TEST(DeviceJson, OnePort)
{
    EXPECT_EQ(devices_out({one_port()}, json),
              R"([{"ifindex":0,"ifname":"rxe0","node_guid":"5054:00ff:fe12:3456",)"
              R"("ports":[{"port":1,"state":"ACTIVE","netdev":"veth0"}],)"
              R"("usable":true,"enabled":true}])"
              "\n");
}

TEST(DeviceJson, NoPortsIsAnEmptyArray)
{
    Device dev = device({});
    dev.usable = false;
    EXPECT_EQ(device_json(dev).dump(),
              R"({"ifindex":0,"ifname":"rxe0","node_guid":"5054:00ff:fe12:3456",)"
              R"("ports":[],"usable":false,"enabled":true})");
}

TEST(DeviceJson, TwoPortsNetdevOmittedWhenAbsent)
{
    auto j = device_json(two_ports());
    ASSERT_EQ(j["ports"].size(), 2u);
    EXPECT_EQ(j["ports"][1].dump(), R"({"port":2,"state":"DOWN"})");
    EXPECT_FALSE(j["ports"][1].contains("netdev"));
}

TEST(DeviceJson, UnknownStateIsStillAString)
{
    auto j = device_json(device({port(1, 9)}));
    EXPECT_EQ(j["ports"][0]["state"], "9");
}

TEST(DeviceJson, ListIsAlwaysAnArray)
{
    EXPECT_EQ(devices_out({}, json), "[]\n");
    auto parsed = nlohmann::json::parse(devices_out({one_port(), two_ports()}, json));
    ASSERT_TRUE(parsed.is_array());
    EXPECT_EQ(parsed.size(), 2u);
}

TEST(DeviceJson, PrettyIsIndentedAndEqual)
{
    std::string p = devices_out({two_ports()}, pretty);
    EXPECT_NE(p.find("\n    {\n        \"ifindex\": 0,"), std::string::npos) << p;
    EXPECT_EQ(nlohmann::json::parse(p), nlohmann::json::parse(devices_out({two_ports()}, json)));
}

TEST(DeviceJson, PrettyWithoutJsonIsText)
{
    EXPECT_EQ(devices_out({one_port()}, OutputOptions{false, true, false}),
              device_text(one_port(), false));
}

TEST(DeviceJson, InvalidUtf8DoesNotThrow)
{
    Device dev = one_port();
    dev.name = "bad\xff";
    std::string out;
    EXPECT_NO_THROW(out = devices_out({dev}, json));
    EXPECT_NE(out.find("bad\xef\xbf\xbd"), std::string::npos); // U+FFFD
}

TEST(ModuleText, CountersOnOneLine)
{
    EXPECT_EQ(module_out(module(), text), "xrpcrdma version 0.1.0 kernel 6.1.0-31-amd64 mode dropin\n"
                                          "live objects: device 1 transport 0\n");
}

TEST(ModuleText, DetailsOneCounterPerLine)
{
    EXPECT_EQ(module_out(module(), details), "xrpcrdma version 0.1.0 kernel 6.1.0-31-amd64 mode dropin\n"
                                             "live objects:\n"
                                             "    device 1\n"
                                             "    transport 0\n");
}

TEST(ModuleText, NoCounters)
{
    ModuleInfo info = module();
    info.live_objects.clear();
    EXPECT_EQ(module_text(info, false), "xrpcrdma version 0.1.0 kernel 6.1.0-31-amd64 mode dropin\n"
                                        "live objects: none\n");
    EXPECT_EQ(module_text(info, true), module_text(info, false));
}

TEST(ModuleJson, Shape)
{
    EXPECT_EQ(module_out(module(), json), R"({"version":"0.1.0","build_kernel":"6.1.0-31-amd64","mode":"dropin",)"
                                          R"("live_objects":{"device":1,"transport":0}})"
                                          "\n");
}

TEST(ModuleJson, NoCountersIsAnEmptyObject)
{
    ModuleInfo info = module();
    info.live_objects.clear();
    EXPECT_EQ(module_json(info)["live_objects"].dump(), "{}");
}

TEST(ModuleJson, LargeCount)
{
    ModuleInfo info = module();
    info.live_objects = {{"device", ~0ULL}};
    EXPECT_EQ(module_json(info)["live_objects"].dump(), R"({"device":18446744073709551615})");
}

Transport listener4()
{
    Transport t;
    t.id = 1;
    t.role = XRPCRDMA_TRANSPORT_ROLE_SERVER_LISTENER;
    t.state = XRPCRDMA_TRANSPORT_STATE_LISTENING;
    t.cls = "xrdma";
    t.serv = "nfsd";
    t.local = SockAddr{AF_INET, "0.0.0.0", 20050};
    return t;
}

Transport listener6()
{
    Transport t = listener4();
    t.id = 2;
    t.local = SockAddr{AF_INET6, "::", 20050};
    return t;
}

Transport connection()
{
    Transport t = listener4();
    t.id = 3;
    t.role = XRPCRDMA_TRANSPORT_ROLE_SERVER_CONNECTION;
    t.state = XRPCRDMA_TRANSPORT_STATE_CONNECTED;
    t.local = SockAddr{AF_INET, "10.99.0.1", 20050};
    t.conn = ConnectionInfo{SockAddr{AF_INET, "10.99.0.1", 851},
                            64,
                            4096,
                            4096,
                            1024,
                            2048,
                            64,
                            62,
                            65,
                            3,
                            1,
                            66,
                            304128,
                            {{"calls-received", 12}, {"bad-headers", 0}}};
    return t;
}

std::string transports_out(const std::vector<Transport> &list, OutputOptions opts)
{
    std::ostringstream out;
    print_transports(out, list, opts);
    return out.str();
}

std::string listeners_out(const std::vector<Transport> &list, OutputOptions opts)
{
    std::ostringstream out;
    print_listeners(out, list, opts);
    return out.str();
}

std::string stats_out(const Stats &stats, OutputOptions opts)
{
    std::ostringstream out;
    print_stats(out, stats, opts);
    return out.str();
}

TEST(TransportNames, RolesStatesAndEnds)
{
    EXPECT_EQ(transport_role_name(XRPCRDMA_TRANSPORT_ROLE_SERVER_LISTENER), "server-listener");
    EXPECT_EQ(transport_role_name(XRPCRDMA_TRANSPORT_ROLE_SERVER_CONNECTION),
              "server-connection");
    EXPECT_EQ(transport_role_name(XRPCRDMA_TRANSPORT_ROLE_CLIENT), "client");
    EXPECT_EQ(transport_role_name(9), "9");
    EXPECT_EQ(transport_state_name(XRPCRDMA_TRANSPORT_STATE_LISTENING), "listening");
    EXPECT_EQ(transport_state_name(XRPCRDMA_TRANSPORT_STATE_CONNECTED), "connected");
    EXPECT_EQ(transport_state_name(XRPCRDMA_TRANSPORT_STATE_CLOSING), "closing");
    EXPECT_EQ(transport_state_name(XRPCRDMA_TRANSPORT_STATE_CONNECTING), "connecting");
    EXPECT_EQ(transport_state_name(XRPCRDMA_TRANSPORT_STATE_DISCONNECTED), "disconnected");
    EXPECT_EQ(transport_state_name(5), "5");
    EXPECT_EQ(format_sockaddr(SockAddr{AF_INET, "10.0.0.1", 7}), "10.0.0.1:7");
    EXPECT_EQ(format_sockaddr(SockAddr{AF_INET6, "fe80::1", 20049}), "[fe80::1]:20049");
}

TEST(TransportText, ListenerAndConnection)
{
    EXPECT_EQ(transports_out({listener4(), listener6(), connection()}, text),
              "1: server-listener class xrdma serv nfsd state listening local 0.0.0.0:20050\n"
              "2: server-listener class xrdma serv nfsd state listening local [::]:20050\n"
              "3: server-connection class xrdma serv nfsd state connected local "
              "10.99.0.1:20050 peer 10.99.0.1:851 credits 64 inline_send 4096 inline_recv 4096 "
              "peer_inline_send 1024 peer_inline_recv 2048\n");
    EXPECT_EQ(transports_out({}, text), "");
}

TEST(TransportText, DetailsAddQueuesAndCounters)
{
    EXPECT_EQ(transport_text(connection(), true),
              "3: server-connection class xrdma serv nfsd state connected local "
              "10.99.0.1:20050 peer 10.99.0.1:851 credits 64 inline_send 4096 inline_recv 4096 "
              "peer_inline_send 1024 peer_inline_recv 2048 sq_depth 64 sq_free 62 rq_depth 65 "
              "sendctx_allocated 3 sendctx_free 1 recvctx_allocated 66 recvctx_bytes 304128\n"
              "    stats: calls-received 12 bad-headers 0\n");
    // A listener has nothing more to show.
    EXPECT_EQ(transport_text(listener4(), true), transport_text(listener4(), false));
}

TEST(TransportJson, Connection)
{
    EXPECT_EQ(transports_out({connection()}, json),
              R"([{"id":3,"role":"server-connection","class":"xrdma","serv":"nfsd",)"
              R"("state":"connected","local_addr":"10.99.0.1","local_port":20050,)"
              R"("peer_addr":"10.99.0.1","peer_port":851,"credits":64,"inline_send":4096,)"
              R"("inline_recv":4096,"peer_inline_send":1024,"peer_inline_recv":2048,)"
              R"("sq_depth":64,"sq_free":62,"rq_depth":65,"sendctx_allocated":3,)"
              R"("sendctx_free":1,"recvctx_allocated":66,"recvctx_bytes":304128,)"
              R"("stats":{"calls-received":12,"bad-headers":0}}])"
              "\n");
}

TEST(TransportJson, ListenerHasNoConnectionKeys)
{
    EXPECT_EQ(transport_json(listener6()).dump(),
              R"({"id":2,"role":"server-listener","class":"xrdma","serv":"nfsd",)"
              R"("state":"listening","local_addr":"::","local_port":20050})");
    EXPECT_EQ(transports_out({}, json), "[]\n");
}

TEST(TransportJson, UnknownEnumsAreStrings)
{
    Transport t = listener4();
    t.role = 9;
    t.state = 8;
    auto j = transport_json(t);
    EXPECT_EQ(j["role"], "9");
    EXPECT_EQ(j["state"], "8");
}

// A client transport (drop-in mode), connected or still connecting.
Transport client(bool connected)
{
    Transport t;
    t.id = 7;
    t.role = XRPCRDMA_TRANSPORT_ROLE_CLIENT;
    t.state = connected ? XRPCRDMA_TRANSPORT_STATE_CONNECTED : XRPCRDMA_TRANSPORT_STATE_CONNECTING;
    t.cls = "rdma";
    ConnectionInfo c;
    c.peer = SockAddr{AF_INET, "10.99.0.1", 20049};
    c.stats = {{"rpcs-sent", 40}, {"write-chunk-calls", 3}};
    if (connected) {
        t.local = SockAddr{AF_INET, "10.99.0.1", 47000};
        c.credits = 32;
        c.inline_send = c.inline_recv = c.peer_inline_send = c.peer_inline_recv = 4096;
        c.sq_depth = 544;
        c.sq_free = 540;
        c.rq_depth = 32;
        c.sendctx_allocated = 2;
        c.sendctx_free = 2;
        c.recvctx_allocated = 32;
        c.recvctx_bytes = 147456;
    } else {
        c.numbers = false;
    }
    t.conn = c;
    return t;
}

TEST(TransportText, BothRolesWithARoleColumn)
{
    EXPECT_EQ(transports_out({listener4(), client(true), client(false)}, text),
              "1: server-listener class xrdma serv nfsd state listening local 0.0.0.0:20050\n"
              "7: client class rdma state connected local 10.99.0.1:47000 peer 10.99.0.1:20049 "
              "credits 32 inline_send 4096 inline_recv 4096 peer_inline_send 4096 "
              "peer_inline_recv 4096\n"
              "7: client class rdma state connecting peer 10.99.0.1:20049\n");
}

TEST(TransportText, ClientCountersWithDetails)
{
    EXPECT_EQ(transport_text(client(true), true),
              "7: client class rdma state connected local 10.99.0.1:47000 peer 10.99.0.1:20049 "
              "credits 32 inline_send 4096 inline_recv 4096 peer_inline_send 4096 "
              "peer_inline_recv 4096 sq_depth 544 sq_free 540 rq_depth 32 sendctx_allocated 2 "
              "sendctx_free 2 recvctx_allocated 32 recvctx_bytes 147456\n"
              "    stats: rpcs-sent 40 write-chunk-calls 3\n");
    // Without a connection: its server and its counters only.
    EXPECT_EQ(transport_text(client(false), true),
              "7: client class rdma state connecting peer 10.99.0.1:20049\n"
              "    stats: rpcs-sent 40 write-chunk-calls 3\n");
}

TEST(TransportJson, Client)
{
    EXPECT_EQ(transport_json(client(true)).dump(),
              R"({"id":7,"role":"client","class":"rdma","state":"connected",)"
              R"("local_addr":"10.99.0.1","local_port":47000,"peer_addr":"10.99.0.1",)"
              R"("peer_port":20049,"credits":32,"inline_send":4096,"inline_recv":4096,)"
              R"("peer_inline_send":4096,"peer_inline_recv":4096,"sq_depth":544,"sq_free":540,)"
              R"("rq_depth":32,"sendctx_allocated":2,"sendctx_free":2,"recvctx_allocated":32,)"
              R"("recvctx_bytes":147456,)"
              R"("stats":{"rpcs-sent":40,"write-chunk-calls":3}})");
    EXPECT_EQ(transport_json(client(false)).dump(),
              R"({"id":7,"role":"client","class":"rdma","state":"connecting",)"
              R"("peer_addr":"10.99.0.1","peer_port":20049,)"
              R"("stats":{"rpcs-sent":40,"write-chunk-calls":3}})");
    Transport t = client(false);
    t.state = XRPCRDMA_TRANSPORT_STATE_DISCONNECTED;
    EXPECT_EQ(transport_json(t)["state"], "disconnected");
}

TEST(ListenerOutput, NoRole)
{
    EXPECT_EQ(listeners_out({listener4(), listener6()}, text),
              "1: class xrdma serv nfsd state listening local 0.0.0.0:20050\n"
              "2: class xrdma serv nfsd state listening local [::]:20050\n");
    EXPECT_EQ(listeners_out({listener4()}, details), listeners_out({listener4()}, text));
    EXPECT_EQ(listeners_out({listener4()}, json),
              R"([{"id":1,"class":"xrdma","serv":"nfsd","state":"listening",)"
              R"("local_addr":"0.0.0.0","local_port":20050}])"
              "\n");
    EXPECT_EQ(listeners_out({}, json), "[]\n");
}

TEST(StatsOutput, TextJsonAndDetails)
{
    Stats stats{{{"calls-received", 40}, {"bad-headers", 1}}};
    EXPECT_EQ(stats_out(stats, text), "server: calls-received 40 bad-headers 1\n");
    EXPECT_EQ(stats_out(stats, details), "server:\n"
                                         "    calls-received 40\n"
                                         "    bad-headers 1\n");
    EXPECT_EQ(stats_out(stats, json), R"({"server":{"calls-received":40,"bad-headers":1}})"
                                      "\n");
    EXPECT_EQ(stats_text(Stats{}, false), "server: none\n");
    EXPECT_EQ(stats_json(Stats{}).dump(), R"({"server":{}})");
}

} // namespace
