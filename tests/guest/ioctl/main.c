// SPDX-License-Identifier: MIT
/*
 * simt-ioctl-test: exercises the simt driver's ioctls from userspace, the
 * good paths and the bad arguments, and checks every byte the device
 * copies against what this program computes.  Built static by
 * scripts/guest-build.sh; run by tests/guest/simt-test.sh, one group per call:
 *
 *   simt-ioctl-test GROUP [NODE]
 *
 * Groups: bo, ctx, bind, copy, submit-bad, fault, launch, samples,
 * sysmem, syncobj, hang, multi, responsive, and since interface 0.3
 * infence, prio, savearea, progress, hang2, bystander, signal, threads,
 * close, fdinfo, light; since 0.6 launch64; the lifecycle stress group destroy-races,
 * watchdog-destroy, syncfile-outlives, grid-overflow, seqno and
 * unplug-mapped (which unbinds the device); and hold (for the unbind
 * test: see test_hold()).
 * Prints what it does and a line per failed check; exit status 0 if
 * every check passed.
 *
 * The tests are in files by area: memory.c (bo, bind, copy, evict,
 * evict-bytes), contexts.c (ctx, prio, savearea, close, fdinfo),
 * submit.c (submit-bad, fault, syncobj, infence, signal), launch.c
 * (launch, samples, sysmem, launch64), recovery.c (hang, progress,
 * hang2, bystander), sched.c (multi, responsive, fair, light) and
 * lifecycle.c (threads, hold and the lifecycle stress group); helpers.c
 * has what several of them use (ioctl-test.h).
 */
#include <unistd.h>

#include "ioctl-test.h"

static const struct test_group groups[] = {
	{ "bo", test_bo },
	{ "ctx", test_ctx },
	{ "bind", test_bind },
	{ "copy", test_copy },
	{ "submit-bad", test_submit_bad },
	{ "fault", test_fault },
	{ "launch", test_launch },
	{ "samples", test_samples },
	{ "sysmem", test_sysmem },
	{ "evict", test_evict },
	{ "evict-bytes", test_evict_bytes },
	{ "fair", test_fair },
	{ "syncobj", test_syncobj },
	{ "hang", test_hang },
	{ "multi", test_multi },
	{ "hold", test_hold },
	{ "responsive", test_responsive },
	/* since 0.3 */
	{ "infence", test_infence },
	{ "prio", test_prio },
	{ "savearea", test_savearea },
	{ "progress", test_progress },
	{ "hang2", test_hang2 },
	{ "bystander", test_bystander },
	{ "signal", test_signal },
	{ "threads", test_threads },
	{ "close", test_close },
	{ "fdinfo", test_fdinfo },
	{ "light", test_light },
	/* since 0.6 */
	{ "launch64", test_launch64 },
	/* the lifecycle stress group */
	{ "destroy-races", test_destroy_races },
	{ "watchdog-destroy", test_watchdog_destroy },
	{ "syncfile-outlives", test_syncfile_outlives },
	{ "grid-overflow", test_grid_overflow },
	{ "seqno", test_seqno },
	{ "unplug-mapped", test_unplug_mapped },
	{ "hotunplug-hold", test_hotunplug_hold },
	{ "fence-fd-nomem", test_fence_fd_nomem },
	{ "userq", test_userq },
	{ "userq-errors", test_userq_errors },
	{ "userq-destroy", test_userq_destroy },
	{ "userq-hang", test_userq_hang },
	{ "user-contexts", test_user_contexts },
	{ "fair-userq", test_fair_userq },
	{ "userq-retract", test_userq_retract },
};

static void open_device(const char *group)
{
	fd = open_node();
}

static void close_device(void)
{
	close(fd);
}

int main(int argc, char **argv)
{
	return test_main(argc, argv, "simt-ioctl-test", groups, ARRAY_SIZE(groups),
			 open_device, close_device);
}
