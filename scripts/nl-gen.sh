#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Generate every file that comes from the netlink spec, with the kernel's
# ynl-gen-c, into OUTDIR (the repository for `make regen`, a scratch
# directory for the staleness check of `make check`):
#   uapi/linux/xrpcrdma.h          the UAPI header
#   module/nl-gen.{c,h}            split ops (Linux 6.2 and later)
#   module/nl-gen-legacy.{c,h}     per-op form (Linux 6.1), same spec
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
ksrc=${1:?usage: nl-gen.sh KERNEL_SRC OUTDIR}
out=${2:?usage: nl-gen.sh KERNEL_SRC OUTDIR}
ksrc=$(cd "$ksrc" && pwd)
mkdir -p "$out/uapi/linux" "$out/module"
out=$(cd "$out" && pwd)

specs=Documentation/netlink/specs
spec=$specs/xrpcrdma.yaml
legacy=$specs/xrpcrdma-legacy.yaml
gen="python3 tools/net/ynl/ynl-gen-c.py"

# ynl-gen finds the schemas relative to the spec: run it inside the tree.
cp "$top/$spec" "$ksrc/$spec"
python3 "$top/scripts/nl-legacy-spec.py" "$top/$spec" "$ksrc/$legacy"

cd "$ksrc"
$gen --mode uapi --header --spec "$spec" -o "$out/uapi/linux/xrpcrdma.h"
$gen --mode kernel --header --spec "$spec" -o "$out/module/nl-gen.h"
$gen --mode kernel --source --spec "$spec" -o "$out/module/nl-gen.c"
$gen --mode kernel --header --spec "$legacy" -o "$out/module/nl-gen-legacy.h"
$gen --mode kernel --source --spec "$legacy" -o "$out/module/nl-gen-legacy.c"

# Name the real spec as the source of the per-op form.
sed -i "s|^/\*\t$legacy \*/\$|/*\t$spec (per-op form, scripts/nl-legacy-spec.py) */|" \
	"$out/module/nl-gen-legacy.h" "$out/module/nl-gen-legacy.c"
