# SPDX-License-Identifier: GPL-2.0
# Runs xr-metaload (-DMETALOAD=path) in a scratch directory (-DWORK=dir):
# its counts and JSON, the same mix again from the same seed, a usage
# error, and an unexpected error that stops it with a message.
cmake_minimum_required(VERSION 3.19) # string(JSON)

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

# metaload(RC OUT ERR ARGS...): run it; its exit status, stdout, stderr.
function(metaload rc_var out_var err_var)
    execute_process(COMMAND ${METALOAD} ${ARGN}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    set(${rc_var} ${rc} PARENT_SCOPE)
    set(${out_var} "${out}" PARENT_SCOPE)
    set(${err_var} "${err}" PARENT_SCOPE)
endfunction()

function(check cond)
    if(NOT (${ARGN}))
        message(FATAL_ERROR "xr-metaload: ${cond}")
    endif()
endfunction()

# kind_counts(VAR JSON): "create=N write=N ..." of a result.
function(kind_counts var json)
    set(s "")
    foreach(k create write stat rename unlink readdir)
        string(JSON n GET "${json}" kinds ${k} ops)
        string(APPEND s "${k}=${n} ")
    endforeach()
    set(${var} "${s}" PARENT_SCOPE)
endfunction()

# Three workers, 300 operations each: 900 in all, every kind done, and
# nothing left behind.
metaload(rc out err -w 3 -t 0 -n 300 --files 8 ${WORK})
check("exit ${rc}: ${err}" rc EQUAL 0)
string(JSON workers GET "${out}" workers)
string(JSON ops GET "${out}" ops)
string(JSON ops_s GET "${out}" ops_s)
string(JSON p50 GET "${out}" p50_us)
string(JSON p99 GET "${out}" p99_us)
check("workers ${workers}" workers EQUAL 3)
check("ops ${ops}" ops EQUAL 900)
check("ops_s ${ops_s}" ops_s GREATER 0)
check("p50 ${p50} > p99 ${p99}" NOT p50 GREATER p99)
set(sum 0)
foreach(k create write stat rename unlink readdir)
    string(JSON n GET "${out}" kinds ${k} ops)
    check("no ${k}: ${out}" n GREATER 0)
    math(EXPR sum "${sum} + ${n}")
endforeach()
check("kinds add up to ${sum}: ${out}" sum EQUAL 900)
file(GLOB left ${WORK}/*)
check("left behind: ${left}" "x${left}" STREQUAL "x")
kind_counts(first "${out}")

# The same seed, the same mix; another seed, another.
metaload(rc out err -w 3 -t 0 -n 300 --files 8 ${WORK})
check("second run: exit ${rc}: ${err}" rc EQUAL 0)
kind_counts(again "${out}")
check("mix ${again}, was ${first}" "${again}" STREQUAL "${first}")
metaload(rc out err -w 3 -t 0 -n 300 --files 8 --seed 2 ${WORK})
check("seed 2: exit ${rc}: ${err}" rc EQUAL 0)
kind_counts(other "${out}")
check("seed 2 gave the mix of seed 1: ${other}" NOT "${other}" STREQUAL "${first}")

# Three slots: the directory is often full or empty, and the operations
# that cannot be done there are replaced.
metaload(rc out err -w 2 -t 0 -n 500 --files 3 ${WORK})
check("three slots: exit ${rc}: ${err}" rc EQUAL 0)

# A time limit alone.
metaload(rc out err -w 2 -t 0.2 ${WORK})
check("timed: exit ${rc}: ${err}" rc EQUAL 0)

# Usage errors.
metaload(rc out err -t 0 ${WORK})
check("no limit: exit ${rc}" rc EQUAL 2)
string(FIND "${err}" "--seconds 0 needs --ops" pos)
check("no limit: ${err}" NOT pos EQUAL -1)
metaload(rc out err ${WORK}/missing)
check("missing directory: exit ${rc}" rc EQUAL 2)

# A worker's directory already there: mkdir fails with EEXIST, which
# stops the run with the error and no result.
file(MAKE_DIRECTORY ${WORK}/metaload.1)
metaload(rc out err -w 3 -t 5 ${WORK})
check("EEXIST: exit ${rc}" rc EQUAL 1)
string(FIND "${err}" "xr-metaload: worker 1: mkdir ${WORK}/metaload.1: File exists" pos)
check("EEXIST: ${err}" NOT pos EQUAL -1)
check("EEXIST: a result: ${out}" "x${out}" STREQUAL "x")

file(REMOVE_RECURSE ${WORK})
