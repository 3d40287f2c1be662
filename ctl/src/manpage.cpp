// SPDX-License-Identifier: GPL-2.0
#include "manpage.hpp"

#include <sstream>

#include "cli.hpp"
#include "usage_text.hpp"

namespace rdmactl {

namespace {

using Kind = UsageBlock::Kind;

bool is_exit_status(const UsageBlock &block)
{
    return block.kind == Kind::Paragraph && starts_with(block.text, "Exit status:");
}

// A paragraph that only introduces the options after it ("Options ...:").
bool is_options_heading(const UsageBlock &block)
{
    return block.kind == Kind::Paragraph && !block.text.empty() && block.text.back() == ':';
}

void synopsis(std::ostream &out, const UsageBlock &block)
{
    out << ".nf\n";
    for (const std::string &line : block.lines)
        out << roff_escape(line) << '\n';
    out << ".fi\n";
}

void paragraph(std::ostream &out, const std::string &text)
{
    out << ".PP\n" << roff_escape(text) << '\n';
}

void option(std::ostream &out, const UsageOption &opt)
{
    out << ".TP\n.B " << roff_escape(opt.term) << '\n' << roff_escape(opt.text) << '\n';
}

// Every block of one usage text, in order: for the objects' subsections.
void blocks(std::ostream &out, const std::vector<UsageBlock> &list)
{
    for (const UsageBlock &block : list) {
        switch (block.kind) {
        case Kind::Synopsis:
        case Kind::Literal:
            synopsis(out, block);
            break;
        case Kind::Paragraph:
            paragraph(out, block.text);
            break;
        case Kind::Option:
            option(out, block.option);
            break;
        }
    }
}

// The general usage, sorted into the classic sections.
void general(std::ostream &out)
{
    std::vector<UsageBlock> list = parse_usage(usage());
    out << ".SH SYNOPSIS\n";
    for (const UsageBlock &block : list) {
        if (block.kind == Kind::Synopsis)
            synopsis(out, block);
    }
    out << ".SH DESCRIPTION\n";
    for (const UsageBlock &block : list) {
        if (block.kind == Kind::Paragraph && !is_exit_status(block) &&
            !is_options_heading(block))
            paragraph(out, block.text);
    }
    out << ".SH OPTIONS\n";
    for (const UsageBlock &block : list) {
        if (is_options_heading(block))
            paragraph(out, block.text);
        else if (block.kind == Kind::Option)
            option(out, block.option);
    }
    out << ".SH COMMANDS\n";
    for (const ObjectInfo &object : command_table()) {
        out << ".SS " << roff_escape(object.names.front()) << '\n';
        blocks(out, parse_usage(usage(object.object)));
    }
    out << ".SH EXIT STATUS\n";
    for (const UsageBlock &block : list) {
        if (is_exit_status(block))
            paragraph(out, block.text.substr(block.text.find(':') + 2));
    }
}

} // namespace

std::string roff_escape(const std::string &text)
{
    std::string out;
    for (char c : text) {
        if (c == '\\')
            out += "\\e";
        else if (c == '-')
            out += "\\-";
        else
            out += c;
    }
    if (!out.empty() && (out[0] == '.' || out[0] == '\''))
        out.insert(0, "\\&");
    return out;
}

std::string man_page(const std::string &version)
{
    std::ostringstream out;
    out << ".\\\" SPDX-License-Identifier: GPL-2.0\n"
        << ".\\\" Generated from rdmactl's usage texts: edit those, not this file.\n"
        << ".TH RDMACTL 8 \"\" \"xrpcrdma " << roff_escape(version)
        << "\" \"System Administration\"\n"
        << ".SH NAME\n"
        << "rdmactl \\- show and configure the xrpcrdma RPC\\-over\\-RDMA transport\n";
    general(out);
    out << ".SH SEE ALSO\n"
        << ".BR rdma (8),\n.BR nfs (5),\n.BR rpc.nfsd (8),\n.BR mountstats (8);\n"
        << "the xrpcrdma administrator's guide (Documentation/admin\\-guide.rst).\n";
    return out.str();
}

} // namespace rdmactl
