// SPDX-License-Identifier: GPL-2.0
/*
 * trace_sq.c - instantiates the trace events declared in trace_sq.h.
 */
#define CREATE_TRACE_POINTS
#include "trace_sq.h"
