// SPDX-License-Identifier: GPL-2.0
// nfsd's control files: making nfsd listen on a transport class. A kernel
// module cannot reach nfsd's service to add a listener to it, so this is
// done the way rpc.nfsd does it: by writing "CLASS PORT" to
// /proc/fs/nfsd/portlist, which makes nfsd listen on every IPv4 and IPv6
// address. Nothing here knows netlink.
#pragma once

#include <cstdint>
#include <string>

namespace rdmactl {

constexpr const char *nfsd_control_dir = "/proc/fs/nfsd";

// Makes the running nfsd listen on PORT through the transport class CLS.
// Throws Error, with a message saying what went wrong and what to do,
// when nfsd is not running (its file system is not mounted, or it has no
// threads) or refuses (permission, address in use, unknown class).
void nfsd_add_listener(const std::string &cls, uint16_t port,
                       const std::string &dir = nfsd_control_dir);

} // namespace rdmactl
