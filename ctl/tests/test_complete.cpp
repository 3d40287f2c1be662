// SPDX-License-Identifier: GPL-2.0
// Completion: objects, commands, their arguments, options and option
// values, from the grammar and the usage texts.
#include <gtest/gtest.h>

#include "complete.hpp"

using namespace rdmactl;

namespace {

using Words = std::vector<std::string>;

// Completes the last word of words; records the placeholders looked up.
Words complete_last(const Words &words, Words *looked_up = nullptr)
{
    return complete(words, words.size() - 1, [looked_up](const std::string &placeholder) {
        if (looked_up)
            looked_up->push_back(placeholder);
        if (placeholder == "DEV")
            return Words{"rxe0", "mlx5_0"};
        if (placeholder == "TRANSPORT")
            return Words{"1", "12", "3"};
        return Words{"7"};
    });
}

TEST(Complete, ObjectsFirst)
{
    EXPECT_EQ(complete_last({""}), (Words{"dev", "module", "transport", "listener", "stats",
                                          "config", "fault", "bench", "ping", "monitor", "help"}));
    EXPECT_EQ(complete_last({"tr"}), Words{"transport"});
    EXPECT_EQ(complete_last({"m"}), (Words{"module", "monitor"}));
    EXPECT_EQ(complete_last({"zz"}), Words{});
}

TEST(Complete, NewWordAfterTheLast)
{
    EXPECT_EQ(complete({}, 0, nullptr).size(), 11u);
    EXPECT_EQ(complete({"dev"}, 1, nullptr), (Words{"show", "set", "help"}));
}

TEST(Complete, OptionsAreSkippedBeforeTheObject)
{
    EXPECT_EQ(complete_last({"-j", "-p", "st"}), Words{"stats"});
    EXPECT_EQ(complete_last({"-j", "dev", "s"}), (Words{"show", "set"}));
}

TEST(Complete, VerbsOfAnAbbreviatedObject)
{
    EXPECT_EQ(complete_last({"d", ""}), (Words{"show", "set", "help"}));
    EXPECT_EQ(complete_last({"device", "h"}), Words{"help"});
    EXPECT_EQ(complete_last({"xprt", ""}), (Words{"show", "help"}));
}

TEST(Complete, ArgumentsFromTheKernel)
{
    Words looked_up;
    EXPECT_EQ(complete_last({"dev", "show", ""}, &looked_up), (Words{"rxe0", "mlx5_0"}));
    EXPECT_EQ(looked_up, Words{"DEV"});
    EXPECT_EQ(complete_last({"transport", "sh", "1"}), (Words{"1", "12"}));
    EXPECT_EQ(complete_last({"listener", "del", "id", ""}), Words{"7"});
}

TEST(Complete, KeywordArguments)
{
    EXPECT_EQ(complete_last({"dev", "set", "rxe0", ""}), Words{"enabled"});
    EXPECT_EQ(complete_last({"dev", "set", "rxe0", "enabled", "o"}), (Words{"on", "off"}));
    EXPECT_EQ(complete_last({"dev", "set", "rxe0", "enabled", "on", ""}), Words{});
    EXPECT_EQ(complete_last({"listener", "del", "i"}), Words{"id"});
}

TEST(Complete, FaultAndConfigArguments)
{
    Words looked_up;
    complete_last({"fault", "set", ""}, &looked_up);
    complete_last({"fault", "clear", ""}, &looked_up);
    complete_last({"config", "set", ""}, &looked_up);
    EXPECT_EQ(looked_up, (Words{"POINT", "POINT", "TUNABLE"}));
    EXPECT_EQ(complete_last({"fault", "set", "post-send", "e"}), Words{"every"});
    EXPECT_EQ(complete_last({"fault", "clear", "a"}), Words{"all"});
    EXPECT_EQ(complete_last({"config", "show", ""}), Words{"transport"});
}

TEST(Complete, BenchSettingsAndTheirValues)
{
    EXPECT_EQ(complete_last({"bench", "run", "10.0.0.1", ""}),
              (Words{"op", "transport", "port", "count", "concurrency", "program", "version",
                     "size", "qps", "reply-size"}));
    EXPECT_EQ(complete_last({"bench", "run", "10.0.0.1", "op", ""}),
              (Words{"rpc-null", "rdma-write", "rdma-read"}));
    EXPECT_EQ(complete_last({"bench", "run", "10.0.0.1", "op", "rdma-"}),
              (Words{"rdma-write", "rdma-read"}));
    EXPECT_EQ(complete_last({"bench", "run", "10.0.0.1", "tr", "r"}), Words{"rdma"});
    EXPECT_EQ(complete_last({"bench", "run", "10.0.0.1", "size", ""}), Words{});
    // A setting given is not offered again.
    EXPECT_EQ(complete_last({"bench", "run", "10.0.0.1", "op", "rdma-write", "s"}), Words{"size"});
    EXPECT_EQ(complete_last({"bench", "run", "10.0.0.1", "op", "rdma-read", "size", "1M", "q"}),
              Words{"qps"});
    EXPECT_EQ(complete_last({"bench", "run", "10.0.0.1", "count", "5", "c"}), Words{"concurrency"});
    EXPECT_EQ(complete_last({"bench", "run", "10.0.0.1", "o", "rdma-write", "o"}), Words{});
}

TEST(Complete, NothingAfterAnUnknownWord)
{
    EXPECT_EQ(complete_last({"bogus", ""}), Words{});
    EXPECT_EQ(complete_last({"dev", "bogus", ""}), Words{});
    EXPECT_EQ(complete_last({"module", "show", ""}), Words{});
}

TEST(Complete, HelpTakesAnObject)
{
    EXPECT_EQ(complete_last({"help", "l"}), Words{"listener"});
    EXPECT_EQ(complete_last({"help", "dev", ""}), Words{});
}

TEST(Complete, GlobalOptions)
{
    Words all = complete_last({"-"});
    EXPECT_NE(std::find(all.begin(), all.end(), "--json"), all.end());
    EXPECT_NE(std::find(all.begin(), all.end(), "-d"), all.end());
    EXPECT_EQ(std::find(all.begin(), all.end(), "--count"), all.end());
    EXPECT_EQ(complete_last({"dev", "--p"}), Words{"--pretty"});
}

TEST(Complete, PingAndMonitorOptions)
{
    EXPECT_EQ(complete_last({"ping", "--c"}), Words{"--count"});
    EXPECT_EQ(complete_last({"ping", "--pri"}), Words{"--private-data"});
    EXPECT_EQ(complete_last({"ping", "--r"}),
              (Words{"--raw", "--raw-hex", "--region", "--region-out", "--repeat",
                     "--responder-resources"}));
    EXPECT_EQ(complete_last({"monitor", "--l"}), Words{"--log"});
    EXPECT_EQ(complete_last({"ping", ""}), Words{"help"});
    EXPECT_EQ(complete_last({"ping", "10.0.0.1", ""}), Words{});
}

TEST(Complete, OptionValues)
{
    EXPECT_EQ(complete_last({"ping", "--raw", ""}), Words{complete_files});
    EXPECT_EQ(complete_last({"monitor", "--log", "/tm"}), Words{complete_files});
    EXPECT_EQ(complete_last({"ping", "-c", ""}), Words{});
    // A value already given is skipped: the next word is the address.
    EXPECT_EQ(complete_last({"ping", "-c", "3", "--bu"}), Words{"--burst"});
}

} // namespace
