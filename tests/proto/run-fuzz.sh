#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-fuzz.sh [SECONDS] - build the libFuzzer target for module/proto*.c
# with clang (ASan + UBSan) into build/proto-fuzz and run it for SECONDS
# (default 60), starting from the seed corpus in tests/proto/corpus.
# New inputs go to build/proto-fuzz/corpus; a crash leaves its input in
# build/proto-fuzz/ and the script exits non-zero.
set -euo pipefail

secs=${1:-60}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=$top/build/proto-fuzz
cc=${CLANG:-clang}

case $secs in
''|*[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;;
esac

mkdir -p "$out/corpus"
"$cc" -std=gnu11 -g -O1 -Wall -Wextra -Werror \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-I"$top/module" -I"$here" \
	"$here/fuzz_decode.c" "$top/module/proto.c" "$top/module/proto_encode.c" \
	-o "$out/proto_fuzz"

export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
exec "$out/proto_fuzz" -max_total_time="$secs" -print_final_stats=1 \
	-artifact_prefix="$out/" "$out/corpus" "$here/corpus"
