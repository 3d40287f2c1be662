# SPDX-License-Identifier: GPL-2.0
# bash completion for rdmactl. The candidates come from rdmactl itself
# (`rdmactl __complete CWORD WORD...`), so they follow its grammar and, for
# device names and transport ids, the running kernel.

_rdmactl()
{
	local cur=${COMP_WORDS[COMP_CWORD]}
	local out

	out=$("${COMP_WORDS[0]}" __complete "$((COMP_CWORD - 1))" \
		"${COMP_WORDS[@]:1}" 2>/dev/null) || return 0
	if [[ $out == "@files" ]]; then
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return 0
	fi
	mapfile -t COMPREPLY <<<"$out"
	[[ -z ${COMPREPLY[0]} ]] && COMPREPLY=()
	return 0
}

complete -F _rdmactl rdmactl
