/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim.h - the few kernel names module/proto*.c use, for building it in
 * userspace (host unit tests and the fuzzer). Only proto.h includes this;
 * nothing here may be needed by the kernel build.
 */
#ifndef XR_KSHIM_H
#define XR_KSHIM_H

#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define __bitwise
#define __force

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef unsigned int __bitwise __be32;

#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)
#define BIT(n)		(1UL << (n))

#define cpu_to_be32(x)	((__force __be32)htobe32(x))
#define be32_to_cpu(x)	be32toh((__force u32)(x))
#define be32_to_cpup(p)	be32toh(*(const u32 *)(p))

#endif /* XR_KSHIM_H */
