// SPDX-License-Identifier: GPL-2.0
/*
 * trace_svc.c - instantiates the trace events declared in trace_svc.h.
 */
#define CREATE_TRACE_POINTS
#include "trace_svc.h"
