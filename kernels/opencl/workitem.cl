/* SPDX-License-Identifier: MIT */
/*
 * Work-item functions: the identity CSRs of the lanes (one block is one
 * work-group, the grid is the NDRange) and the argument block's header
 * for what the CSRs do not hold (work_dim, the global offset).  A
 * dimension past 2 gives 0 for indices and 1 for sizes, as OpenCL says.
 */
#include "simt-cl.h"

size_t SIMT_OVL get_local_id(uint d)
{
    switch (d) {
    case 0: return SIMT_CL_CSR(SIMT_CSR_TID_X);
    case 1: return SIMT_CL_CSR(SIMT_CSR_TID_Y);
    case 2: return SIMT_CL_CSR(SIMT_CSR_TID_Z);
    default: return 0;
    }
}

size_t SIMT_OVL get_group_id(uint d)
{
    switch (d) {
    case 0: return SIMT_CL_CSR(SIMT_CSR_CTAID_X);
    case 1: return SIMT_CL_CSR(SIMT_CSR_CTAID_Y);
    case 2: return SIMT_CL_CSR(SIMT_CSR_CTAID_Z);
    default: return 0;
    }
}

size_t SIMT_OVL get_local_size(uint d)
{
    switch (d) {
    case 0: return SIMT_CL_CSR(SIMT_CSR_NTID_X);
    case 1: return SIMT_CL_CSR(SIMT_CSR_NTID_Y);
    case 2: return SIMT_CL_CSR(SIMT_CSR_NTID_Z);
    default: return 1;
    }
}

size_t SIMT_OVL get_num_groups(uint d)
{
    switch (d) {
    case 0: return SIMT_CL_CSR(SIMT_CSR_NCTAID_X);
    case 1: return SIMT_CL_CSR(SIMT_CSR_NCTAID_Y);
    case 2: return SIMT_CL_CSR(SIMT_CSR_NCTAID_Z);
    default: return 1;
    }
}

size_t SIMT_OVL get_global_size(uint d)
{
    return get_num_groups(d) * get_local_size(d);
}

size_t SIMT_OVL get_global_offset(uint d)
{
    return d < 3 ? simt_cl_header()->global_offset[d] : 0;
}

size_t SIMT_OVL get_global_id(uint d)
{
    return get_group_id(d) * get_local_size(d) + get_local_id(d) +
           get_global_offset(d);
}

uint SIMT_OVL get_work_dim(void)
{
    return simt_cl_header()->work_dim;
}
