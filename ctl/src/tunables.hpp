// SPDX-License-Identifier: GPL-2.0
// The tunables of config-get and config-set: their names and attributes in
// the spec's order, and their ranges from the spec's constants. The module
// checks the ranges; rdmactl only shows them (config help).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rdmactl {

struct Tunable {
    const char *name; // the attribute's name in the spec
    uint16_t attr;    // XRPCRDMA_A_CONFIG_*
    uint32_t min;
    uint32_t max;
    uint32_t def;
    const char *unit;
};

// Every tunable, in the order of the spec's attributes.
const std::vector<Tunable> &tunables();

// The tunable called name, or nullptr.
const Tunable *find_tunable(const std::string &name);

// The tunable whose attribute is attr, or nullptr.
const Tunable *find_tunable(uint16_t attr);

} // namespace rdmactl
