/* SPDX-License-Identifier: MIT */
/*
 * What OpenCL 1.2 has and the simt platform does not, with the errors
 * the specification gives for a device that lacks it: images and
 * samplers (CL_DEVICE_IMAGE_SUPPORT is false, so no image can exist) and
 * native kernels (CL_EXEC_NATIVE_KERNEL is not in the capabilities).
 * The GL and Direct3D sharing entries stay empty in the dispatch table:
 * their extensions are not reported, so no program may call them.
 *
 * Copyright the simt authors.  Licensed under the MIT licence, as
 * written out in guest/libsimt/libsimt.h.
 */
#include "simt-cl.h"

/* No device of the context supports images. */
static void *no_images(cl_context ctx, cl_int *errcode_ret)
{
	return simt_cl_fail(errcode_ret, cl_valid(ctx, MAGIC_CONTEXT) ?
			    CL_INVALID_OPERATION : CL_INVALID_CONTEXT);
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateImage(cl_context ctx, cl_mem_flags flags, const cl_image_format *format,
	      const cl_image_desc *desc, void *host_ptr, cl_int *errcode_ret)
{
	(void)flags, (void)format, (void)desc, (void)host_ptr;
	return no_images(ctx, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateImage2D(cl_context ctx, cl_mem_flags flags, const cl_image_format *format,
		size_t width, size_t height, size_t row_pitch, void *host_ptr,
		cl_int *errcode_ret)
{
	(void)flags, (void)format, (void)width, (void)height, (void)row_pitch;
	(void)host_ptr;
	return no_images(ctx, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateImage3D(cl_context ctx, cl_mem_flags flags, const cl_image_format *format,
		size_t width, size_t height, size_t depth, size_t row_pitch,
		size_t slice_pitch, void *host_ptr, cl_int *errcode_ret)
{
	(void)flags, (void)format, (void)width, (void)height, (void)depth;
	(void)row_pitch, (void)slice_pitch, (void)host_ptr;
	return no_images(ctx, errcode_ret);
}

/* No formats: an empty list. */
CL_API_ENTRY cl_int CL_API_CALL
clGetSupportedImageFormats(cl_context ctx, cl_mem_flags flags,
			   cl_mem_object_type type, cl_uint num_entries,
			   cl_image_format *formats, cl_uint *num_formats)
{
	(void)flags, (void)type, (void)formats;
	if (!cl_valid(ctx, MAGIC_CONTEXT))
		return CL_INVALID_CONTEXT;
	if (formats && !num_entries)
		return CL_INVALID_VALUE;
	if (num_formats)
		*num_formats = 0;
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size,
	       void *param_value, size_t *param_value_size_ret)
{
	(void)image, (void)param_name, (void)param_value_size, (void)param_value;
	(void)param_value_size_ret;
	return CL_INVALID_MEM_OBJECT;	/* a buffer, or nothing */
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueReadImage(cl_command_queue q, cl_mem image, cl_bool blocking,
		   const size_t *origin, const size_t *region, size_t row_pitch,
		   size_t slice_pitch, void *ptr, cl_uint n, const cl_event *list,
		   cl_event *event)
{
	(void)q, (void)image, (void)blocking, (void)origin, (void)region;
	(void)row_pitch, (void)slice_pitch, (void)ptr, (void)n, (void)list;
	(void)event;
	return CL_INVALID_MEM_OBJECT;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueWriteImage(cl_command_queue q, cl_mem image, cl_bool blocking,
		    const size_t *origin, const size_t *region, size_t row_pitch,
		    size_t slice_pitch, const void *ptr, cl_uint n,
		    const cl_event *list, cl_event *event)
{
	(void)q, (void)image, (void)blocking, (void)origin, (void)region;
	(void)row_pitch, (void)slice_pitch, (void)ptr, (void)n, (void)list;
	(void)event;
	return CL_INVALID_MEM_OBJECT;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueCopyImage(cl_command_queue q, cl_mem src, cl_mem dst,
		   const size_t *src_origin, const size_t *dst_origin,
		   const size_t *region, cl_uint n, const cl_event *list,
		   cl_event *event)
{
	(void)q, (void)src, (void)dst, (void)src_origin, (void)dst_origin;
	(void)region, (void)n, (void)list, (void)event;
	return CL_INVALID_MEM_OBJECT;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueCopyImageToBuffer(cl_command_queue q, cl_mem src, cl_mem dst,
			   const size_t *src_origin, const size_t *region,
			   size_t dst_offset, cl_uint n, const cl_event *list,
			   cl_event *event)
{
	(void)q, (void)src, (void)dst, (void)src_origin, (void)region;
	(void)dst_offset, (void)n, (void)list, (void)event;
	return CL_INVALID_MEM_OBJECT;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueCopyBufferToImage(cl_command_queue q, cl_mem src, cl_mem dst,
			   size_t src_offset, const size_t *dst_origin,
			   const size_t *region, cl_uint n, const cl_event *list,
			   cl_event *event)
{
	(void)q, (void)src, (void)dst, (void)src_offset, (void)dst_origin;
	(void)region, (void)n, (void)list, (void)event;
	return CL_INVALID_MEM_OBJECT;
}

CL_API_ENTRY void *CL_API_CALL
clEnqueueMapImage(cl_command_queue q, cl_mem image, cl_bool blocking,
		  cl_map_flags flags, const size_t *origin, const size_t *region,
		  size_t *row_pitch, size_t *slice_pitch, cl_uint n,
		  const cl_event *list, cl_event *event, cl_int *errcode_ret)
{
	(void)q, (void)image, (void)blocking, (void)flags, (void)origin;
	(void)region, (void)row_pitch, (void)slice_pitch, (void)n, (void)list;
	(void)event;
	return simt_cl_fail(errcode_ret, CL_INVALID_MEM_OBJECT);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueFillImage(cl_command_queue q, cl_mem image, const void *fill_color,
		   const size_t *origin, const size_t *region, cl_uint n,
		   const cl_event *list, cl_event *event)
{
	(void)q, (void)image, (void)fill_color, (void)origin, (void)region;
	(void)n, (void)list, (void)event;
	return CL_INVALID_MEM_OBJECT;
}

CL_API_ENTRY cl_sampler CL_API_CALL
clCreateSampler(cl_context ctx, cl_bool normalized_coords,
		cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
		cl_int *errcode_ret)
{
	(void)normalized_coords, (void)addressing_mode, (void)filter_mode;
	return no_images(ctx, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler sampler)
{
	(void)sampler;
	return CL_INVALID_SAMPLER;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler)
{
	(void)sampler;
	return CL_INVALID_SAMPLER;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name,
		 size_t param_value_size, void *param_value,
		 size_t *param_value_size_ret)
{
	(void)sampler, (void)param_name, (void)param_value_size;
	(void)param_value, (void)param_value_size_ret;
	return CL_INVALID_SAMPLER;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueNativeKernel(cl_command_queue q, void (CL_CALLBACK *user_func)(void *),
		      void *args, size_t cb_args, cl_uint num_mem_objects,
		      const cl_mem *mem_list, const void **args_mem_loc,
		      cl_uint n, const cl_event *list, cl_event *event)
{
	(void)user_func, (void)args, (void)cb_args, (void)num_mem_objects;
	(void)mem_list, (void)args_mem_loc, (void)n, (void)list, (void)event;
	return cl_valid(q, MAGIC_QUEUE) ? CL_INVALID_OPERATION :
	       CL_INVALID_COMMAND_QUEUE;
}
