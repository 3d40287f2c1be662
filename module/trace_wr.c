// SPDX-License-Identifier: GPL-2.0
/*
 * trace_wr.c - instantiates the trace events declared in trace_wr.h.
 */
#define CREATE_TRACE_POINTS
#include "trace_wr.h"
