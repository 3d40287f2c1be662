// SPDX-License-Identifier: GPL-2.0
// The usage texts read back as structure, and rdmactl(8) made from them.
#include <gtest/gtest.h>

#include <sstream>

#include "cli.hpp"
#include "manpage.hpp"
#include "usage_text.hpp"

using namespace rdmactl;
using Kind = UsageBlock::Kind;

namespace {

const char *sample = "Usage: tool [-c N] ADDR\n"
                     "                [--more] ADDR\n"
                     "       tool help\n"
                     "where  ADDR := { A | B }\n"
                     "Sends things to ADDR and\n"
                     "waits.\n"
                     "\n"
                     "  -c, --count N     how many (default\n"
                     "                    5)\n"
                     "  --more            more\n"
                     "Exit status: 0 ok.\n";

TEST(UsageText, Blocks)
{
    std::vector<UsageBlock> blocks = parse_usage(sample);
    ASSERT_EQ(blocks.size(), 5u);
    EXPECT_EQ(blocks[0].kind, Kind::Synopsis);
    EXPECT_EQ(blocks[0].lines, (std::vector<std::string>{"tool [-c N] ADDR",
                                                         "         [--more] ADDR", "tool help",
                                                         "where  ADDR := { A | B }"}));
    EXPECT_EQ(blocks[1].kind, Kind::Paragraph);
    EXPECT_EQ(blocks[1].text, "Sends things to ADDR and waits.");
    EXPECT_EQ(blocks[2].kind, Kind::Option);
    EXPECT_EQ(blocks[2].option.names, (std::vector<std::string>{"-c", "--count"}));
    EXPECT_EQ(blocks[2].option.metavar, "N");
    EXPECT_EQ(blocks[2].option.term, "-c, --count N");
    EXPECT_EQ(blocks[2].option.text, "how many (default 5)");
    EXPECT_EQ(blocks[3].option.names, std::vector<std::string>{"--more"});
    EXPECT_EQ(blocks[3].option.metavar, "");
    EXPECT_EQ(blocks[4].kind, Kind::Paragraph);
    EXPECT_EQ(blocks[4].text, "Exit status: 0 ok.");
}

TEST(UsageText, IndentedLinesThatAreNotOptionsStayAsPrinted)
{
    std::vector<UsageBlock> blocks = parse_usage("Usage: tool set NAME VALUE\n"
                                                 "NAME (range):\n"
                                                 "  alpha   1-4\n"
                                                 "  beta    0-9 (bytes)\n"
                                                 "Done.\n");
    ASSERT_EQ(blocks.size(), 4u);
    EXPECT_EQ(blocks[1].kind, Kind::Paragraph);
    EXPECT_EQ(blocks[2].kind, Kind::Literal);
    EXPECT_EQ(blocks[2].lines,
              (std::vector<std::string>{"  alpha   1-4", "  beta    0-9 (bytes)"}));
    EXPECT_EQ(blocks[3].kind, Kind::Paragraph);
    EXPECT_EQ(blocks[3].text, "Done.");
}

TEST(UsageText, EveryRealUsageHasASynopsis)
{
    for (const ObjectInfo &object : command_table()) {
        std::vector<UsageBlock> blocks = parse_usage(usage(object.object));
        ASSERT_FALSE(blocks.empty()) << object.names.front();
        EXPECT_EQ(blocks.front().kind, Kind::Synopsis) << object.names.front();
        EXPECT_NE(blocks.front().lines.front().find(object.names.front()), std::string::npos);
    }
}

TEST(UsageText, RealOptions)
{
    std::vector<UsageOption> options = usage_options(usage(Object::Ping));
    bool raw = false;
    for (const UsageOption &opt : options) {
        if (opt.names == std::vector<std::string>{"--raw"}) {
            raw = true;
            EXPECT_EQ(opt.metavar, "FILE");
        }
    }
    EXPECT_TRUE(raw);
    EXPECT_EQ(usage_options(usage()).size(), 5u);
}

TEST(RoffEscape, SpecialCharacters)
{
    EXPECT_EQ(roff_escape("--raw-hex"), "\\-\\-raw\\-hex");
    EXPECT_EQ(roff_escape("a\\b"), "a\\eb");
    EXPECT_EQ(roff_escape(".not a macro"), "\\&.not a macro");
    EXPECT_EQ(roff_escape("'quoted"), "\\&'quoted");
    EXPECT_EQ(roff_escape("plain"), "plain");
}

TEST(ManPage, Sections)
{
    std::string page = man_page("1.2.3");
    EXPECT_EQ(page.find(".TH RDMACTL 8 \"\" \"xrpcrdma 1.2.3\""), page.find(".TH"));
    for (const char *section : {".SH NAME\n", ".SH SYNOPSIS\n", ".SH DESCRIPTION\n",
                                ".SH OPTIONS\n", ".SH COMMANDS\n", ".SH EXIT STATUS\n",
                                ".SH SEE ALSO\n"})
        EXPECT_NE(page.find(section), std::string::npos) << section;
}

TEST(ManPage, EveryObjectAndOption)
{
    std::string page = man_page("0");
    for (const ObjectInfo &object : command_table()) {
        EXPECT_NE(page.find(".SS " + roff_escape(object.names.front()) + "\n"),
                  std::string::npos)
            << object.names.front();
        for (const UsageOption &opt : usage_options(usage(object.object)))
            EXPECT_NE(page.find(".B " + roff_escape(opt.term) + "\n"), std::string::npos)
                << opt.term;
    }
    for (const UsageOption &opt : usage_options(usage()))
        EXPECT_NE(page.find(".B " + roff_escape(opt.term) + "\n"), std::string::npos);
}

// Only the page's own requests start a line with a control character.
TEST(ManPage, NoStrayRequests)
{
    std::istringstream lines(man_page("0"));
    std::string line;
    const std::vector<std::string> requests = {".\\\"", ".TH ", ".SH ", ".SS ", ".PP", ".TP",
                                               ".B ",   ".BR ", ".nf", ".fi"};
    while (std::getline(lines, line)) {
        if (line.empty() || (line[0] != '.' && line[0] != '\''))
            continue;
        bool known = false;
        for (const std::string &request : requests)
            known = known || line.compare(0, request.size(), request) == 0;
        EXPECT_TRUE(known) << line;
    }
}

TEST(ManPage, ExitStatusFromTheGeneralUsage)
{
    std::string page = man_page("0");
    size_t at = page.find(".SH EXIT STATUS\n.PP\n");
    ASSERT_NE(at, std::string::npos);
    EXPECT_NE(page.find("2 on usage errors", at), std::string::npos);
}

} // namespace
