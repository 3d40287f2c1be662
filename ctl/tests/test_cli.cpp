// SPDX-License-Identifier: GPL-2.0
// Command-line parsing: every command, abbreviations, option placement and
// the usage errors.
#include <gtest/gtest.h>

#include "argv.hpp"
#include "cli.hpp"
#include "errors.hpp"

using namespace rdmactl;
using testing_helpers::Argv;
using testing_helpers::case_name;

namespace {

Command parse(std::vector<std::string> args)
{
    Argv argv(std::move(args));
    return parse_command_line(argv.argc(), argv.argv());
}

// The UsageError message for args; fails the test if they parse.
std::string usage_error(std::vector<std::string> args)
{
    try {
        parse(std::move(args));
    } catch (const UsageError &e) {
        return e.what();
    }
    ADD_FAILURE() << "no usage error";
    return {};
}

struct Expect {
    std::vector<std::string> args;
    Object object;
    Verb verb;
    std::optional<std::string> name;
    std::optional<bool> enabled;
};

void PrintTo(const Expect &e, std::ostream *os)
{
    *os << case_name(0, e.args);
}

class Parses : public ::testing::TestWithParam<Expect> {};

TEST_P(Parses, ObjectVerbAndArguments)
{
    const Expect &e = GetParam();
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
        Expect{{"dev"}, Object::Dev, Verb::Show, std::nullopt, std::nullopt},
        Expect{{"dev", "show"}, Object::Dev, Verb::Show, std::nullopt, std::nullopt},
        Expect{{"device", "show"}, Object::Dev, Verb::Show, std::nullopt, std::nullopt},
        Expect{{"dev", "show", "rxe0"}, Object::Dev, Verb::Show, "rxe0", std::nullopt},
        Expect{{"d", "sh"}, Object::Dev, Verb::Show, std::nullopt, std::nullopt},
        Expect{{"de", "sho", "mlx5_0"}, Object::Dev, Verb::Show, "mlx5_0", std::nullopt},
        Expect{{"devi", "show"}, Object::Dev, Verb::Show, std::nullopt, std::nullopt},
        Expect{{"dev", "set", "rxe0", "enabled", "on"}, Object::Dev, Verb::Set, "rxe0", true},
        Expect{{"dev", "set", "rxe0", "enabled", "off"}, Object::Dev, Verb::Set, "rxe0", false},
        Expect{{"d", "se", "rxe0", "en", "off"}, Object::Dev, Verb::Set, "rxe0", false},
        Expect{{"device", "set", "rxe0", "e", "on"}, Object::Dev, Verb::Set, "rxe0", true},
        Expect{{"module"}, Object::Module, Verb::Show, std::nullopt, std::nullopt},
        Expect{{"module", "show"}, Object::Module, Verb::Show, std::nullopt, std::nullopt},
        Expect{{"mod"}, Object::Module, Verb::Show, std::nullopt, std::nullopt},
        Expect{{"m", "s"}, Object::Module, Verb::Show, std::nullopt, std::nullopt},
        // A device may be called like a command: it is an argument here.
        Expect{{"dev", "show", "show"}, Object::Dev, Verb::Show, "show", std::nullopt}),
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
    EXPECT_NE(usage().find("OBJECT := { dev | module }"), std::string::npos);
    EXPECT_NE(usage(Object::Dev).find("dev set NAME enabled { on | off }"), std::string::npos);
    EXPECT_NE(usage(Object::Module).find("module [show]"), std::string::npos);
}

TEST(Version, ShortAndLong)
{
    EXPECT_EQ(parse({"-V"}).action, Action::Version);
    EXPECT_EQ(parse({"--version"}).action, Action::Version);
    EXPECT_EQ(parse({"dev", "-V"}).action, Action::Version);
}

struct Bad {
    std::vector<std::string> args;
    const char *message;
};

void PrintTo(const Bad &b, std::ostream *os)
{
    *os << case_name(0, b.args);
}

class UsageErrors : public ::testing::TestWithParam<Bad> {};

TEST_P(UsageErrors, ClearMessage)
{
    EXPECT_EQ(usage_error(GetParam().args), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Refused, UsageErrors,
    ::testing::Values(
        Bad{{}, "no object given"}, Bad{{"-j"}, "no object given"},
        Bad{{"link"}, "unknown object 'link'"}, Bad{{""}, "unknown object ''"},
        Bad{{"dev", "frob"}, "unknown dev command 'frob'"},
        Bad{{"dev", "s"}, "ambiguous dev command 's': show, set"},
        Bad{{"dev", "show", "a", "b"}, "unexpected argument 'b' for 'dev show'"},
        Bad{{"dev", "show", ""}, "empty device name"},
        Bad{{"dev", "show", std::string(64, 'x')},
            "device name 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' is "
            "longer than 63 characters"},
        Bad{{"dev", "set"}, "'dev set' needs a device name"},
        Bad{{"dev", "set", "rxe0"}, "'dev set' needs a setting, e.g. 'enabled on'"},
        Bad{{"dev", "set", "rxe0", "enabled"}, "'enabled' needs a value: on or off"},
        Bad{{"dev", "set", "rxe0", "enabled", "yes"},
            "invalid value 'yes' for enabled: expected on or off"},
        Bad{{"dev", "set", "rxe0", "enabled", "1"},
            "invalid value '1' for enabled: expected on or off"},
        Bad{{"dev", "set", "rxe0", "enabled", "on", "enabled", "off"},
            "'enabled' given more than once"},
        Bad{{"dev", "set", "rxe0", "mtu", "1500"}, "unknown setting 'mtu'"},
        Bad{{"module", "show", "extra"}, "unexpected argument 'extra' for 'module show'"},
        Bad{{"module", "set"}, "unknown module command 'set'"},
        Bad{{"dev", "help", "x"}, "unexpected argument 'x' for 'dev help'"},
        Bad{{"help", "bogus"}, "unknown object 'bogus'"},
        Bad{{"help", "dev", "x"}, "unexpected argument 'x' for 'help'"}),
    [](const auto &info) { return case_name(info.index, info.param.args); });

TEST(UsageErrors, UnknownOption)
{
    EXPECT_NE(usage_error({"--bogus", "dev"}).find("--bogus"), std::string::npos);
    EXPECT_NE(usage_error({"dev", "show", "-x"}).find("-x"), std::string::npos);
}

} // namespace
