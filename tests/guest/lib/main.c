// SPDX-License-Identifier: MIT
/*
 * simt-lib-test: tests of libsimt (guest/libsimt/libsimt.h), every call with
 * its good and bad arguments, and the sample kernels run through it with
 * their results checked against what this program computes.  Built static
 * by scripts/guest-build.sh; run by tests/guest/simt-test.sh as the unprivileged
 * user, one group per call:
 *
 *   simt-lib-test GROUP [NODE [hold]]
 *
 * Groups: device, context, memory, module, launch, errors, samples,
 * threads, timeout, too-large, metadata, multi-device (which expects
 * $SIMTGUEST_DEVICES devices, default 1), split-results, split-ids,
 * split-auto, split-between, printf, oversub-tenants, oversub-single (which, with
 * "hold", waits with its objects until its standard input closes).  The
 * oversubscription groups allocate more than the VRAM and keep copies of
 * it in host memory: run them on a device with little VRAM (make check
 * gives them 64 MiB, the least with room for kernel images below the
 * objects).
 * Prints what it does and a line per failed check; exit status 0 if every
 * check passed.
 *
 * The tests are in files by area: device.c (device, context,
 * multi-device), memory.c (memory, module, too-large), launch.c (launch,
 * errors, metadata), samples.c, threads.c (threads, timeout), split.c
 * (the split-* groups), printf.c and oversub.c (the oversub-* groups); helpers.c
 * has what several of them use (lib-test.h).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib-test.h"

int hold;

static const struct test_group groups[] = {
	{ "device", test_device },
	{ "context", test_context },
	{ "memory", test_memory },
	{ "module", test_module },
	{ "launch", test_launch },
	{ "errors", test_errors },
	{ "samples", test_samples },
	{ "threads", test_threads },
	{ "timeout", test_timeout },
	{ "too-large", test_too_large },
	{ "metadata", test_metadata },
	{ "multi-device", test_multi_device },
	{ "split-results", test_split_results },
	{ "split-ids", test_split_ids },
	{ "split-auto", test_split_auto },
	{ "split-between", test_split_between },
	{ "oversub-tenants", test_oversub_tenants },
	{ "oversub-single", test_oversub_single },
	{ "printf", test_printf },
	{ "userq", test_userq },
};

/* libsimt's last error, after each failure: its own thread's. */
static const char *last_error(void)
{
	static __thread char note[256];

	snprintf(note, sizeof(note), "last error: %s", simt_last_error());
	return note;
}

static void say_uid(const char *group)
{
	printf("%s as uid %u\n", group, (unsigned)geteuid());
}

int main(int argc, char **argv)
{
	hold = argc > 3 && !strcmp(argv[3], "hold");
	fail_note = last_error;
	return test_main(argc, argv, "simt-lib-test", groups,
			 sizeof(groups) / sizeof(groups[0]), say_uid, NULL);
}
