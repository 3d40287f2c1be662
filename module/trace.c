// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - instantiates the trace events declared in trace.h.
 */
#define CREATE_TRACE_POINTS
#include "trace.h"
