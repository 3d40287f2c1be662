// SPDX-License-Identifier: GPL-2.0
// Text and JSON output. Both are made from one description of the fields of
// each object (see output.cpp), so they show the same things.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "types.hpp"

namespace rdmactl {

struct OutputOptions {
    bool json = false;
    bool pretty = false;  // indent JSON
    bool details = false; // e.g. one line per port even for one port
};

// "5054:00ff:fe12:3456": four groups of four hex digits, most significant first.
std::string format_guid(uint64_t guid);

// "ACTIVE", ..., or the number for a state this tool does not know.
std::string port_state_name(uint32_t state);
std::string mode_name(uint32_t mode);

nlohmann::ordered_json device_json(const Device &dev);
nlohmann::ordered_json module_json(const ModuleInfo &info);

// One device: a line, plus an indented line per port when there are several
// ports (or always, with details). Every line ends with '\n'.
std::string device_text(const Device &dev, bool details);
std::string module_text(const ModuleInfo &info, bool details);

// JSON: an array of devices (also for a single one); text: device_text() each.
void print_devices(std::ostream &out, const std::vector<Device> &devs, const OutputOptions &opts);
void print_module(std::ostream &out, const ModuleInfo &info, const OutputOptions &opts);

} // namespace rdmactl
