// SPDX-License-Identifier: GPL-2.0
// An argv for "rdmactl ARGS...", and the command line parsed from one.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "errors.hpp"

namespace testing_helpers {

class Argv {
public:
    Argv(std::vector<std::string> args) : args_(std::move(args))
    {
        args_.insert(args_.begin(), "rdmactl");
        for (const std::string &arg : args_)
            ptrs_.push_back(arg.c_str());
        ptrs_.push_back(nullptr);
    }

    int argc() const { return static_cast<int>(args_.size()); }
    const char *const *argv() const { return ptrs_.data(); }

private:
    std::vector<std::string> args_;
    std::vector<const char *> ptrs_;
};

// A stable, readable name for a parameterized test case run with args:
// the index, then the arguments with anything but letters and digits as '_'.
inline std::string case_name(size_t index, const std::vector<std::string> &args)
{
    std::string name = std::to_string(index);
    for (const std::string &arg : args) {
        name += '_';
        for (char c : arg.substr(0, 16))
            name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    }
    return name;
}

// A command line that must be refused, and the usage error it must give.
struct Refusal {
    std::vector<std::string> args;
    std::string message;
};

inline void PrintTo(const Refusal &r, std::ostream *os)
{
    *os << case_name(0, r.args);
}

// Refusals and their messages: test_cli.cpp defines the test, and each
// command's test file instantiates it with its own refusals.
class UsageErrors : public ::testing::TestWithParam<Refusal> {};

// The command "rdmactl ARGS..." stands for.
inline rdmactl::Command parse(std::vector<std::string> args)
{
    Argv argv(std::move(args));
    return rdmactl::parse_command_line(argv.argc(), argv.argv());
}

// The UsageError message for args; fails the test if they parse.
inline std::string usage_error(std::vector<std::string> args)
{
    try {
        parse(std::move(args));
    } catch (const rdmactl::UsageError &e) {
        return e.what();
    }
    ADD_FAILURE() << "no usage error";
    return {};
}

} // namespace testing_helpers
