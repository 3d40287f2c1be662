#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Capture the wire fuzzer's seed corpus again (make wire-corpus): two
# test-host guests on kernel KVER, the in-tree NFS client on one and nfsd
# over the in-tree server on the other (tests/wire-fuzz/capture.sh), then
# one corpus file per kind of call the client sent
# (tests/wire-fuzz/capture-parse.py) into tests/wire-fuzz/corpus/captured. The capture itself is kept as
# build/wire-corpus/client.pcap.
#
#   scripts/wire-corpus.sh KVER
set -euo pipefail

top=$(cd "$(dirname "$(realpath "$0")")/.." && pwd)
kver=${1:?usage: wire-corpus.sh KVER}
out=$top/build/wire-corpus

command -v tcpdump >/dev/null || { echo "tcpdump missing: make deps" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out/share" "$out/logs"
"$top/selftests/testhost/pair.sh" --kernel "$kver" --timeout 900 \
	--logs "$out/logs" --share "$out/share" -- "$top/tests/wire-fuzz/capture.sh"
mv "$out/share/client.pcap" "$out/client.pcap"
python3 "$top/tests/wire-fuzz/capture-parse.py" "$out/client.pcap"
