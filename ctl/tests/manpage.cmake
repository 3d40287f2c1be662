# SPDX-License-Identifier: GPL-2.0
# Checks the generated rdmactl(8) (-DPAGE=path): groff finds nothing to warn
# about, and man renders it with every section.
if(NOT EXISTS ${PAGE})
    message(FATAL_ERROR "${PAGE} was not generated")
endif()
execute_process(COMMAND groff -man -Tutf8 -ww -z ${PAGE}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
    message(FATAL_ERROR "groff: exit ${rc}:\n${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env MANWIDTH=80 LC_ALL=C.UTF-8
                        man --nh --nj -P cat -l ${PAGE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
    message(FATAL_ERROR "man -l: exit ${rc}:\n${err}")
endif()
foreach(needle "RDMACTL(8)" "NAME" "SYNOPSIS" "DESCRIPTION" "OPTIONS" "COMMANDS" "EXIT STATUS"
        "SEE ALSO" "rdmactl [OPTIONS] dev set NAME enabled { on | off }" "--raw FILE"
        "CAP_NET_ADMIN")
    string(FIND "${out}" "${needle}" pos)
    if(pos EQUAL -1)
        message(FATAL_ERROR "man -l: '${needle}' missing from:\n${out}")
    endif()
endforeach()
