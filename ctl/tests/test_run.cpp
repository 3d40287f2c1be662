// SPDX-License-Identifier: GPL-2.0
// The whole tool against a fake client: dispatch, output, messages on
// stderr and exit codes.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <sstream>

#include <nlohmann/json.hpp>
#include <sys/socket.h>

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
    uint32_t mode = XRPCRDMA_MODE_SIDEBYSIDE;
};

Transport listener(uint32_t id, int family, const char *addr, uint16_t port)
{
    Transport t;
    t.id = id;
    t.role = XRPCRDMA_TRANSPORT_ROLE_SERVER_LISTENER;
    t.state = XRPCRDMA_TRANSPORT_STATE_LISTENING;
    t.cls = "xrdma";
    t.serv = "nfsd";
    t.local = SockAddr{family, addr, port};
    return t;
}

Transport server_connection()
{
    Transport t = listener(3, AF_INET, "10.99.0.1", 20050);
    t.role = XRPCRDMA_TRANSPORT_ROLE_SERVER_CONNECTION;
    t.state = XRPCRDMA_TRANSPORT_STATE_CONNECTED;
    ConnectionInfo c{SockAddr{AF_INET, "10.99.0.1", 851}, 64, 4096, 4096, 4096, 4096, 64, 63, 64,
                     2, 1, 65, 33792, {{"calls-received", 12}, {"bad-headers", 0}}};
    t.conn = c;
    return t;
}

Bench finished_bench(uint32_t id)
{
    Bench b;
    b.id = id;
    b.transport = XRPCRDMA_BENCH_TRANSPORT_TCP;
    b.server = SockAddr{AF_INET, "10.99.0.1", 2049};
    b.program = 100003;
    b.version = 3;
    b.count = 2000;
    b.concurrency = 16;
    b.done = 2000;
    b.result = BenchResult{0, 250000000, 8000, 52100, 120000, 300000, 1200000};
    return b;
}

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
        return ModuleInfo{"0.1.0", "6.12.9", script_.mode, {{"device", 2}}};
    }
    std::vector<Transport> list_transports() override
    {
        call("transports");
        return {listener(1, AF_INET, "0.0.0.0", 20050), server_connection()};
    }
    Transport get_transport(uint32_t id) override
    {
        call("transport " + std::to_string(id));
        return server_connection();
    }
    std::vector<Transport> list_listeners() override
    {
        call("listeners");
        return {listener(1, AF_INET, "0.0.0.0", 20050), listener(2, AF_INET6, "::", 20050),
                listener(4, AF_INET, "0.0.0.0", 2050)};
    }
    void delete_listener(uint32_t id) override { call("del " + std::to_string(id)); }
    Stats get_stats() override
    {
        call("stats");
        return Stats{{{"calls-received", 40}, {"bad-headers", 1}}};
    }
    std::vector<Fault> list_faults() override
    {
        call("faults");
        Fault armed;
        armed.point = XRPCRDMA_FAULT_POINT_POST_SEND;
        armed.trigger = XRPCRDMA_FAULT_TRIGGER_NTH;
        armed.n = 2;
        armed.error = 5;
        armed.hits = 3;
        armed.fired = 1;
        Fault off;
        off.point = XRPCRDMA_FAULT_POINT_RECV_DROP;
        return {armed, off};
    }
    void set_fault(const Fault &f) override
    {
        call("fault " + fault_point_name(f.point) + " " + fault_trigger_name(f.trigger) +
             (f.n ? " " + std::to_string(*f.n) : "") +
             (f.error ? " errno " + std::to_string(*f.error) : ""));
    }
    Config get_config(std::optional<uint32_t> id) override
    {
        call(id ? "config " + std::to_string(*id) : "config");
        return Config{id, {{"credits", 64}, {"inline-send", 4096}}};
    }
    void set_config(std::optional<uint32_t> id, const std::vector<ConfigValue> &values) override
    {
        std::string what = "config-set";
        for (const ConfigValue &v : values)
            what += " " + v.name + "=" + std::to_string(v.value);
        if (id)
            what += " on " + std::to_string(*id);
        call(what);
    }
    void add_nfsd_listener(const std::string &cls, uint16_t port) override
    {
        call("add " + cls + " " + std::to_string(port));
    }
    uint32_t run_bench(const BenchRequest &req) override
    {
        call("bench-run " + req.server.addr + " " + std::to_string(req.server.port));
        return 5;
    }
    Bench get_bench(uint32_t id) override
    {
        call("bench " + std::to_string(id));
        return finished_bench(id);
    }
    std::vector<Bench> list_benches() override
    {
        call("benches");
        return {finished_bench(4), finished_bench(5)};
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

    // The tool with an output stream that fails every write.
    Result run_failing_output(std::vector<std::string> args)
    {
        Argv argv(std::move(args));
        std::ostringstream out, err;
        out.setstate(std::ios::badbit);
        int code = run(argv.argc(), argv.argv(), out, err, [this] {
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

TEST_F(Run, TransportShowText)
{
    Result r = run_tool({"transport"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "1: server-listener class xrdma serv nfsd state listening local 0.0.0.0:20050\n"
                     "3: server-connection class xrdma serv nfsd state connected local "
                     "10.99.0.1:20050 peer 10.99.0.1:851 credits 64 inline_send 4096 inline_recv "
                     "4096 peer_inline_send 4096 peer_inline_recv 4096\n");
    EXPECT_EQ(script.calls, std::vector<std::string>{"transports"});
}

TEST_F(Run, TransportShowIdJsonDetails)
{
    Result r = run_tool({"-j", "tr", "sh", "3"});
    EXPECT_EQ(r.code, 0);
    auto j = nlohmann::json::parse(r.out);
    ASSERT_TRUE(j.is_array());
    ASSERT_EQ(j.size(), 1u);
    EXPECT_EQ(j[0]["peer_addr"], "10.99.0.1");
    EXPECT_EQ(j[0]["stats"]["calls-received"], 12);
    EXPECT_EQ(script.calls, std::vector<std::string>{"transport 3"});
    r = run_tool({"-d", "xprt", "show", "3"});
    EXPECT_NE(r.out.find("\n    stats: calls-received 12 bad-headers 0\n"), std::string::npos)
        << r.out;
}

TEST_F(Run, FaultShowTextAndJson)
{
    Result r = run_tool({"fault"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "post-send: nth 2 errno EIO hits 3 fired 1\n"
                     "recv-drop: off hits 0 fired 0\n");
    r = run_tool({"-j", "fault", "show"});
    EXPECT_EQ(r.out, R"([{"point":"post-send","trigger":"nth","n":2,"errno":"EIO","hits":3,)"
                     R"("fired":1},{"point":"recv-drop","trigger":"off","hits":0,"fired":0}])"
                     "\n");
}

TEST_F(Run, FaultSetAndClear)
{
    Result r = run_tool({"fault", "set", "post-recv", "nth", "4", "errno", "ENOTCONN"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(script.calls, std::vector<std::string>{"fault post-recv nth 4 errno 107"});
    script.calls.clear();
    r = run_tool({"fault", "clear", "post-recv"});
    EXPECT_EQ(script.calls, std::vector<std::string>{"fault post-recv off"});
    script.calls.clear();
    r = run_tool({"fault", "clear"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(script.calls,
              (std::vector<std::string>{"faults", "fault post-send off", "fault recv-drop off"}));
}

TEST_F(Run, FaultSetUsageErrorMakesNoClient)
{
    Result r = run_tool({"fault", "set", "recv-drop", "nth", "1", "errno", "EIO"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(clients_made, 0);
}

TEST_F(Run, ListenerShow)
{
    Result r = run_tool({"listener"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "1: class xrdma serv nfsd state listening local 0.0.0.0:20050\n"
                     "2: class xrdma serv nfsd state listening local [::]:20050\n"
                     "4: class xrdma serv nfsd state listening local 0.0.0.0:2050\n");
    EXPECT_EQ(script.calls, std::vector<std::string>{"listeners"});
}

TEST_F(Run, ListenerAddDefaultPortFollowsTheMode)
{
    Result r = run_tool({"listener", "add"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(script.calls, (std::vector<std::string>{"module", "add xrdma 20050"}));

    script.calls.clear();
    script.mode = XRPCRDMA_MODE_DROPIN;
    r = run_tool({"l", "a", "*"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(script.calls, (std::vector<std::string>{"module", "add rdma 20049"}));
}

TEST_F(Run, ListenerAddPort)
{
    Result r = run_tool({"listener", "add", "[::]:2050"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(script.calls, (std::vector<std::string>{"module", "add xrdma 2050"}));
}

TEST_F(Run, ListenerAddUnknownMode)
{
    script.mode = 7;
    Result r = run_tool({"listener", "add"});
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err, "rdmactl: the module runs in a mode this rdmactl does not know (7)\n");
    EXPECT_EQ(script.calls, std::vector<std::string>{"module"});
}

TEST_F(Run, ListenerAddSpecificAddressRefusedWithoutAClient)
{
    Result r = run_tool({"listener", "add", "10.99.0.1:20050"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("nfsd listens on every address"), std::string::npos) << r.err;
    EXPECT_EQ(clients_made, 0);
}

TEST_F(Run, ListenerAddRefusedByNfsd)
{
    script.fail = [&] {
        if (script.calls.back().rfind("add ", 0) == 0)
            throw Error("cannot open /proc/fs/nfsd/portlist: Permission denied");
    };
    Result r = run_tool({"listener", "add"});
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err, "rdmactl: cannot open /proc/fs/nfsd/portlist: Permission denied\n");
}

TEST_F(Run, ListenerDelEveryAddressOnTheDefaultPort)
{
    Result r = run_tool({"listener", "del"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(script.calls, (std::vector<std::string>{"module", "listeners", "del 1", "del 2"}));
}

TEST_F(Run, ListenerDelOneAddress)
{
    Result r = run_tool({"listener", "del", "[::]:20050"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(script.calls, (std::vector<std::string>{"module", "listeners", "del 2"}));
    script.calls.clear();
    r = run_tool({"listener", "del", "*:2050"});
    EXPECT_EQ(script.calls, (std::vector<std::string>{"module", "listeners", "del 4"}));
}

TEST_F(Run, ListenerDelById)
{
    Result r = run_tool({"listener", "del", "id", "7"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(script.calls, std::vector<std::string>{"del 7"});
}

TEST_F(Run, ListenerDelNoMatch)
{
    Result r = run_tool({"listener", "del", "10.0.0.9"});
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err, "rdmactl: no xrdma listener on 10.0.0.9:20050\n");
    EXPECT_EQ(script.calls, (std::vector<std::string>{"module", "listeners"}));
}

TEST_F(Run, BenchShowAll)
{
    Result r = run_tool({"bench", "show"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "4: rpc-null tcp server 10.99.0.1:2049 program 100003 version 3 count "
                     "2000 concurrency 16 finished\n"
                     "    done 2000 errors 0 status 0 elapsed 250ms ops/s 8000\n"
                     "    latency p50 52.1us p99 120us p99.9 300us max 1.20ms\n"
                     "5: rpc-null tcp server 10.99.0.1:2049 program 100003 version 3 count "
                     "2000 concurrency 16 finished\n"
                     "    done 2000 errors 0 status 0 elapsed 250ms ops/s 8000\n"
                     "    latency p50 52.1us p99 120us p99.9 300us max 1.20ms\n");
    EXPECT_EQ(script.calls, std::vector<std::string>{"benches"});
}

TEST_F(Run, BenchShowJsonArrayAndObject)
{
    Result all = run_tool({"-j", "bench", "show"});
    EXPECT_EQ(all.code, 0);
    nlohmann::json list = nlohmann::json::parse(all.out);
    ASSERT_TRUE(list.is_array());
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[1]["id"], 5);
    EXPECT_EQ(list[1]["ops-per-sec"], 8000);

    Result one = run_tool({"bench", "show", "4", "-j"});
    EXPECT_EQ(one.code, 0);
    nlohmann::json obj = nlohmann::json::parse(one.out);
    ASSERT_TRUE(obj.is_object());
    EXPECT_EQ(obj["id"], 4);
    EXPECT_EQ(obj["status"], 0);
    EXPECT_EQ(script.calls, (std::vector<std::string>{"benches", "bench 4"}));
}

TEST_F(Run, BenchShowUnknownId)
{
    script.fail = [] { throw KernelError(ENOENT, "no benchmark with that id"); };
    Result r = run_tool({"bench", "show", "99"});
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err, "rdmactl: No such file or directory: no benchmark with that id\n");
}

TEST_F(Run, StatsShow)
{
    Result r = run_tool({"stats"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "server: calls-received 40 bad-headers 1\n");
    r = run_tool({"-j", "stats", "show"});
    EXPECT_EQ(r.out, R"({"server":{"calls-received":40,"bad-headers":1}})"
                     "\n");
    EXPECT_EQ(script.calls, (std::vector<std::string>{"stats", "stats"}));
}

TEST_F(Run, ConfigShow)
{
    Result r = run_tool({"config"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "credits 64\ninline-send 4096\n");
    r = run_tool({"-j", "config", "show", "transport", "3"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, R"({"transport-id":3,"credits":64,"inline-send":4096})"
                     "\n");
    r = run_tool({"config", "sh", "xprt", "3"});
    EXPECT_EQ(r.out, "transport 3\ncredits 64\ninline-send 4096\n");
    EXPECT_EQ(script.calls, (std::vector<std::string>{"config", "config 3", "config 3"}));
}

TEST_F(Run, ConfigSet)
{
    Result r = run_tool({"config", "set", "credits", "128", "inline-r", "8192"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "");
    r = run_tool({"config", "set", "sendctx-max", "16", "transport", "4"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(script.calls, (std::vector<std::string>{"config-set credits=128 inline-recv=8192",
                                                      "config-set sendctx-max=16 on 4"}));
}

TEST_F(Run, ConfigSetRefusedByTheKernel)
{
    script.fail = [] { throw KernelError(EINVAL, "inline-send: below the minimum 1024"); };
    Result r = run_tool({"config", "set", "inline-send", "1023"});
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err, "rdmactl: " + std::string(std::strerror(EINVAL)) +
                         ": inline-send: below the minimum 1024\n");
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
    Result r = run_failing_output({"dev"});
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err, "rdmactl: cannot write the output\n");
}

TEST_F(Run, WriteErrorOfHelpAndVersion)
{
    for (auto args : std::vector<std::vector<std::string>>{
             {"--help"}, {"dev", "help"}, {"-V"}, {"ping", "--help"}, {"__complete", "1", ""}}) {
        Result r = run_failing_output(args);
        EXPECT_EQ(r.code, 1) << args[0];
        EXPECT_EQ(r.err, "rdmactl: cannot write the output\n") << args[0];
    }
}

TEST_F(Run, FailureIsNotReportedTwice)
{
    script.fail = [] { throw Error("boom"); };
    Result r = run_failing_output({"dev"});
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err, "rdmactl: boom\n");
}

// ---- __complete, as the bash completion runs it ----

TEST_F(Run, CompleteDeviceNamesFromTheKernel)
{
    Result r = run_tool({"__complete", "2", "dev", "show", ""});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "rxe0\nrxe1\n");
    EXPECT_EQ(script.calls, std::vector<std::string>{"list"});
}

TEST_F(Run, CompleteListenerIds)
{
    Result r = run_tool({"__complete", "3", "listener", "del", "id", ""});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "1\n2\n4\n");
}

TEST_F(Run, CompleteBenchIdsAndKeywords)
{
    Result ids = run_tool({"__complete", "2", "bench", "show", ""});
    EXPECT_EQ(ids.code, 0);
    EXPECT_EQ(ids.out, "4\n5\n");
    Result keys = run_tool({"__complete", "3", "bench", "run", "10.0.0.1", "c"});
    EXPECT_EQ(keys.out, "count\nconcurrency\n");
}

TEST_F(Run, CompleteTransportIdsByPrefix)
{
    Result r = run_tool({"__complete", "3", "-j", "transport", "show", "3"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "3\n");
}

TEST_F(Run, CompleteWithoutTheModuleIsQuiet)
{
    factory_fail = [] { throw Error("the xrpcrdma module is not loaded"); };
    Result r = run_tool({"__complete", "2", "dev", "set", ""});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "");
}

TEST_F(Run, CompleteNeedsNoKernelForKeywords)
{
    Result r = run_tool({"__complete", "1", "listener", ""});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "show\nadd\ndel\nhelp\n");
    EXPECT_EQ(clients_made, 0);
}

TEST_F(Run, CompleteFaultPointsAndTunablesWithoutTheKernel)
{
    Result r = run_tool({"__complete", "2", "fault", "set", "recv"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "recv-drop\n");
    r = run_tool({"__complete", "2", "fault", "set", "rw"});
    EXPECT_EQ(r.out, "rw-ctx\n");
    r = run_tool({"__complete", "2", "fault", "set", "qp"});
    EXPECT_EQ(r.out, "qp-fatal\n");
    r = run_tool({"__complete", "2", "config", "set", "credits"});
    EXPECT_EQ(r.out, "credits\n");
    EXPECT_EQ(clients_made, 0);
}

TEST_F(Run, CompleteRejectsABadWordIndex)
{
    for (std::vector<std::string> args : {std::vector<std::string>{"__complete"},
                                          {"__complete", "x", "dev"},
                                          {"__complete", "1x", "dev"},
                                          {"__complete", "-1", "dev"},
                                          {"__complete", "3", "dev"}}) {
        Result r = run_tool(args);
        EXPECT_EQ(r.code, 2) << args.size();
        EXPECT_EQ(r.out, "");
    }
}

} // namespace
