/* SPDX-License-Identifier: MIT */
/*
 * The simt OpenCL platform: the loader's entry points, the platform and
 * its device, and what every file of the runtime shares.
 *
 * Copyright the simt authors.  Licensed under the MIT licence, as
 * written out in guest/libsimt/libsimt.h.
 */
#define _GNU_SOURCE		/* PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <drm/simt_accel.h>

#include "hw/simt/simt-isa.h"
#include "simt-cl.h"

#define SIMT_CL_EXPORT __attribute__((visibility("default")))

/*
 * Recursive: event callbacks run with it held and may call the API (not
 * the blocking calls, which OpenCL forbids them).
 */
pthread_mutex_t simt_cl_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
pthread_cond_t simt_cl_cond = PTHREAD_COND_INITIALIZER;

struct _cl_platform_id simt_cl_platform = {
	{ &simt_cl_dispatch, MAGIC_PLATFORM, 1 },
};
struct _cl_device_id *simt_cl_device;

/* What the device's OpenCL C compiler (simt-cc) supports. */
static const char device_extensions[] =
	"cl_khr_global_int32_base_atomics cl_khr_global_int32_extended_atomics "
	"cl_khr_local_int32_base_atomics cl_khr_local_int32_extended_atomics "
	"cl_khr_byte_addressable_store";

#ifdef SIMT_CL_HOST
#define BACKEND "warp interpreter"
#else
#define BACKEND "device"
#endif

cl_int simt_cl_info(const void *value, size_t size, size_t param_value_size,
		    void *param_value, size_t *param_value_size_ret)
{
	if (param_value) {
		if (param_value_size < size)
			return CL_INVALID_VALUE;
		memcpy(param_value, value, size);
	}
	if (param_value_size_ret)
		*param_value_size_ret = size;
	return CL_SUCCESS;
}

void *simt_cl_fail(cl_int *errcode_ret, cl_int err)
{
	if (errcode_ret)
		*errcode_ret = err;
	return NULL;
}

cl_int simt_cl_error(simt_status st)
{
	switch (st) {
	case SIMT_SUCCESS:
		return CL_SUCCESS;
	case SIMT_ERROR_INVALID_VALUE:
		return CL_INVALID_VALUE;
	case SIMT_ERROR_NO_DEVICE:
		return CL_DEVICE_NOT_AVAILABLE;
	case SIMT_ERROR_OUT_OF_MEMORY:
	case SIMT_ERROR_TOO_LARGE:
		return CL_MEM_OBJECT_ALLOCATION_FAILURE;
	case SIMT_ERROR_INVALID_IMAGE:
	case SIMT_ERROR_ADDRESS_IN_USE:
		return CL_INVALID_BINARY;
	case SIMT_ERROR_NOT_FOUND:
		return CL_INVALID_KERNEL_NAME;
	default:
		return CL_OUT_OF_RESOURCES;
	}
}

cl_ulong simt_cl_now_ns(cl_device_id dev)
{
	uint64_t cycle = 0;

	simt_device_get_param(dev->dev, DRM_SIMT_PARAM_CYCLE, &cycle);
	return cycle * 1000 / dev->clock_mhz;
}

void simt_cl_notify(cl_context ctx, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!ctx || !ctx->notify)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ctx->notify(msg, NULL, 0, ctx->notify_data);
}

/* ---- live objects: a set of pointers, open addressing ---- */

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static const void **registry;
static size_t registry_size, registry_used;	/* slots, entries + tombstones */
static const char tombstone;

static size_t slot_of(const void *obj, size_t size)
{
	uintptr_t x = (uintptr_t)obj;

	x ^= x >> 17;
	x *= 0xed5ad4bbu;
	x ^= x >> 11;
	return x & (size - 1);
}

/* Insert @obj into @table of @size slots (a power of two, not full). */
static void slot_put(const void **table, size_t size, const void *obj)
{
	size_t i = slot_of(obj, size);

	while (table[i] && table[i] != &tombstone)
		i = (i + 1) & (size - 1);
	table[i] = obj;
}

static size_t slot_find(const void *obj)
{
	size_t i;

	if (!registry_size)
		return SIZE_MAX;
	for (i = slot_of(obj, registry_size); registry[i];
	     i = (i + 1) & (registry_size - 1)) {
		if (registry[i] == obj)
			return i;
	}
	return SIZE_MAX;
}

void simt_cl_head_init(struct simt_cl_head *h, uint32_t magic)
{
	h->dispatch = &simt_cl_dispatch;
	h->magic = magic;
	h->refs = 1;
	pthread_mutex_lock(&registry_lock);
	if ((registry_used + 1) * 2 > registry_size) {
		size_t size = registry_size ? registry_size * 2 : 256, live = 0;
		const void **table = calloc(size, sizeof(*table));

		if (!table) {
			/* Unregistered, it is refused as a handle: not unsafe. */
			pthread_mutex_unlock(&registry_lock);
			return;
		}
		for (size_t i = 0; i < registry_size; i++) {
			if (registry[i] && registry[i] != &tombstone) {
				slot_put(table, size, registry[i]);
				live++;
			}
		}
		free(registry);
		registry = table;
		registry_size = size;
		registry_used = live;
	}
	slot_put(registry, registry_size, h);
	registry_used++;
	pthread_mutex_unlock(&registry_lock);
}

void simt_cl_head_kill(struct simt_cl_head *h)
{
	size_t i;

	h->magic = 0;
	pthread_mutex_lock(&registry_lock);
	i = slot_find(h);
	if (i != SIZE_MAX)
		registry[i] = &tombstone;
	pthread_mutex_unlock(&registry_lock);
}

bool simt_cl_registered(const void *obj)
{
	bool found;

	pthread_mutex_lock(&registry_lock);
	found = slot_find(obj) != SIZE_MAX;
	pthread_mutex_unlock(&registry_lock);
	return found;
}

cl_int simt_cl_retain(void *obj, uint32_t magic, cl_int err)
{
	pthread_mutex_lock(&simt_cl_lock);
	if (cl_valid(obj, magic)) {
		((struct simt_cl_head *)obj)->refs++;
		err = CL_SUCCESS;
	}
	pthread_mutex_unlock(&simt_cl_lock);
	return err;
}

cl_int simt_cl_release(void *obj, uint32_t magic, cl_int err)
{
	pthread_mutex_lock(&simt_cl_lock);
	if (cl_valid(obj, magic)) {
		switch (magic) {
		case MAGIC_CONTEXT:
			simt_cl_context_release(obj);
			break;
		case MAGIC_MEM:
			simt_cl_mem_release(obj);
			break;
		case MAGIC_PROGRAM:
			simt_cl_program_release(obj);
			break;
		case MAGIC_KERNEL:
			simt_cl_kernel_release(obj);
			break;
		case MAGIC_EVENT:
			simt_cl_event_release(obj);
			break;
		}
		err = CL_SUCCESS;
	}
	pthread_mutex_unlock(&simt_cl_lock);
	return err;
}

/* ---- the loader's entry points ---- */

SIMT_CL_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
		       cl_uint *num_platforms)
{
	if ((!platforms && !num_platforms) || (platforms && !num_entries))
		return CL_INVALID_VALUE;
	if (platforms)
		platforms[0] = &simt_cl_platform;
	if (num_platforms)
		*num_platforms = 1;
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms,
		 cl_uint *num_platforms)
{
	return clIcdGetPlatformIDsKHR(num_entries, platforms, num_platforms);
}

SIMT_CL_EXPORT CL_API_ENTRY void *CL_API_CALL
clGetExtensionFunctionAddress(const char *func_name)
{
	if (func_name && !strcmp(func_name, "clIcdGetPlatformIDsKHR"))
		return (void *)clIcdGetPlatformIDsKHR;
	return NULL;
}

CL_API_ENTRY void *CL_API_CALL
clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
					 const char *func_name)
{
	return platform == &simt_cl_platform ?
	       clGetExtensionFunctionAddress(func_name) : NULL;
}

/* The loader asks the library itself for the ICD suffix. */
SIMT_CL_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
		  size_t param_value_size, void *param_value,
		  size_t *param_value_size_ret)
{
	if (platform && platform != &simt_cl_platform)
		return CL_INVALID_PLATFORM;
	switch (param_name) {
	case CL_PLATFORM_PROFILE:
		return CL_INFO_STRING("FULL_PROFILE");
	case CL_PLATFORM_VERSION:
		return CL_INFO_STRING("OpenCL 1.2 simt (" BACKEND ")");
	case CL_PLATFORM_NAME:
		return CL_INFO_STRING("simt");
	case CL_PLATFORM_VENDOR:
		return CL_INFO_STRING("the simt authors");
	case CL_PLATFORM_EXTENSIONS:
		return CL_INFO_STRING("cl_khr_icd");
	case CL_PLATFORM_ICD_SUFFIX_KHR:
		return CL_INFO_STRING("simt");
	default:
		return CL_INVALID_VALUE;
	}
}

/* ---- the device ---- */

/* Open the device on first use; CL_SUCCESS or why there is none. */
static cl_int device_open(void)
{
	struct _cl_device_id *d;
	uint64_t mhz = 0;
	uint32_t threads;

	if (simt_cl_device)
		return CL_SUCCESS;
	d = calloc(1, sizeof(*d));
	if (!d)
		return CL_OUT_OF_HOST_MEMORY;
	if (simt_device_open(NULL, &d->dev) ||
	    simt_device_get_info(d->dev, &d->info)) {
		if (getenv("SIMT_CL_DEBUG"))
			fprintf(stderr, "simt OpenCL: %s\n", simt_last_error());
		if (d->dev)
			simt_device_close(d->dev);
		free(d);
		return CL_DEVICE_NOT_FOUND;
	}
	simt_cl_head_init(&d->h, MAGIC_DEVICE);
	simt_device_get_param(d->dev, DRM_SIMT_PARAM_CLOCK_MHZ, &mhz);
	d->clock_mhz = mhz ? (uint32_t)mhz : 1000;
	/* A block must fit on one SM; a driver before 0.7 gives no limits. */
	threads = d->info.sm_threads ? d->info.sm_threads : 1024;
	if (d->info.sm_warps && d->info.sm_warps * SIMT_WARP_SIZE < threads)
		threads = d->info.sm_warps * SIMT_WARP_SIZE;
	d->max_work_group = threads < 1024 ? threads : 1024;
	/* Buffers live above the kernel images. */
	d->max_alloc = d->info.vram_size - d->info.fixed_va_end;
#ifdef SIMT_CL_HOST
	d->host = true;
#endif
	simt_cl_device = d;
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type,
	       cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices)
{
	cl_int err;

	if (platform && platform != &simt_cl_platform)
		return CL_INVALID_PLATFORM;
	if ((!devices && !num_devices) || (devices && !num_entries))
		return CL_INVALID_VALUE;
	if (device_type != CL_DEVICE_TYPE_ALL &&
	    !(device_type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT |
			     CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_ACCELERATOR |
			     CL_DEVICE_TYPE_CUSTOM)))
		return CL_INVALID_DEVICE_TYPE;
	if (!(device_type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT)))
		return CL_DEVICE_NOT_FOUND;
	pthread_mutex_lock(&simt_cl_lock);
	err = device_open();
	pthread_mutex_unlock(&simt_cl_lock);
	if (err)
		return err;
	if (devices)
		devices[0] = simt_cl_device;
	if (num_devices)
		*num_devices = 1;
	return CL_SUCCESS;
}

/* Work-item sizes: any dimension may take the whole group. */
static cl_int work_item_sizes(cl_device_id d, size_t param_value_size,
			      void *param_value, size_t *param_value_size_ret)
{
	size_t sizes[3] = { d->max_work_group, d->max_work_group,
			    d->max_work_group };

	return simt_cl_info(sizes, sizeof(sizes), param_value_size, param_value,
			    param_value_size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL
clGetDeviceInfo(cl_device_id device, cl_device_info param_name,
		size_t param_value_size, void *param_value,
		size_t *param_value_size_ret)
{
	const struct simt_device_info *i;
	char s[256];

	if (!cl_valid(device, MAGIC_DEVICE))
		return CL_INVALID_DEVICE;
	i = &device->info;
	switch (param_name) {
	case CL_DEVICE_TYPE:
		return CL_INFO_VALUE(cl_device_type, CL_DEVICE_TYPE_GPU);
	case CL_DEVICE_VENDOR_ID:
		return CL_INFO_VALUE(cl_uint, 0);
	case CL_DEVICE_MAX_COMPUTE_UNITS:
		return CL_INFO_VALUE(cl_uint, i->sm_count);
	case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
		return CL_INFO_VALUE(cl_uint, 3);
	case CL_DEVICE_MAX_WORK_ITEM_SIZES:
		return work_item_sizes(device, param_value_size, param_value,
				       param_value_size_ret);
	case CL_DEVICE_MAX_WORK_GROUP_SIZE:
		return CL_INFO_VALUE(size_t, device->max_work_group);
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
		return CL_INFO_VALUE(cl_uint, 1);	/* scalar lanes */
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
		return CL_INFO_VALUE(cl_uint, 0);	/* no double, no half */
	case CL_DEVICE_MAX_CLOCK_FREQUENCY:
		return CL_INFO_VALUE(cl_uint, device->clock_mhz);
	case CL_DEVICE_ADDRESS_BITS:
		return CL_INFO_VALUE(cl_uint, 32);
	case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
		return CL_INFO_VALUE(cl_ulong, device->max_alloc);
	case CL_DEVICE_IMAGE_SUPPORT:
		return CL_INFO_VALUE(cl_bool, CL_FALSE);
	case CL_DEVICE_MAX_READ_IMAGE_ARGS:
	case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
	case CL_DEVICE_MAX_SAMPLERS:
		return CL_INFO_VALUE(cl_uint, 0);
	case CL_DEVICE_IMAGE2D_MAX_WIDTH:
	case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
	case CL_DEVICE_IMAGE3D_MAX_WIDTH:
	case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
	case CL_DEVICE_IMAGE3D_MAX_DEPTH:
	case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
	case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
		return CL_INFO_VALUE(size_t, 0);
	case CL_DEVICE_MAX_PARAMETER_SIZE:
		return CL_INFO_VALUE(size_t, 1024);
	case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
		return CL_INFO_VALUE(cl_uint, 128 * 8);	/* bits */
	case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
		return CL_INFO_VALUE(cl_uint, 128);
	case CL_DEVICE_SINGLE_FP_CONFIG:
		/* RV32F: IEEE 754 round to nearest, infinities and NaNs, fused
		 * multiply-add. */
		return CL_INFO_VALUE(cl_device_fp_config, CL_FP_ROUND_TO_NEAREST |
				     CL_FP_INF_NAN | CL_FP_FMA);
	case CL_DEVICE_DOUBLE_FP_CONFIG:
		return CL_INFO_VALUE(cl_device_fp_config, 0);
	case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
		return CL_INFO_VALUE(cl_device_mem_cache_type, CL_NONE);
	case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
		return CL_INFO_VALUE(cl_uint, 0);
	case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
		return CL_INFO_VALUE(cl_ulong, 0);
	case CL_DEVICE_GLOBAL_MEM_SIZE:
		return CL_INFO_VALUE(cl_ulong, device->max_alloc);
	case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
		return CL_INFO_VALUE(cl_ulong, 64 << 10);
	case CL_DEVICE_MAX_CONSTANT_ARGS:
		return CL_INFO_VALUE(cl_uint, 8);
	case CL_DEVICE_LOCAL_MEM_TYPE:
		return CL_INFO_VALUE(cl_device_local_mem_type, CL_LOCAL);
	case CL_DEVICE_LOCAL_MEM_SIZE:
		return CL_INFO_VALUE(cl_ulong, i->sm_shared ? i->sm_shared :
				     SIMT_SHARED_WINDOW);
	case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
	case CL_DEVICE_HOST_UNIFIED_MEMORY:
		return CL_INFO_VALUE(cl_bool, CL_FALSE);
	case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
		return CL_INFO_VALUE(size_t, device->clock_mhz >= 1000 ? 1 :
				     1000 / device->clock_mhz);
	case CL_DEVICE_ENDIAN_LITTLE:
	case CL_DEVICE_AVAILABLE:
	case CL_DEVICE_COMPILER_AVAILABLE:
	case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
		return CL_INFO_VALUE(cl_bool, CL_TRUE);
	case CL_DEVICE_LINKER_AVAILABLE:
		/* clBuildProgram only: no clCompileProgram, clLinkProgram. */
		return CL_INFO_VALUE(cl_bool, CL_FALSE);
	case CL_DEVICE_EXECUTION_CAPABILITIES:
		return CL_INFO_VALUE(cl_device_exec_capabilities, CL_EXEC_KERNEL);
	case CL_DEVICE_QUEUE_PROPERTIES:
		return CL_INFO_VALUE(cl_command_queue_properties,
				     CL_QUEUE_PROFILING_ENABLE);
	case CL_DEVICE_BUILT_IN_KERNELS:
		return CL_INFO_STRING("");
	case CL_DEVICE_PLATFORM:
		return CL_INFO_VALUE(cl_platform_id, &simt_cl_platform);
	case CL_DEVICE_NAME:
		snprintf(s, sizeof(s), "simt %u SMs (%s)", i->sm_count, BACKEND);
		return CL_INFO_STRING(s);
	case CL_DEVICE_VENDOR:
		return CL_INFO_STRING("the simt authors");
	case CL_DRIVER_VERSION:
		snprintf(s, sizeof(s), "%u.%u", i->uapi_major, i->uapi_minor);
		return CL_INFO_STRING(s);
	case CL_DEVICE_PROFILE:
		return CL_INFO_STRING("FULL_PROFILE");
	case CL_DEVICE_VERSION:
		return CL_INFO_STRING("OpenCL 1.2 simt");
	case CL_DEVICE_OPENCL_C_VERSION:
		return CL_INFO_STRING("OpenCL C 1.2 simt-cc");
	case CL_DEVICE_EXTENSIONS:
		return CL_INFO_STRING(device_extensions);
	case CL_DEVICE_PRINTF_BUFFER_SIZE:
		return CL_INFO_VALUE(size_t, 0);	/* no printf in OpenCL C */
	case CL_DEVICE_PARENT_DEVICE:
		return CL_INFO_VALUE(cl_device_id, NULL);
	case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
		return CL_INFO_VALUE(cl_uint, 0);
	case CL_DEVICE_PARTITION_PROPERTIES:
		return CL_INFO_VALUE(cl_device_partition_property, 0);
	case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
		return CL_INFO_VALUE(cl_device_affinity_domain, 0);
	case CL_DEVICE_PARTITION_TYPE:
		return simt_cl_info(NULL, 0, param_value_size, param_value,
				    param_value_size_ret);
	case CL_DEVICE_REFERENCE_COUNT:
		return CL_INFO_VALUE(cl_uint, 1);
	default:
		return CL_INVALID_VALUE;
	}
}

/* The root device is not counted (OpenCL 1.2, clRetainDevice). */
CL_API_ENTRY cl_int CL_API_CALL clRetainDevice(cl_device_id device)
{
	return cl_valid(device, MAGIC_DEVICE) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id device)
{
	return clRetainDevice(device);
}

/* No partitions: CL_DEVICE_PARTITION_PROPERTIES is empty. */
CL_API_ENTRY cl_int CL_API_CALL
clCreateSubDevices(cl_device_id in_device,
		   const cl_device_partition_property *properties,
		   cl_uint num_devices, cl_device_id *out_devices,
		   cl_uint *num_devices_ret)
{
	(void)properties;
	(void)num_devices;
	(void)out_devices;
	(void)num_devices_ret;
	return cl_valid(in_device, MAGIC_DEVICE) ? CL_INVALID_VALUE :
	       CL_INVALID_DEVICE;
}

/* The compiler is a separate program (simt-cc): nothing to unload. */
CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler(void)
{
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform)
{
	return platform == &simt_cl_platform ? CL_SUCCESS : CL_INVALID_PLATFORM;
}
