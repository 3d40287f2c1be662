#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unit test of scripts/trixie-root.sh's prune_roots on a made-up cache:
# after a new root is built, the roots but it and the newest other one
# go, as do unfinished builds a day old; a fresh unfinished build and
# anything not a root stay.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/trixie-root.sh
source "$top/scripts/trixie-root.sh"
set +e
# shellcheck source=tests/unit.sh
source "$top/tests/unit.sh"

# root NAME AGE: a directory of the cache, AGE (touch -d) old.
root() {
	mkdir -p "$tmp/$1/usr" && touch -d "$2" "$tmp/$1"
}

root trixie-root-aaaa "3 days ago"
root trixie-root-bbbb "2 days ago"
root trixie-root-cccc "1 hour ago"
root trixie-root-dddd "now"
root trixie-root-eeee.tmp "2 days ago"
root trixie-root-ffff.tmp "now"
root apt-trixie "5 days ago"
prune_roots "$tmp" "$tmp/trixie-root-dddd" 2>"$tmp/log"

for gone in trixie-root-aaaa trixie-root-bbbb trixie-root-eeee.tmp; do
	[ ! -e "$tmp/$gone" ] || fail "$gone was kept"
	grep -q "$gone" "$tmp/log" || fail "$gone went without a word"
done
for kept in trixie-root-cccc trixie-root-dddd trixie-root-ffff.tmp apt-trixie; do
	[ -d "$tmp/$kept" ] || fail "$kept was removed"
done

# The root just built is kept even when it is not the newest directory.
rm -rf "${tmp:?}"/*
root trixie-root-aaaa "now"
root trixie-root-bbbb "1 day ago"
root trixie-root-cccc "2 days ago"
prune_roots "$tmp" "$tmp/trixie-root-cccc" 2>/dev/null
[ -d "$tmp/trixie-root-cccc" ] || fail "the root just built was removed"
[ -d "$tmp/trixie-root-aaaa" ] || fail "the newest other root was removed"
[ ! -e "$tmp/trixie-root-bbbb" ] || fail "a third root was kept"

# Nothing else in the cache: nothing to remove, no error.
rm -rf "${tmp:?}"/*
root trixie-root-aaaa "now"
prune_roots "$tmp" "$tmp/trixie-root-aaaa" 2>"$tmp/log" || fail "prune_roots failed alone"
if [ ! -d "$tmp/trixie-root-aaaa" ] || [ -s "$tmp/log" ]; then fail "a lone root was touched"; fi

if [ "$failures" -eq 0 ]; then
	echo "trixie-root: prune_roots ok"
	exit 0
fi
echo "trixie-root: $failures failure(s)"
exit 1
