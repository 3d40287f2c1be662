// SPDX-License-Identifier: GPL-2.0
/*
 * trace_msg.c - instantiates the trace events declared in trace_msg.h.
 */
#define CREATE_TRACE_POINTS
#include "trace_msg.h"
