# SPDX-License-Identifier: GPL-2.0
# Runs the rdmactl binary (-DRDMACTL=path) and checks exit codes and messages.

function(check_run expected_rc stream needle)
    execute_process(COMMAND ${RDMACTL} ${ARGN}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL expected_rc)
        message(FATAL_ERROR "rdmactl ${ARGN}: exit ${rc}, expected ${expected_rc}\n${out}${err}")
    endif()
    string(FIND "${${stream}}" "${needle}" pos)
    if(pos EQUAL -1)
        message(FATAL_ERROR "rdmactl ${ARGN}: '${needle}' not in ${stream}:\n${${stream}}")
    endif()
endfunction()

check_run(0 out "Usage: rdmactl [OPTIONS] OBJECT" --help)
# Output that cannot be written is an error, with the reason.
if(EXISTS /dev/full)
    execute_process(COMMAND ${RDMACTL} --help RESULT_VARIABLE rc OUTPUT_FILE /dev/full
                    ERROR_VARIABLE err)
    if(NOT rc EQUAL 1 OR NOT err STREQUAL "rdmactl: cannot write the output: No space left on device\n")
        message(FATAL_ERROR "rdmactl --help >/dev/full: exit ${rc}, ${err}")
    endif()
endif()
check_run(0 out "Usage: rdmactl [OPTIONS] dev" dev help)
check_run(0 out "rdmactl " -V)
check_run(2 err "rdmactl: unknown object 'bogus'" bogus)
check_run(2 err "rdmactl: 'dev set' needs a device name" dev set)
check_run(2 err "rdmactl: no object given")
check_run(0 out "Usage: rdmactl [OPTIONS] listener" listener help)
check_run(2 err "rdmactl: nfsd listens on every address" listener add 10.0.0.1:20050)
check_run(0 out "Usage: rdmactl [-j [-p]] ping" ping help)
check_run(2 err "rdmactl: 'ping' needs an address" ping)
check_run(2 err "rdmactl: invalid count 'x'" ping -c x 10.0.0.1)
check_run(0 out "Usage: rdmactl [OPTIONS] bench [run] ADDR[:PORT]" bench help)
check_run(2 err "rdmactl: 'bench run' needs an address: ADDR[:PORT]" bench)
check_run(2 err "rdmactl: invalid transport 'udp'" bench 10.0.0.1 transport udp)
check_run(2 err "rdmactl: 'size' needs op rdma-write or rdma-read" bench 10.0.0.1 size 1M)
check_run(0 out "Usage: rdmactl [-j] [-d] monitor" monitor help)
check_run(2 err "rdmactl: unexpected argument 'now' for 'monitor'" monitor now)
check_run(1 err "rdmactl: cannot open /nonexistent/dir/log" monitor --log /nonexistent/dir/log)
# No RDMA server there (nor, mostly, an RDMA device): an error, in bounded time.
check_run(1 err "rdmactl: " ping -t 2 -c 1 127.0.0.1:9)

# Without the module the family is missing; with it, the command works.
execute_process(COMMAND ${RDMACTL} dev show RESULT_VARIABLE rc ERROR_VARIABLE err)
set(missing "rdmactl: the xrpcrdma module is not loaded (generic netlink family \"xrpcrdma\" not found)\n")
if(NOT (rc EQUAL 0 OR (rc EQUAL 1 AND err STREQUAL missing)))
    message(FATAL_ERROR "rdmactl dev show: exit ${rc}: ${err}")
endif()
