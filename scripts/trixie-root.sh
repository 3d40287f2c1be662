#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds, once, a Debian 13 (trixie) root holding gcc-14, the newest 7.x
# kernel of trixie-backports (image, headers and source) and the userland
# the selftests need, so that the module can be built for that kernel and
# a test host can boot it with Debian 13's nfs-utils and rdma-core.
# Debian 12 can run neither trixie's kbuild tools nor gcc-14, hence a
# whole root rather than headers alone.
#
# The root is kept under /var/cache/xrpcrdma, in a directory named by a
# hash of the suite and the package list, and build/trixie-root is a
# symbolic link to it: a fresh clone of the repository on the same machine
# (as CI makes) finds it there and does not build it again; a change of the
# package list builds a new one. With the root present, nothing here
# touches the network. A new root (about 900 MB) retires the older ones
# but the newest of them, which a checkout of an earlier commit may
# still link to, and leftovers of builds cut short a day ago or more.
#
# usage: trixie-root.sh TOP   (the top of the work tree)

set -euo pipefail

readonly SUITE=trixie BACKPORTS=trixie-backports
# sparse 0.6.4 (trixie's, bookworm's) cannot read 7.x headers: under
# __CHECKER__ they use __typeof_unqual__, which 0.6.5~rc1 (unstable's)
# understands. Its sparse binary needs only libc and goes to the root's
# /usr/local/bin.
readonly SPARSE_SUITE=sid
readonly CACHE=/var/cache/xrpcrdma
readonly KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
# A kernel line newer than this is not picked up by chance: 7.x only.
readonly KLINE_RE='7\.[0-9]+\.[0-9]+\+deb13'

# The Debian 13 userland the build and the guests use. Kernel packages
# are added once the newest of trixie-backports is known.
readonly PKGS=(
	gcc-14 make libc6-dev bc kmod sparse libelf-dev xz-utils dkms
	busybox-static iproute2 procps psmisc util-linux e2fsprogs
	rdma-core ibverbs-utils rdmacm-utils perftest
	nfs-kernel-server nfs-common rpcbind
	krb5-kdc krb5-admin-server krb5-user
	fio tcpdump jq python3 python3-yaml python3-jsonschema
	libnl-3-200 libnl-genl-3-200 libstdc++6
)

die() {
	echo "trixie-root: $*" >&2
	exit 1
}

# apt_mirror: the mirror apt already uses.
source "$(dirname "${BASH_SOURCE[0]}")/apt-mirror.sh"

# The cache key: what the root is made of, not when it was made.
root_key() {
	printf '%s\n' "$SUITE" "$BACKPORTS" "$KLINE_RE" "${PKGS[@]}" \
		"sparse from $SPARSE_SUITE" "checker-valid.sh" |
		sha256sum | cut -c1-16
}

# apt-get/apt-cache options for a private view of trixie's package lists,
# which never touches the host's own apt state.
apt_opts() {
	local d=$1

	printf '%s\n' -o "Dir::Etc::SourceList=$d/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null -o "Dir::State::Lists=$d/lists" \
		-o "Dir::Cache=$d/cache" -o Dir::State::status=/dev/null \
		-o APT::Architecture=amd64 -o Debug::NoLocking=1
}

# Fresh package lists of SUITES from MIRROR in the private apt view D.
apt_view() {
	local d=$1 mirror=$2 s
	local -a o

	shift 2
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial"
	for s in "$@"; do
		printf 'deb [signed-by=%s] %s %s main\n' "$KEYRING" "$mirror" "$s"
	done >"$d/sources.list"
	mapfile -t o < <(apt_opts "$d")
	apt-get "${o[@]}" -qq update >&2 || die "cannot read $*'s package lists"
}

# The newest 7.x kernel trixie-backports offers, as "VERSION PACKAGE"
# (e.g. "7.3.4+deb13 linux-image-7.3.4+deb13-amd64"); an -unsigned image
# package is taken as well as a signed one.
newest_kernel() {
	local d=$1 mirror=$2
	local -a o

	apt_view "$d" "$mirror" "$SUITE" "$BACKPORTS"
	mapfile -t o < <(apt_opts "$d")
	apt-cache "${o[@]}" search --names-only "^linux-image-$KLINE_RE-amd64(-unsigned)?\$" |
		sed -nE "s/^(linux-image-($KLINE_RE)-amd64(-unsigned)?) .*/\\2 \\1/p" |
		sort -V | tail -n 1
}

# Sparse that can check a module against 7.x headers (see SPARSE_SUITE),
# and the kernel's scripts/checker-valid.sh, which C=1/C=2 runs first and
# Debian's headers package leaves out.
add_checker() {
	local dir=$1 mirror=$2 d=$CACHE/apt-$SPARSE_SUITE tmp line
	local -a o

	apt_view "$d" "$mirror" "$SPARSE_SUITE"
	mapfile -t o < <(apt_opts "$d")
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get "${o[@]}" -o APT::Sandbox::User=root -qq download sparse) >&2 ||
		die "cannot download sparse from $SPARSE_SUITE"
	dpkg-deb -x "$tmp"/sparse_*.deb "$tmp/x"
	install -D -m 0755 "$tmp/x/usr/bin/sparse" "$dir/usr/local/bin/sparse"
	rm -rf "$tmp"
	for line in "$dir"/usr/src/linux-source-*.tar.xz; do
		tar -xJf "$line" -O --wildcards '*/scripts/checker-valid.sh' \
			>"$tmp.cv" || die "no checker-valid.sh in $line"
	done
	for line in "$dir"/usr/src/linux-headers-*-common/scripts; do
		install -m 0755 "$tmp.cv" "$line/checker-valid.sh"
	done
	rm -f "$tmp.cv"
	[[ $(chroot "$dir" /usr/bin/env PATH=/usr/local/bin:/usr/bin:/bin \
		/bin/sh "${line#"$dir"}/checker-valid.sh" sparse 2>/dev/null) == 1 ]] ||
		die "sparse from $SPARSE_SUITE cannot check the 7.x headers either"
}

build_root() {
	local dir=$1 mirror kern kver image line start

	mirror=$(apt_mirror) || die "no bookworm source in apt's configuration to take a mirror from"
	gpg --show-keys "$KEYRING" 2>/dev/null | grep -q "(13/$SUITE)" ||
		die "$KEYRING has no Debian 13 key (debian-archive-keyring too old)"
	kern=$(newest_kernel "$CACHE/apt-$SUITE" "$mirror")
	[[ -n $kern ]] || die "no 7.x kernel in $BACKPORTS"
	kver=${kern%% *}
	image=${kern#* }
	line=${kver%.*}
	echo "trixie-root: building a $SUITE root with $image in $dir" >&2
	start=$SECONDS
	rm -rf "$dir.tmp"
	# shellcheck disable=SC2016 # $1 is the hooks' argument, not ours
	# apt pins backports low; the kernel and what it needs newer
	# (linux-base) are pinned up to trixie's level, the rest stays trixie's.
	mmdebstrap --variant=required --mode=root --format=directory \
		--keyring="$KEYRING" \
		--include="$(
			IFS=,
			echo "${PKGS[*]},$image,linux-headers-$kver-amd64,linux-source-$line"
		)" \
		--aptopt='Apt::Install-Recommends "false"' \
		--dpkgopt='path-exclude=/usr/share/doc/*' \
		--dpkgopt='path-exclude=/usr/share/man/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' \
		--setup-hook="mkdir -p \"\$1/etc/apt/preferences.d\" && printf '%s\\n' \
			'Package: linux-base linux-base-* linux-image-* linux-headers-* linux-kbuild-* linux-source-*' \
			'Pin: release n=$BACKPORTS' 'Pin-Priority: 500' \
			>\"\$1/etc/apt/preferences.d/xrpcrdma-kernel\"" \
		--customize-hook='rm -rf "$1"/var/cache/apt/archives/*.deb "$1"/var/lib/apt/lists/*_Packages' \
		"$SUITE" "$dir.tmp" \
		"deb $mirror $SUITE main" "deb $mirror $BACKPORTS main" >&2 ||
		die "mmdebstrap failed"
	add_checker "$dir.tmp" "$mirror"
	mv "$dir.tmp" "$dir"
	echo "trixie-root: built in $((SECONDS - start)) s, $(du -sh "$dir" | cut -f1)" >&2
}

# prune_roots CACHE DIR: after DIR was built in CACHE, delete the roots
# of CACHE but DIR and the newest other one, and unfinished builds
# (*.tmp) older than a day. Prints what it deletes.
prune_roots() {
	local cache=$1 keep=$2 d
	local -a old=()

	while IFS= read -r d; do
		[[ $d == "$keep" ]] || old+=("$d")
	done < <(find "$cache" -mindepth 1 -maxdepth 1 -type d -name "$SUITE-root-*" \
		! -name '*.tmp' -printf '%T@ %p\n' | sort -rn | cut -d' ' -f2-)
	for d in "${old[@]:1}"; do
		echo "trixie-root: removing the older root $d" >&2
		rm -rf -- "$d"
	done
	while IFS= read -r d; do
		echo "trixie-root: removing the unfinished $d" >&2
		rm -rf -- "$d"
	done < <(find "$cache" -mindepth 1 -maxdepth 1 -type d -name "$SUITE-root-*.tmp" -mtime +0)
}

main() {
	local top=$1 dir link

	[[ -d $top ]] || die "usage: trixie-root.sh TOP"
	dir=$CACHE/$SUITE-root-$(root_key)
	link=$top/build/trixie-root
	if [[ ! -d $dir ]]; then
		command -v mmdebstrap >/dev/null || die "mmdebstrap missing (make deps)"
		[[ $(id -u) == 0 ]] || die "building the root needs root"
		mkdir -p "$CACHE"
		# Another checkout's make deps may be building the same root in
		# the same place: wait for it, then use what it built.
		exec 9>"$CACHE/.$SUITE-root.lock"
		flock -n 9 || {
			echo "trixie-root: waiting for another build of the root" >&2
			flock 9
		}
	fi
	if [[ ! -d $dir ]]; then
		build_root "$dir"
		prune_roots "$CACHE" "$dir"
	fi
	mkdir -p "$top/build"
	[[ $(readlink "$link" 2>/dev/null) == "$dir" ]] || ln -sfn "$dir" "$link"
}

# Sourced (tests/trixie-root/run.sh), it only defines the functions.
[[ ${BASH_SOURCE[0]} != "$0" ]] || main "$@"
