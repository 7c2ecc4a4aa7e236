// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Print the limits table of docs/toolchain.rst ("Limits") from the
 * presets themselves (hw/simt/simt-preset.c) and the LAUNCH rules
 * (simt-core.h, simt-hw.h), so that test-limits-doc.sh can check the
 * page against the code.
 */
#include <stdio.h>

#include "hw/simt/simt-config.h"

static const char *const rule =
	"==========  =======  =====  ======  =========  ========  ========";

int main(void)
{
	SimtConfig c;
	char shared[16];
	int p;

	printf("%s\n", rule);
	printf("preset      threads  warps  blocks  registers  shared    clock\n");
	printf("%s\n", rule);
	for (p = 0; p < SIMT_PRESET_NR; p++) {
		simt_preset_config(p, &c);
		snprintf(shared, sizeof(shared), "%u KiB", c.field[SIMT_CFG_SM_SHARED] / 1024);
		printf("%-10s  %-7u  %-5u  %-6u  %-9u  %-8s  %u MHz\n", simt_preset_name(p),
		       c.field[SIMT_CFG_SM_THREADS], c.field[SIMT_CFG_SM_WARPS],
		       c.field[SIMT_CFG_SM_BLOCKS], c.field[SIMT_CFG_SM_REGS], shared,
		       c.field[SIMT_CFG_CLOCK_MHZ]);
	}
	printf("%s\n\n", rule);
	printf("A block: at most %u threads, %u registers a thread; grid: 1 to 2^32 - 1 blocks\n",
	       SIMT_MAX_BLOCK_THREADS, SIMT_MAX_REGS);
	return 0;
}
