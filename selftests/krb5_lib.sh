# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# krb5_lib.sh - a Kerberos realm in a test-host guest, for NFS with
# sec=krb5, krb5i and krb5p. Source it after nfs_lib.sh.
#
# krb5_realm_start writes everything in the guest, whose root is an
# overlay that vanishes with it: /etc/krb5.conf, /etc/hosts, the default
# keytab /etc/krb5.keytab, and a KDC database under $KRB5_RUN. It starts
# an MIT KDC (krb5kdc) as a background job, with host and nfs principals
# for every test-host address and their keys in the keytab. The guest's
# host name becomes the name its address resolves to, which is what
# rpc.gssd and rpc.svcgssd look their keys up by. krb5_gss_start runs
# rpc.svcgssd (nfsd's context upcall) and rpc.gssd (the client's); both
# need rpc_pipefs and the nfsd file system, which nfs_server_start mounts,
# so call it after that. Every change is undone by krb5_realm_stop.
#
# Only aes256-cts-hmac-sha1-96 keys are made: every kernel the tests run
# on supports it for RPCSEC_GSS.
#
# Knobs (environment):
#   XR_KRB5_KDC_ADDR   address of the KDC (default $XR_ADDR: this guest);
#                      a guest that is not the KDC only writes its config
#                      and the keytab it finds in $XR_KRB5_SHARED.
#   XR_KRB5_SHARED     a directory both guests of a pair see: the KDC's
#                      guest puts the keytab there for the other one.

KRB5_REALM=XRPCRDMA.TEST
KRB5_DOMAIN=xrpcrdma.test
KRB5_RUN=$NFS_RUN/krb5
KRB5_KEYTAB=/etc/krb5.keytab
KRB5_ENCTYPE=aes256-cts-hmac-sha1-96
# Every address the test hosts use, single guest and pair.
KRB5_ADDRS="10.99.0.1 10.99.0.2"
KRB5_TOOLS="krb5kdc kdb5_util kadmin.local kinit klist rpc.gssd rpc.svcgssd"

# krb5_missing_tools: the tools the realm and the GSS daemons need that
# are not installed; empty output means all are.
krb5_missing_tools() {
	local t

	for t in $KRB5_TOOLS; do
		command -v "$t" >/dev/null || echo "$t"
	done
	for t in auth_rpcgss rpcsec_gss_krb5; do
		modprobe -n -q "$t" 2>/dev/null || echo "module:$t"
	done
}

# krb5_host_name ADDR: the host name a test-host address resolves to.
krb5_host_name() {
	echo "xr-${1//./-}.$KRB5_DOMAIN"
}

# Save a file the realm replaces (once), to be put back by krb5_realm_stop.
krb5_save() {
	local f=$1 b

	b=$KRB5_RUN/saved/${f//\//_}
	[ -e "$b" ] || [ -e "$b.none" ] && return 0
	if [ -e "$f" ]; then
		cp -p "$f" "$b"
	else
		: >"$b.none"
	fi
}

krb5_restore_all() {
	local b f

	for b in "$KRB5_RUN"/saved/*; do
		[ -e "$b" ] || continue
		f=${b##*/}
		case "$f" in
		*.none) f=${f%.none}; rm -f "${f//_//}" ;;
		*) cat "$b" >"${f//_//}" ;;
		esac
		rm -f "$b"
	done
}

krb5_write_config() {
	local kdc=$1 a

	krb5_save /etc/krb5.conf && krb5_save /etc/hosts && krb5_save "$KRB5_KEYTAB" || return 1
	cat >/etc/krb5.conf <<-EOF || return 1
	[libdefaults]
	    default_realm = $KRB5_REALM
	    dns_lookup_kdc = false
	    dns_lookup_realm = false
	    rdns = false
	    permitted_enctypes = $KRB5_ENCTYPE
	    default_tkt_enctypes = $KRB5_ENCTYPE
	    default_tgs_enctypes = $KRB5_ENCTYPE
	[realms]
	    $KRB5_REALM = {
	        kdc = $kdc
	    }
	[domain_realm]
	    .$KRB5_DOMAIN = $KRB5_REALM
	    $KRB5_DOMAIN = $KRB5_REALM
	EOF
	{
		echo "127.0.0.1 localhost"
		for a in $KRB5_ADDRS; do
			echo "$a $(krb5_host_name "$a") $(krb5_host_name "$a" | cut -d. -f1)"
		done
	} >/etc/hosts || return 1
	[ -e "$KRB5_RUN/hostname.orig" ] || hostname >"$KRB5_RUN/hostname.orig"
	hostname "$(krb5_host_name "$XR_ADDR")"
}

krb5_write_kdc_conf() {
	cat >"$KRB5_RUN/kdc.conf" <<-EOF
	[kdcdefaults]
	    kdc_ports = 88
	    kdc_tcp_ports = 88
	[realms]
	    $KRB5_REALM = {
	        database_name = $KRB5_RUN/principal
	        key_stash_file = $KRB5_RUN/stash
	        acl_file = $KRB5_RUN/kadm5.acl
	        supported_enctypes = $KRB5_ENCTYPE:normal
	        master_key_type = $KRB5_ENCTYPE
	        max_life = 10h
	    }
	EOF
}

# The KDC answers: a ticket for the nfs key of this guest from the keytab.
krb5_kdc_answers() {
	KRB5CCNAME=FILE:$KRB5_RUN/probe.cc kinit -k -t "$KRB5_KEYTAB" \
		"nfs/$(krb5_host_name "$XR_ADDR")@$KRB5_REALM" &&
		KRB5CCNAME=FILE:$KRB5_RUN/probe.cc klist -s
}

# krb5_kdc_start: a fresh database with host/ and nfs/ principals for
# every test-host address, their keys in the keytab, and the KDC.
krb5_kdc_start() {
	local a p q=

	export KRB5_KDC_PROFILE=$KRB5_RUN/kdc.conf
	krb5_write_kdc_conf || return 1
	: >"$KRB5_RUN/kadm5.acl"
	if [ ! -e "$KRB5_RUN/principal" ]; then
		kdb5_util -r "$KRB5_REALM" create -s -P "xr-$RANDOM-$RANDOM" >/dev/null ||
			fail "kdb5_util create" || return 1
		rm -f "$KRB5_KEYTAB"
		for a in $KRB5_ADDRS; do
			for p in host nfs; do
				q+="addprinc -randkey -e $KRB5_ENCTYPE:normal $p/$(krb5_host_name "$a")"$'\n'
			done
		done
		for a in $KRB5_ADDRS; do
			for p in host nfs; do
				q+="ktadd -k $KRB5_KEYTAB -e $KRB5_ENCTYPE:normal $p/$(krb5_host_name "$a")"$'\n'
			done
		done
		kadmin.local -r "$KRB5_REALM" >"$KRB5_RUN/kadmin.log" 2>&1 <<<"$q" ||
			{ sed 's/^/# /' "$KRB5_RUN/kadmin.log"; fail "kadmin.local"; } || return 1
	fi
	nfs_daemon krb5kdc krb5kdc -n -r "$KRB5_REALM"
	wait_for 20 krb5_kdc_answers ||
		{ nfs_daemon_log krb5kdc; fail "the KDC gives no ticket"; } || return 1
	[ -z "${XR_KRB5_SHARED:-}" ] || cp "$KRB5_KEYTAB" "$XR_KRB5_SHARED/krb5.keytab"
}

# krb5_realm_start: the realm's configuration in this guest, and its KDC
# unless XR_KRB5_KDC_ADDR names another guest (whose keytab then is
# taken from $XR_KRB5_SHARED). Idempotent.
krb5_realm_start() {
	local kdc=${XR_KRB5_KDC_ADDR:-$XR_ADDR} t0=$SECONDS

	[ -n "${XR_TESTHOST:-}" ] || fail "not in the test host: would rewrite /etc/krb5.conf" ||
		return 1
	mkdir -p "$KRB5_RUN/saved" || return 1
	krb5_write_config "$(krb5_host_name "$kdc")" || fail "writing the Kerberos config" ||
		return 1
	if [ "$kdc" = "$XR_ADDR" ]; then
		krb5_kdc_start || return 1
	else
		cp "$XR_KRB5_SHARED/krb5.keytab" "$KRB5_KEYTAB" || fail "no keytab from the KDC" ||
			return 1
	fi
	modprobe -a auth_rpcgss rpcsec_gss_krb5 || fail "modprobe rpcsec_gss_krb5" || return 1
	echo "# realm $KRB5_REALM (KDC $kdc) ready in $((SECONDS - t0)) s; host $(hostname)"
}

# krb5_daemon_has_fd NAME PATTERN: daemon NAME has a descriptor open on
# a file matching PATTERN.
krb5_daemon_has_fd() {
	local pid

	pid=$(nfs_pid "$1")
	[ -n "$pid" ] && [ -n "$(find "/proc/$pid/fd" -lname "$2" 2>/dev/null)" ]
}

# krb5_gss_start: rpc.svcgssd and rpc.gssd (or those named in
# KRB5_GSS_DAEMONS: svcgssd, gssd), after nfs_server_start mounted
# rpc_pipefs.
krb5_gss_start() {
	local pipefs d=${KRB5_GSS_DAEMONS:-svcgssd gssd}

	pipefs=$(nfs_pipefs_dir)
	nfs_is_mounted "$pipefs" rpc_pipefs || fail "rpc_pipefs not mounted" || return 1
	if [[ " $d " == *" svcgssd "* ]]; then
		nfs_daemon svcgssd rpc.svcgssd -f
		# It holds nfsd's context channel open once it is up.
		wait_for 20 krb5_daemon_has_fd svcgssd "*auth.rpcsec.init*" ||
			{ nfs_daemon_log svcgssd; fail "rpc.svcgssd did not open its channel"; } ||
			return 1
	fi
	[[ " $d " == *" gssd "* ]] || return 0
	nfs_daemon gssd rpc.gssd -f -p "$pipefs"
	wait_for 20 krb5_daemon_has_fd gssd "anon_inode:inotify" ||
		{ nfs_daemon_log gssd; fail "rpc.gssd did not start"; }
}

krb5_gss_stop() {
	nfs_daemon_stop gssd
	nfs_daemon_stop svcgssd
}

# krb5_realm_stop: stop the daemons and put every file back. Safe to call
# at any point, and twice.
krb5_realm_stop() {
	krb5_gss_stop
	nfs_daemon_stop krb5kdc
	[ -d "$KRB5_RUN" ] || return 0
	krb5_restore_all
	[ -s "$KRB5_RUN/hostname.orig" ] && hostname "$(cat "$KRB5_RUN/hostname.orig")"
	rm -rf "$KRB5_RUN"
}
