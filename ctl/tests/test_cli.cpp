// SPDX-License-Identifier: GPL-2.0
// Command-line parsing: every command, abbreviations, option placement and
// the usage errors.
#include <gtest/gtest.h>

#include <sys/socket.h>

#include "argv.hpp"
#include "cli.hpp"
#include "errors.hpp"

using namespace rdmactl;
using testing_helpers::Argv;
using testing_helpers::case_name;
using testing_helpers::Refusal;
using testing_helpers::UsageErrors;
using testing_helpers::parse;
using testing_helpers::usage_error;

namespace {

struct ParsedCommand {
    std::vector<std::string> args;
    Object object;
    Verb verb;
    std::optional<std::string> name;
    std::optional<bool> enabled;
};

void PrintTo(const ParsedCommand &e, std::ostream *os)
{
    *os << case_name(0, e.args);
}

class Parses : public ::testing::TestWithParam<ParsedCommand> {};

TEST_P(Parses, ObjectVerbAndArguments)
{
    const ParsedCommand &e = GetParam();
    Command cmd = parse(e.args);
    EXPECT_EQ(cmd.action, Action::Run);
    EXPECT_EQ(cmd.object, e.object);
    EXPECT_EQ(cmd.verb, e.verb);
    EXPECT_EQ(cmd.dev_name, e.name);
    EXPECT_EQ(cmd.enabled, e.enabled);
}

INSTANTIATE_TEST_SUITE_P(
    Commands, Parses,
    ::testing::Values(
        ParsedCommand{{"dev"}, Object::Dev, Verb::Show, std::nullopt, std::nullopt},
        ParsedCommand{{"dev", "show"}, Object::Dev, Verb::Show, std::nullopt, std::nullopt},
        ParsedCommand{{"device", "show"}, Object::Dev, Verb::Show, std::nullopt, std::nullopt},
        ParsedCommand{{"dev", "show", "rxe0"}, Object::Dev, Verb::Show, "rxe0", std::nullopt},
        ParsedCommand{{"d", "sh"}, Object::Dev, Verb::Show, std::nullopt, std::nullopt},
        ParsedCommand{{"de", "sho", "mlx5_0"}, Object::Dev, Verb::Show, "mlx5_0", std::nullopt},
        ParsedCommand{{"devi", "show"}, Object::Dev, Verb::Show, std::nullopt, std::nullopt},
        ParsedCommand{{"dev", "set", "rxe0", "enabled", "on"}, Object::Dev, Verb::Set, "rxe0", true},
        ParsedCommand{{"dev", "set", "rxe0", "enabled", "off"}, Object::Dev, Verb::Set, "rxe0", false},
        ParsedCommand{{"d", "se", "rxe0", "en", "off"}, Object::Dev, Verb::Set, "rxe0", false},
        ParsedCommand{{"device", "set", "rxe0", "e", "on"}, Object::Dev, Verb::Set, "rxe0", true},
        ParsedCommand{{"module"}, Object::Module, Verb::Show, std::nullopt, std::nullopt},
        ParsedCommand{{"module", "show"}, Object::Module, Verb::Show, std::nullopt, std::nullopt},
        ParsedCommand{{"mod"}, Object::Module, Verb::Show, std::nullopt, std::nullopt},
        ParsedCommand{{"m", "s"}, Object::Module, Verb::Show, std::nullopt, std::nullopt},
        // A device may be called like a command: it is an argument here.
        ParsedCommand{{"dev", "show", "show"}, Object::Dev, Verb::Show, "show", std::nullopt}),
    [](const auto &info) { return case_name(info.index, info.param.args); });

TEST(Options, DefaultsOff)
{
    Command cmd = parse({"dev"});
    EXPECT_FALSE(cmd.output.json);
    EXPECT_FALSE(cmd.output.pretty);
    EXPECT_FALSE(cmd.output.details);
}

class OptionPlacement : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(OptionPlacement, AllThreeSet)
{
    Command cmd = parse(GetParam());
    EXPECT_TRUE(cmd.output.json);
    EXPECT_TRUE(cmd.output.pretty);
    EXPECT_TRUE(cmd.output.details);
    EXPECT_EQ(cmd.object, Object::Dev);
    EXPECT_EQ(cmd.verb, Verb::Show);
    EXPECT_EQ(cmd.dev_name, "rxe0");
}

INSTANTIATE_TEST_SUITE_P(
    BeforeAndAfterObject, OptionPlacement,
    ::testing::Values(std::vector<std::string>{"-j", "-p", "-d", "dev", "show", "rxe0"},
                      std::vector<std::string>{"-jpd", "dev", "show", "rxe0"},
                      std::vector<std::string>{"dev", "show", "rxe0", "-j", "-p", "-d"},
                      std::vector<std::string>{"dev", "-d", "show", "-pj", "rxe0"},
                      std::vector<std::string>{"--json", "dev", "--pretty", "show", "rxe0",
                                               "--details"}),
    [](const auto &info) { return case_name(info.index, info.param); });

TEST(Options, JsonOnlyForModule)
{
    Command cmd = parse({"mod", "-j"});
    EXPECT_EQ(cmd.object, Object::Module);
    EXPECT_TRUE(cmd.output.json);
    EXPECT_FALSE(cmd.output.pretty);
}

TEST(Options, DoubleDashEndsOptions)
{
    Command cmd = parse({"dev", "show", "--", "-odd"});
    EXPECT_EQ(cmd.dev_name, "-odd");
}

TEST(Help, Forms)
{
    for (auto args : std::vector<std::vector<std::string>>{{"help"}, {"h"}, {"--help"}, {"-h"}}) {
        Command cmd = parse(args);
        EXPECT_EQ(cmd.action, Action::Help) << args[0];
        EXPECT_EQ(cmd.object, Object::None) << args[0];
    }
    for (auto args : std::vector<std::vector<std::string>>{
             {"dev", "help"}, {"help", "dev"}, {"dev", "--help"}, {"device", "he"}}) {
        Command cmd = parse(args);
        EXPECT_EQ(cmd.action, Action::Help);
        EXPECT_EQ(cmd.object, Object::Dev);
    }
    Command cmd = parse({"module", "help"});
    EXPECT_EQ(cmd.action, Action::Help);
    EXPECT_EQ(cmd.object, Object::Module);
}

TEST(Help, UsageTexts)
{
    EXPECT_NE(
        usage().find("OBJECT := { dev | module | transport | listener | stats | config | fault |\n"
                     "                  bench | monitor }"),
        std::string::npos);
    EXPECT_NE(usage(Object::Config).find("config set NAME VALUE [NAME VALUE...] [transport ID]"),
              std::string::npos);
    // The ranges come from the spec's constants.
    EXPECT_NE(usage(Object::Config).find("  inline-send         1024-65536 bytes (8192)\n"),
              std::string::npos)
        << usage(Object::Config);
    EXPECT_NE(usage(Object::Dev).find("dev set NAME enabled { on | off }"), std::string::npos);
    EXPECT_NE(usage(Object::Module).find("module [show]"), std::string::npos);
    EXPECT_NE(usage(Object::Transport).find("transport [show [ID]]"), std::string::npos);
    EXPECT_NE(usage(Object::Listener).find("listener add [ADDR][:PORT]"), std::string::npos);
    EXPECT_NE(usage(Object::Listener).find("listener del { id ID | [ADDR][:PORT] }"),
              std::string::npos);
    EXPECT_NE(usage(Object::Stats).find("stats [show]"), std::string::npos);
    EXPECT_NE(usage(Object::Fault).find("fault set POINT TRIGGER [times T] [errno E]"),
              std::string::npos);
    EXPECT_NE(usage(Object::Fault).find("fault clear [POINT | all]"), std::string::npos);
    EXPECT_NE(usage(Object::Monitor).find("monitor [-t] [--log FILE]"), std::string::npos);
    EXPECT_NE(usage().find("monitor [-t] [--log FILE]"), std::string::npos);
    EXPECT_NE(usage(Object::Bench).find("bench [run] ADDR[:PORT] [transport { tcp | rdma }]"),
              std::string::npos);
    EXPECT_NE(usage(Object::Bench)
                  .find("bench [run] ADDR[:PORT] op { rdma-write | rdma-read }\n"
                        "                              [size SIZE] [qps N]"),
              std::string::npos);
    EXPECT_NE(usage(Object::Bench).find("SIZE := NUMBER[{ K | KiB | M | MiB }]"),
              std::string::npos);
    EXPECT_NE(usage(Object::Bench).find("id, op, transport, addr,"), std::string::npos);
    EXPECT_NE(usage(Object::Bench).find("bench show [ID]"), std::string::npos);
}

struct TransportCase {
    std::vector<std::string> args;
    Object object;
    Verb verb;
    std::optional<uint32_t> id;
};

void PrintTo(const TransportCase &c, std::ostream *os)
{
    *os << case_name(0, c.args);
}

class ParsesTransportCommands : public ::testing::TestWithParam<TransportCase> {};

TEST_P(ParsesTransportCommands, ObjectVerbAndId)
{
    const TransportCase &c = GetParam();
    Command cmd = parse(c.args);
    EXPECT_EQ(cmd.action, Action::Run);
    EXPECT_EQ(cmd.object, c.object);
    EXPECT_EQ(cmd.verb, c.verb);
    EXPECT_EQ(cmd.transport_id, c.id);
}

INSTANTIATE_TEST_SUITE_P(
    Commands, ParsesTransportCommands,
    ::testing::Values(
        TransportCase{{"transport"}, Object::Transport, Verb::Show, std::nullopt},
        TransportCase{{"transport", "show"}, Object::Transport, Verb::Show, std::nullopt},
        TransportCase{{"t", "s", "3"}, Object::Transport, Verb::Show, 3u},
        TransportCase{{"xprt", "show", "4294967295"}, Object::Transport, Verb::Show, 4294967295u},
        TransportCase{{"listener"}, Object::Listener, Verb::Show, std::nullopt},
        TransportCase{{"l", "sh"}, Object::Listener, Verb::Show, std::nullopt},
        TransportCase{{"listener", "del", "id", "12"}, Object::Listener, Verb::Del, 12u},
        TransportCase{{"stats"}, Object::Stats, Verb::Show, std::nullopt},
        TransportCase{{"statistics", "show"}, Object::Stats, Verb::Show, std::nullopt},
        TransportCase{{"s"}, Object::Stats, Verb::Show, std::nullopt},
        TransportCase{{"config"}, Object::Config, Verb::Show, std::nullopt},
        TransportCase{{"c", "sh", "transport", "5"}, Object::Config, Verb::Show, 5u},
        TransportCase{{"config", "set", "credits", "8", "xprt", "6"}, Object::Config, Verb::Set,
                      6u}),
    [](const auto &info) { return case_name(info.index, info.param.args); });

TEST(ConfigSet, NamesValuesAndPrefixes)
{
    Command cmd = parse({"-j", "config", "set", "credits", "0", "idle", "4294967295",
                         "inline-send", "512"});
    EXPECT_EQ(cmd.object, Object::Config);
    EXPECT_EQ(cmd.verb, Verb::Set);
    EXPECT_FALSE(cmd.transport_id);
    ASSERT_EQ(cmd.config.size(), 3u);
    EXPECT_EQ(cmd.config[0].name, "credits");
    EXPECT_EQ(cmd.config[0].value, 0u);
    EXPECT_EQ(cmd.config[1].name, "idle-timeout");
    EXPECT_EQ(cmd.config[1].value, 4294967295u);
    EXPECT_EQ(cmd.config[2].name, "inline-send");
    EXPECT_EQ(cmd.config[2].value, 512u);
}

struct ListenCase {
    std::vector<std::string> args;
    Verb verb;
    std::optional<std::string> addr;
    int family;
    std::optional<uint16_t> port;
    const char *text;
};

void PrintTo(const ListenCase &c, std::ostream *os)
{
    *os << case_name(0, c.args);
}

class ParsesListenSpec : public ::testing::TestWithParam<ListenCase> {};

TEST_P(ParsesListenSpec, AddressAndPort)
{
    const ListenCase &c = GetParam();
    Command cmd = parse(c.args);
    EXPECT_EQ(cmd.object, Object::Listener);
    EXPECT_EQ(cmd.verb, c.verb);
    ASSERT_TRUE(cmd.listen.has_value());
    EXPECT_EQ(cmd.listen->addr, c.addr);
    if (c.addr) {
        EXPECT_EQ(cmd.listen->family, c.family);
    }
    EXPECT_EQ(cmd.listen->port, c.port);
    EXPECT_EQ(listen_spec_text(*cmd.listen), c.text);
    EXPECT_FALSE(cmd.transport_id.has_value());
}

constexpr int v4 = AF_INET;
constexpr int v6 = AF_INET6;

INSTANTIATE_TEST_SUITE_P(
    Forms, ParsesListenSpec,
    ::testing::Values(
        ListenCase{{"listener", "add"}, Verb::Add, std::nullopt, 0, std::nullopt, "*"},
        ListenCase{{"listener", "add", "20050"}, Verb::Add, std::nullopt, 0, 20050, "*:20050"},
        ListenCase{{"listener", "add", ":2049"}, Verb::Add, std::nullopt, 0, 2049, "*:2049"},
        ListenCase{{"listener", "add", "*"}, Verb::Add, std::nullopt, 0, std::nullopt, "*"},
        ListenCase{{"listener", "add", "*:1"}, Verb::Add, std::nullopt, 0, 1, "*:1"},
        ListenCase{
            {"listener", "add", "0.0.0.0:65535"}, Verb::Add, "0.0.0.0", v4, 65535, "0.0.0.0:65535"},
        ListenCase{{"listener", "add", "[::]:20050"}, Verb::Add, "::", v6, 20050, "[::]:20050"},
        ListenCase{{"listener", "add", "::"}, Verb::Add, "::", v6, std::nullopt, "[::]"},
        ListenCase{{"listener", "del"}, Verb::Del, std::nullopt, 0, std::nullopt, "*"},
        ListenCase{{"listener", "del", "10.99.0.1:20050"},
                   Verb::Del,
                   "10.99.0.1",
                   v4,
                   20050,
                   "10.99.0.1:20050"},
        ListenCase{
            {"listener", "del", "fe80::0001"}, Verb::Del, "fe80::1", v6, std::nullopt, "[fe80::1]"},
        ListenCase{{"listener", "del", "[::ffff:10.0.0.1]:7"},
                   Verb::Del,
                   "::ffff:10.0.0.1",
                   v6,
                   7,
                   "[::ffff:10.0.0.1]:7"},
        ListenCase{{"l", "d", "10.0.0.1"}, Verb::Del, "10.0.0.1", v4, std::nullopt, "10.0.0.1"}),
    [](const auto &info) { return case_name(info.index, info.param.args); });

TEST(Version, ShortAndLong)
{
    EXPECT_EQ(parse({"-V"}).action, Action::Version);
    EXPECT_EQ(parse({"--version"}).action, Action::Version);
    EXPECT_EQ(parse({"dev", "-V"}).action, Action::Version);
}

TEST_P(UsageErrors, ClearMessage)
{
    EXPECT_EQ(usage_error(GetParam().args), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Refused, UsageErrors,
    ::testing::Values(
        Refusal{{}, "no object given"}, Refusal{{"-j"}, "no object given"},
        Refusal{{"link"}, "unknown object 'link'"}, Refusal{{""}, "unknown object ''"},
        Refusal{{"dev", "frob"}, "unknown dev command 'frob'"},
        Refusal{{"dev", "s"}, "ambiguous dev command 's': show, set"},
        Refusal{{"dev", "show", "a", "b"}, "unexpected argument 'b' for 'dev show'"},
        Refusal{{"dev", "show", ""}, "empty device name"},
        Refusal{{"dev", "show", std::string(64, 'x')},
            "device name 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' is "
            "longer than 63 characters"},
        Refusal{{"dev", "set"}, "'dev set' needs a device name"},
        Refusal{{"dev", "set", "rxe0"}, "'dev set' needs a setting, e.g. 'enabled on'"},
        Refusal{{"dev", "set", "rxe0", "enabled"}, "'enabled' needs a value: on or off"},
        Refusal{{"dev", "set", "rxe0", "enabled", "yes"},
            "invalid value 'yes' for enabled: expected on or off"},
        Refusal{{"dev", "set", "rxe0", "enabled", "1"},
            "invalid value '1' for enabled: expected on or off"},
        Refusal{{"dev", "set", "rxe0", "enabled", "on", "enabled", "off"},
            "'enabled' given more than once"},
        Refusal{{"dev", "set", "rxe0", "mtu", "1500"}, "unknown setting 'mtu'"},
        Refusal{{"module", "show", "extra"}, "unexpected argument 'extra' for 'module show'"},
        Refusal{{"module", "set"}, "unknown module command 'set'"},
        Refusal{{"dev", "help", "x"}, "unexpected argument 'x' for 'dev help'"},
        Refusal{{"help", "bogus"}, "unknown object 'bogus'"},
        Refusal{{"help", "dev", "x"}, "unexpected argument 'x' for 'help'"},
        Refusal{{"transport", "show", "0"}, "invalid transport id '0': expected 1 to 4294967295"},
        Refusal{{"transport", "show", "4294967296"},
            "invalid transport id '4294967296': expected 1 to 4294967295"},
        Refusal{{"transport", "show", "-1"}, "invalid transport id '-1': expected 1 to 4294967295"},
        Refusal{{"transport", "show", "1", "2"}, "unexpected argument '2' for 'transport show'"},
        Refusal{{"transport", "set"}, "unknown transport command 'set'"},
        Refusal{{"listener", "add", "10.99.0.1"},
            "nfsd listens on every address: '10.99.0.1' cannot be given through "
            "/proc/fs/nfsd/portlist; give '*' or leave the address out"},
        Refusal{{"listener", "add", "[fe80::1]:20050"},
            "nfsd listens on every address: 'fe80::1' cannot be given through "
            "/proc/fs/nfsd/portlist; give '*' or leave the address out"},
        Refusal{{"listener", "add", "*:0"}, "invalid port '0': expected 1 to 65535"},
        Refusal{{"listener", "add", "65536"}, "invalid port '65536': expected 1 to 65535"},
        Refusal{{"listener", "add", "*:x"}, "invalid port 'x': expected 1 to 65535"},
        Refusal{{"listener", "add", "*:"}, "invalid address '*:': no port after ':'"},
        Refusal{{"listener", "add", "host:20050"},
            "invalid address 'host': expected *, an IPv4 address or an IPv6 address"},
        Refusal{{"listener", "add", "[10.0.0.1]:1"},
            "invalid address '10.0.0.1': expected *, an IPv4 address or an IPv6 address"},
        Refusal{{"listener", "add", "[::1"}, "invalid address '[::1': missing ']'"},
        Refusal{{"listener", "add", "[::1]20050"},
            "invalid address '[::1]20050': expected [ADDR]:PORT"},
        Refusal{{"listener", "add", ""}, "empty address"},
        Refusal{{"listener", "add", "*", "1"}, "unexpected argument '1' for 'listener add'"},
        Refusal{{"listener", "del", "id"}, "'id' needs a transport id"},
        Refusal{{"listener", "del", "id", "x"}, "invalid transport id 'x': expected 1 to 4294967295"},
        Refusal{{"listener", "del", "id", "1", "2"}, "unexpected argument '2' for 'listener del'"},
        Refusal{{"listener", "set"}, "unknown listener command 'set'"},
        Refusal{{"stats", "show", "x"}, "unexpected argument 'x' for 'stats show'"},
        Refusal{{"config", "show", "x"}, "unexpected argument 'x' for 'config show'"},
        Refusal{{"config", "show", "transport"}, "'transport' needs a transport id"},
        Refusal{{"config", "show", "transport", "0"},
            "invalid transport id '0': expected 1 to 4294967295"},
        Refusal{{"config", "set"}, "'config set' needs a tunable and a value, e.g. 'credits 128'"},
        Refusal{{"config", "set", "transport", "1"},
            "'config set' needs a tunable and a value, e.g. 'credits 128'"},
        Refusal{{"config", "set", "mtu", "1"}, "unknown tunable 'mtu'"},
        Refusal{{"config", "set", "inline", "1"},
            "ambiguous tunable 'inline': inline-send, inline-recv"},
        Refusal{{"config", "set", "credits"}, "'credits' needs a value"},
        Refusal{{"config", "set", "credits", "-1"},
            "invalid value '-1' for credits: expected a number from 0 to 4294967295"},
        Refusal{{"config", "set", "credits", "4294967296"},
            "invalid value '4294967296' for credits: expected a number from 0 to 4294967295"},
        Refusal{{"config", "set", "credits", "1", "credits", "2"}, "'credits' given more than once"},
        Refusal{{"config", "set", "credits", "1", "transport", "2", "x"},
            "unexpected argument 'x' for 'config set'"}),
    [](const auto &info) { return case_name(info.index, info.param.args); });

TEST(UsageErrors, UnknownOption)
{
    EXPECT_NE(usage_error({"--bogus", "dev"}).find("--bogus"), std::string::npos);
    EXPECT_NE(usage_error({"dev", "show", "-x"}).find("-x"), std::string::npos);
}

} // namespace
