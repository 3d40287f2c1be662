// SPDX-License-Identifier: GPL-2.0
// XDR for the tests: 32-bit words as the wire carries them.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

namespace testing_helpers {

// The words, each big-endian, one after another.
inline std::vector<uint8_t> words(std::initializer_list<uint32_t> ws)
{
    std::vector<uint8_t> out;
    for (uint32_t w : ws)
        for (int shift = 24; shift >= 0; shift -= 8)
            out.push_back(uint8_t(w >> shift));
    return out;
}

} // namespace testing_helpers
