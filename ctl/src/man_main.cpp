// SPDX-License-Identifier: GPL-2.0
// rdmactl_man FILE: writes rdmactl(8) to FILE (a build step).
#include <fstream>
#include <iostream>

#include "manpage.hpp"

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::cerr << "usage: rdmactl_man FILE\n";
        return 2;
    }
    std::ofstream file(argv[1]);
    file << rdmactl::man_page(RDMACTL_VERSION);
    file.close();
    if (!file) {
        std::cerr << "rdmactl_man: cannot write " << argv[1] << '\n';
        return 1;
    }
    return 0;
}
