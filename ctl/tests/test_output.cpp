// SPDX-License-Identifier: GPL-2.0
// Text and JSON output. Selftests read both: exact strings are pinned here.
#include <gtest/gtest.h>

#include <sstream>

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

} // namespace
