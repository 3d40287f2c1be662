# SPDX-License-Identifier: GPL-2.0
# apt-mirror.sh - sourced by deps.sh and trixie-root.sh: apt_mirror
# prints the mirror apt already uses for Debian's main archive (trixie
# and the backports suites live there too): the first deb822 "URIs:" of
# a stanza whose suites name bookworm, else the first one-line "deb"
# entry for bookworm. Never a host of our own choosing.

apt_mirror() {
	local f

	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk '/^[Uu][Rr][Ii][Ss]:/ { uri = $2 }
		     /^[Ss]uites:/ && / bookworm( |$)/ { suite = 1 }
		     /^$/ { if (suite && uri) { print uri; exit } uri = ""; suite = 0 }
		     END { if (suite && uri) print uri }' "$f"
	done | head -n 1 | grep . && return 0
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		awk '$1 == "deb" && $0 ~ / bookworm / { for (i = 2; i <= NF; i++)
			if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' | head -n 1 | grep .
}
