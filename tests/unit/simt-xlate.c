/* SPDX-License-Identifier: GPL-2.0-or-later */
/* simt: memory behind a page table (simt-xlate.h). */

#include "qemu/osdep.h"
#include "simt-xlate.h"

static uint32_t pte_of(const Xlate *x, uint32_t addr)
{
    uint32_t vpn = addr / SIMT_MEM_PAGE_SIZE;

    return vpn < XLATE_PAGES ? x->pte[vpn] : 0;
}

static uint8_t *xlate(Xlate *x, uint32_t addr, bool store)
{
    uint32_t pte = pte_of(x, addr);

    x->translations++;
    if (!(pte & XLATE_V) || (store && !(pte & XLATE_W))) {
        return NULL;
    }
    return x->mem + (pte >> 2) * SIMT_MEM_PAGE_SIZE +
           addr % SIMT_MEM_PAGE_SIZE;
}

static int xlate_load(void *opaque, uint32_t addr, unsigned size,
                      uint32_t *val)
{
    uint8_t *p = xlate(opaque, addr, false);

    if (!p) {
        return SIMT_FAULT_PAGE;
    }
    *val = 0;
    memcpy(val, p, size);       /* little-endian host */
    return SIMT_FAULT_NONE;
}

static int xlate_store(void *opaque, uint32_t addr, unsigned size,
                       uint32_t val)
{
    uint8_t *p = xlate(opaque, addr, true);

    if (!p) {
        return SIMT_FAULT_PAGE;
    }
    memcpy(p, &val, size);
    return SIMT_FAULT_NONE;
}

/* Only what would succeed lane by lane, counted as those lanes would be. */
static uint8_t *xlate_page(void *opaque, uint32_t addr, bool store,
                           unsigned lanes)
{
    Xlate *x = opaque;
    uint32_t pte = pte_of(x, addr);

    if (!(pte & XLATE_V) || (store && !(pte & XLATE_W))) {
        return NULL;
    }
    x->translations += lanes;
    return x->mem + (pte >> 2) * SIMT_MEM_PAGE_SIZE;
}

static const SimtMemOps xlate_ops = {
    .load = xlate_load, .store = xlate_store, .page = xlate_page,
};

void xlate_identity(Xlate *x, uint8_t *mem, uint32_t bytes)
{
    uint32_t pages = bytes / SIMT_MEM_PAGE_SIZE;

    memset(x, 0, sizeof(*x));
    x->mem = mem;
    for (uint32_t i = 0; i < pages && i < XLATE_PAGES; i++) {
        x->pte[i] = i << 2 | XLATE_W | XLATE_V;
    }
}

SimtMem xlate_mem(Xlate *x)
{
    return (SimtMem) { .ops = &xlate_ops, .opaque = x };
}
