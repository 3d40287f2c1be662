# SPDX-License-Identifier: GPL-2.0
# Installs the build (-DBUILD) under a scratch root (-DDEST) with prefix
# /usr/local and checks every file is where man and bash-completion look,
# and the output's JSON Schemas are where README.md says.
file(REMOVE_RECURSE ${DEST})
execute_process(COMMAND ${CMAKE_COMMAND} -E env DESTDIR=${DEST}
                        ${CMAKE_COMMAND} --install ${BUILD} --prefix /usr/local
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install: exit ${rc}\n${out}${err}")
endif()
foreach(f sbin/rdmactl share/man/man8/rdmactl.8 share/bash-completion/completions/rdmactl
          share/rdmactl/schema/stats-show.v1.json share/rdmactl/schema/monitor.v1.json)
    if(NOT EXISTS ${DEST}/usr/local/${f})
        message(FATAL_ERROR "not installed: /usr/local/${f}")
    endif()
endforeach()
execute_process(COMMAND ${DEST}/usr/local/sbin/rdmactl -V RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "^rdmactl ")
    message(FATAL_ERROR "installed rdmactl -V: exit ${rc}: ${out}")
endif()
file(REMOVE_RECURSE ${DEST})
