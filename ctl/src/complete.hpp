// SPDX-License-Identifier: GPL-2.0
// Command-line completion: what the word being typed may become, from the
// grammar (cli.hpp) and the options of the usage texts. The bash
// completion (ctl/completion/rdmactl.bash) runs `rdmactl __complete`.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace rdmactl {

// The first word of the hidden completion command.
constexpr const char *complete_command = "__complete";

// The line printed alone when the word is a file name: the shell
// completes it itself.
constexpr const char *complete_files = "@files";

// Values of a placeholder ("DEV", "TRANSPORT", "LISTENER") known to the
// kernel; may be empty (the module not loaded, say).
using CompleteLookup = std::function<std::vector<std::string>(const std::string &placeholder)>;

// The candidates for words[cword], given every word after "rdmactl"
// (cword may equal words.size(): a new, empty word).
std::vector<std::string> complete(const std::vector<std::string> &words, size_t cword,
                                  const CompleteLookup &lookup);

} // namespace rdmactl
