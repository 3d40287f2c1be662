// SPDX-License-Identifier: GPL-2.0
// rdmactl(8), made from the usage texts (see usage_text.hpp).
#pragma once

#include <string>

namespace rdmactl {

// The manual page in man(7) format, for rdmactl of that version.
std::string man_page(const std::string &version);

// Text escaped for roff: backslashes, hyphens as minus signs, and a line
// that would start with a control character.
std::string roff_escape(const std::string &text);

} // namespace rdmactl
