// SPDX-License-Identifier: GPL-2.0
#include "usage_text.hpp"

#include <sstream>

namespace rdmactl {

namespace {

constexpr const char *usage_prefix = "Usage: ";
constexpr size_t synopsis_indent = 7; // strlen("Usage: ")

size_t indent_of(const std::string &line)
{
    size_t n = line.find_first_not_of(' ');
    return n == std::string::npos ? line.size() : n;
}

std::string trim(const std::string &text)
{
    size_t first = text.find_first_not_of(' ');
    if (first == std::string::npos)
        return {};
    return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

// "-c, --count COUNT" -> names {-c, --count}, metavar COUNT.
void parse_term(UsageOption &opt)
{
    std::istringstream parts(opt.term);
    std::string part;
    while (std::getline(parts, part, ',')) {
        std::istringstream words(trim(part));
        std::string name, metavar;
        words >> name >> metavar;
        if (!name.empty())
            opt.names.push_back(name);
        if (!metavar.empty())
            opt.metavar = metavar;
    }
}

// "  -c, --count COUNT     calls to send": the term ends at the first run of
// two blanks after it starts.
UsageOption parse_option_line(const std::string &line)
{
    UsageOption opt;
    size_t start = indent_of(line);
    size_t gap = line.find("  ", start);
    opt.term = line.substr(start, gap == std::string::npos ? std::string::npos : gap - start);
    if (gap != std::string::npos)
        opt.text = trim(line.substr(gap));
    parse_term(opt);
    return opt;
}

class Parser {
public:
    void line(const std::string &line)
    {
        if (trim(line).empty())
            return flush();
        if (starts_with(line, usage_prefix))
            return start(UsageBlock::Kind::Synopsis, line.substr(synopsis_indent));
        if (is(UsageBlock::Kind::Synopsis) &&
            (indent_of(line) >= synopsis_indent || starts_with(line, "where ")))
            return current_.lines.push_back(strip_indent(line));
        if (starts_with(line, "where "))
            return start(UsageBlock::Kind::Synopsis, line);
        if (indent_of(line) >= 2 && line[indent_of(line)] == '-') {
            flush();
            current_.kind = UsageBlock::Kind::Option;
            current_.option = parse_option_line(line);
            open_ = true;
            return;
        }
        if (is(UsageBlock::Kind::Option) && indent_of(line) >= 4)
            return append(current_.option.text, trim(line));
        if (indent_of(line) >= 2) {
            if (!is(UsageBlock::Kind::Literal))
                start(UsageBlock::Kind::Literal, line);
            else
                current_.lines.push_back(line);
            return;
        }
        if (is(UsageBlock::Kind::Paragraph))
            return append(current_.text, trim(line));
        flush();
        current_.kind = UsageBlock::Kind::Paragraph;
        current_.text = trim(line);
        open_ = true;
    }

    std::vector<UsageBlock> finish()
    {
        flush();
        return std::move(blocks_);
    }

private:
    bool is(UsageBlock::Kind kind) const { return open_ && current_.kind == kind; }

    static std::string strip_indent(const std::string &line)
    {
        return line.substr(std::min(indent_of(line), synopsis_indent));
    }

    static void append(std::string &text, const std::string &more)
    {
        text += text.empty() ? more : ' ' + more;
    }

    void start(UsageBlock::Kind kind, const std::string &first)
    {
        flush();
        current_.kind = kind;
        current_.lines.push_back(first);
        open_ = true;
    }

    void flush()
    {
        if (open_)
            blocks_.push_back(std::move(current_));
        current_ = UsageBlock{};
        open_ = false;
    }

    std::vector<UsageBlock> blocks_;
    UsageBlock current_{};
    bool open_ = false;
};

} // namespace

std::vector<UsageBlock> parse_usage(const std::string &text)
{
    Parser parser;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line))
        parser.line(line);
    return parser.finish();
}

std::vector<UsageOption> usage_options(const std::string &text)
{
    std::vector<UsageOption> options;
    for (UsageBlock &block : parse_usage(text)) {
        if (block.kind == UsageBlock::Kind::Option)
            options.push_back(std::move(block.option));
    }
    return options;
}

} // namespace rdmactl
