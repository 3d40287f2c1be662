// SPDX-License-Identifier: GPL-2.0
// The usage texts of cli.cpp, ping.cpp and monitor.cpp read back as
// structure: the manual page and the completion are made from them, so the
// help is written once.
#pragma once

#include <string>
#include <vector>

#include "cli.hpp"

namespace rdmactl {

// One option line: "  -c, --count COUNT     calls to send ...".
struct UsageOption {
    std::vector<std::string> names; // "-c", "--count"
    std::string metavar;            // "COUNT"; empty for a flag
    std::string term;               // "-c, --count COUNT"
    std::string text;               // the description, continuation lines joined
};

struct UsageBlock {
    enum class Kind {
        Synopsis,  // "Usage: ..." and the lines that continue it, "where ..."
        Paragraph, // prose, lines joined with blanks
        Option,    // one UsageOption
        Literal,   // indented lines that are not options (a table): as printed
    };
    Kind kind;
    std::vector<std::string> lines; // Synopsis: as printed, "Usage: " taken off; Literal
    std::string text;               // Paragraph
    UsageOption option;             // Option
};

// Splits a usage text into blocks, in order.
std::vector<UsageBlock> parse_usage(const std::string &text);

// The options a usage text lists.
std::vector<UsageOption> usage_options(const std::string &text);

} // namespace rdmactl
