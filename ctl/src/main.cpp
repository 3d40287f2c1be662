// SPDX-License-Identifier: GPL-2.0
// rdmactl: show and configure xrpcrdma through its generic netlink family.
#include <iostream>

#include "commands.hpp"

int main(int argc, char **argv)
{
    return rdmactl::run(argc, argv, std::cout, std::cerr, rdmactl::make_netlink_client);
}
