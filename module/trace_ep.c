// SPDX-License-Identifier: GPL-2.0
/*
 * trace_ep.c - instantiates the trace events declared in trace_ep.h.
 */
#define CREATE_TRACE_POINTS
#include "trace_ep.h"
