#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/header-check.sh [KVER...]: every module header compiles on its
# own, against each kernel's headers (default: every kernel whose build
# tree is installed here), with -Werror: one C file per header, which
# includes that header and nothing else. The module must have been built
# for the kernel first (`make module KVER=...`): its feature probes
# (conftest.h) and the uapi header come from that build.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
kvers=("$@")
if [ ${#kvers[@]} -eq 0 ]; then
	for d in /lib/modules/*/build; do
		[ -f "$d/Makefile" ] && kvers+=("$(basename "$(dirname "$d")")")
	done
fi
[ ${#kvers[@]} -gt 0 ] || { echo "header-check: no kernel headers installed (make deps)"; exit 1; }

for kver in "${kvers[@]}"; do
	kmod=$top/build/kmod/$kver
	out=$top/build/header-check/$kver
	[ -f "$kmod/module/conftest.h" ] ||
		{ echo "header-check: build the module for $kver first"; exit 1; }
	rm -rf "$out"
	mkdir -p "$out/module"
	cp -r "$kmod/uapi" "$out/"
	cp "$top"/module/*.h "$kmod/module/conftest.h" "$out/module/"
	objs=()
	for h in "$top"/module/*.h; do
		name=$(basename "$h" .h)
		# Generated from the spec: included by the files built with them.
		case $name in nl-gen*) continue ;; esac
		printf '#include "%s.h"\n' "$name" >"$out/module/hc_$name.c"
		objs+=("hc_$name.o")
	done
	printf '#include <linux/module.h>\nMODULE_LICENSE("GPL");\n' >"$out/module/hc_main.c"
	{
		echo "obj-m := hc.o"
		echo "hc-y := hc_main.o ${objs[*]}"
		echo 'ccflags-y := -I$(src)/.. -I$(src) -Werror'
	} >"$out/module/Kbuild"
	make -s -C "/lib/modules/$kver/build" M="$out/module" modules
	echo "header-check: ${#objs[@]} headers compile alone on $kver"
done
