/* SPDX-License-Identifier: MIT */
/*
 * cl_simt.h: what the simt OpenCL platform adds to OpenCL 1.2
 * (docs/opencl.rst, "Priorities and preemption").
 *
 * Copyright the simt authors.  Licensed under the MIT licence, as
 * written out in guest/libsimt/libsimt.h.
 *
 * Two context properties, for clCreateContext's property list, map a
 * context to a simt context's priority and preemption mode: every
 * command queue of the context runs at that priority.  As with libsimt,
 * high and realtime need CAP_SYS_NICE on the device backend (the driver
 * refuses them otherwise: clCreateContext fails with
 * CL_INVALID_OPERATION and says why through the context's callback).
 *
 *   cl_context_properties props[] = {
 *       CL_CONTEXT_PLATFORM, (cl_context_properties)platform,
 *       CL_CONTEXT_PRIORITY_SIMT, CL_PRIORITY_HIGH_SIMT,
 *       CL_CONTEXT_PREEMPTION_SIMT, CL_PREEMPTION_SWITCH_SIMT,
 *       0 };
 */
#ifndef CL_SIMT_H
#define CL_SIMT_H

/* Property names; values in no range that Khronos gives out. */
#define CL_CONTEXT_PRIORITY_SIMT        0x51A0
#define CL_CONTEXT_PREEMPTION_SIMT      0x51A1

/* CL_CONTEXT_PRIORITY_SIMT values (libsimt's enum simt_priority). */
#define CL_PRIORITY_LOW_SIMT            0
#define CL_PRIORITY_NORMAL_SIMT         1       /* the default */
#define CL_PRIORITY_HIGH_SIMT           2
#define CL_PRIORITY_REALTIME_SIMT       3

/* CL_CONTEXT_PREEMPTION_SIMT values (libsimt's enum simt_preemption). */
#define CL_PREEMPTION_DEFAULT_SIMT      0       /* the driver chooses */
#define CL_PREEMPTION_NONE_SIMT         1
#define CL_PREEMPTION_DRAIN_SIMT        2
#define CL_PREEMPTION_FLUSH_SIMT        3
#define CL_PREEMPTION_SWITCH_SIMT       4
#define CL_PREEMPTION_LIGHT_SIMT        5
#define CL_PREEMPTION_AUTO_SIMT         6
#define CL_PREEMPTION_CHIMERA_SIMT      7

#endif /* CL_SIMT_H */
