// SPDX-License-Identifier: GPL-2.0
/*
 * trace_xprt.c - instantiates the trace events declared in trace_xprt.h.
 */
#define CREATE_TRACE_POINTS
#include "trace_xprt.h"
