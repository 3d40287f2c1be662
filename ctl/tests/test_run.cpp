// SPDX-License-Identifier: GPL-2.0
// The whole tool against a fake client: dispatch, output, messages on
// stderr and exit codes.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <sstream>

#include <linux/xrpcrdma.h>

#include "argv.hpp"
#include "commands.hpp"
#include "errors.hpp"

using namespace rdmactl;
using testing_helpers::Argv;

namespace {

// What the fake client saw and how it behaves; outlives the client.
struct Script {
    std::vector<std::string> calls;
    std::function<void()> fail; // called by each operation: may throw
    std::vector<std::string> warnings;
};

Device rxe0()
{
    return Device{0, "rxe0", 0x505400fffe123456ULL, {{1, 4, "veth0"}}, true, true};
}
Device rxe1()
{
    return Device{1, "rxe1", 0x1, {}, false, false};
}

class FakeClient : public Client {
public:
    explicit FakeClient(Script &script) : script_(script) {}

    std::vector<Device> list_devices() override
    {
        call("list");
        return {rxe0(), rxe1()};
    }
    Device get_device(const std::string &name) override
    {
        call("get " + name);
        return rxe0();
    }
    void set_device_enabled(const std::string &name, bool on) override
    {
        call("set " + name + (on ? " on" : " off"));
    }
    ModuleInfo get_module() override
    {
        call("module");
        return ModuleInfo{"0.1.0", "6.12.9", XRPCRDMA_MODE_SIDEBYSIDE, {{"device", 2}}};
    }
    std::vector<std::string> take_warnings() override { return std::move(script_.warnings); }

private:
    void call(const std::string &what)
    {
        script_.calls.push_back(what);
        if (script_.fail)
            script_.fail();
    }

    Script &script_;
};

struct Result {
    int code;
    std::string out;
    std::string err;
};

class Run : public ::testing::Test {
protected:
    Script script;
    int clients_made = 0;
    std::function<void()> factory_fail; // e.g. the family is missing

    Result run_tool(std::vector<std::string> args)
    {
        Argv argv(std::move(args));
        std::ostringstream out, err;
        int code = run(argv.argc(), argv.argv(), out, err, [this] {
            clients_made++;
            if (factory_fail)
                factory_fail();
            return std::unique_ptr<Client>(std::make_unique<FakeClient>(script));
        });
        return {code, out.str(), err.str()};
    }
};

TEST_F(Run, DevShowText)
{
    Result r = run_tool({"dev", "show"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "0: rxe0: node_guid 5054:00ff:fe12:3456 state ACTIVE netdev veth0 usable yes "
                     "enabled yes\n"
                     "1: rxe1: node_guid 0000:0000:0000:0001 usable no enabled no\n");
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(script.calls, std::vector<std::string>{"list"});
}

TEST_F(Run, DevShowNameJson)
{
    Result r = run_tool({"-j", "d", "sh", "rxe0"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, R"([{"ifindex":0,"ifname":"rxe0","node_guid":"5054:00ff:fe12:3456",)"
                     R"("ports":[{"port":1,"state":"ACTIVE","netdev":"veth0"}],)"
                     R"("usable":true,"enabled":true}])"
                     "\n");
    EXPECT_EQ(script.calls, std::vector<std::string>{"get rxe0"});
}

TEST_F(Run, DevSet)
{
    Result r = run_tool({"dev", "set", "rxe1", "enabled", "off"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(script.calls, std::vector<std::string>{"set rxe1 off"});
}

TEST_F(Run, ModuleShow)
{
    Result r = run_tool({"module", "show", "-j"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, R"({"version":"0.1.0","build_kernel":"6.12.9","mode":"sidebyside","live_objects":{"device":2}})"
                     "\n");
    r = run_tool({"mod"});
    EXPECT_EQ(r.out, "xrpcrdma version 0.1.0 kernel 6.12.9 mode sidebyside\nlive objects: device 2\n");
}

TEST_F(Run, KernelErrorWithMessage)
{
    script.fail = [] { throw KernelError(ENODEV, "no RDMA device rxe9"); };
    Result r = run_tool({"dev", "show", "rxe9"});
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "rdmactl: " + std::string(std::strerror(ENODEV)) + ": no RDMA device rxe9\n");
}

TEST_F(Run, KernelErrorWithoutMessage)
{
    script.fail = [] { throw KernelError(EPERM, ""); };
    Result r = run_tool({"dev", "set", "rxe0", "enabled", "on"});
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err, "rdmactl: " + std::string(std::strerror(EPERM)) + "\n");
}

TEST_F(Run, ModuleNotLoaded)
{
    factory_fail = [] { throw FamilyNotFound("xrpcrdma"); };
    Result r = run_tool({"dev"});
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err, "rdmactl: the xrpcrdma module is not loaded (generic netlink family "
                     "\"xrpcrdma\" not found)\n");
    EXPECT_EQ(r.out, "");
}

TEST_F(Run, MalformedReply)
{
    script.fail = [] { throw ProtocolError("device: missing attribute name"); };
    Result r = run_tool({"dev"});
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err, "rdmactl: malformed reply: device: missing attribute name\n");
    EXPECT_EQ(r.out, "");
}

TEST_F(Run, UnexpectedExceptionIsStillAnError)
{
    script.fail = [] { throw std::invalid_argument("invalid device name"); };
    Result r = run_tool({"module"});
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err, "rdmactl: invalid device name\n");
}

TEST_F(Run, WarningsGoToStderr)
{
    script.warnings = {"device already disabled"};
    Result r = run_tool({"dev", "set", "rxe0", "enabled", "off"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.err, "rdmactl: warning: device already disabled\n");
}

TEST_F(Run, UsageErrorExitsTwoWithoutAClient)
{
    Result r = run_tool({"dev", "frobnicate"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "rdmactl: unknown dev command 'frobnicate'\n"
                     "Try 'rdmactl help' for more information.\n");
    EXPECT_EQ(clients_made, 0);
}

TEST_F(Run, BadValueExitsTwo)
{
    Result r = run_tool({"dev", "set", "rxe0", "enabled", "maybe"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("invalid value 'maybe' for enabled"), std::string::npos);
    EXPECT_EQ(clients_made, 0);
}

TEST_F(Run, NoArgumentsIsAUsageError)
{
    Result r = run_tool({});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind("rdmactl: no object given\n", 0), 0u);
}

TEST_F(Run, HelpNeedsNoKernel)
{
    for (auto args : std::vector<std::vector<std::string>>{{"help"}, {"--help"}, {"-h"}}) {
        Result r = run_tool(args);
        EXPECT_EQ(r.code, 0);
        EXPECT_EQ(r.out.rfind("Usage: rdmactl [OPTIONS] OBJECT", 0), 0u) << r.out;
        EXPECT_EQ(r.err, "");
    }
    Result r = run_tool({"dev", "help"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out.rfind("Usage: rdmactl [OPTIONS] dev [show [NAME]]", 0), 0u) << r.out;
    EXPECT_EQ(clients_made, 0);
}

TEST_F(Run, Version)
{
    Result r = run_tool({"-V"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out.rfind("rdmactl ", 0), 0u);
    EXPECT_EQ(r.out.back(), '\n');
    EXPECT_EQ(clients_made, 0);
}

TEST_F(Run, WriteErrorIsReported)
{
    Argv argv({"dev"});
    std::ostringstream out, err;
    out.setstate(std::ios::badbit);
    int code = run(argv.argc(), argv.argv(), out, err, [this] {
        return std::unique_ptr<Client>(std::make_unique<FakeClient>(script));
    });
    EXPECT_EQ(code, 1);
    EXPECT_EQ(err.str(), "rdmactl: cannot write the output\n");
}

} // namespace
