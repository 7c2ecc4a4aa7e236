/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * simt: the watchdog and recovery (simt_recover.c).
 */
#ifndef __SIMT_RECOVER_H__
#define __SIMT_RECOVER_H__

struct simt_device;

int simt_recover_init(struct simt_device *sdev);
void simt_recover_fini(struct simt_device *sdev);
int simt_device_reset_request(struct simt_device *sdev);
unsigned long simt_watchdog_delay(void);

#endif /* __SIMT_RECOVER_H__ */
