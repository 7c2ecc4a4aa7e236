/*
 * SPDX-License-Identifier: GPL-2.0-or-later OR MIT
 *
 * simt: little-endian bytes, as the hardware contract stores every word
 * (save records, kernel images and their notes), for the device, the
 * interpreter, the tools and the tests alike; plain C.
 */
#ifndef SIMT_LE_H
#define SIMT_LE_H

#include <stdint.h>

static inline uint16_t simt_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t simt_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static inline uint64_t simt_le64(const uint8_t *p)
{
    return simt_le32(p) | (uint64_t)simt_le32(p + 4) << 32;
}

static inline void simt_put_le16(uint8_t *p, uint16_t v)
{
    p[0] = v;
    p[1] = v >> 8;
}

static inline void simt_put_le32(uint8_t *p, uint32_t v)
{
    p[0] = v;
    p[1] = v >> 8;
    p[2] = v >> 16;
    p[3] = v >> 24;
}

static inline void simt_put_le64(uint8_t *p, uint64_t v)
{
    simt_put_le32(p, v);
    simt_put_le32(p + 4, v >> 32);
}

#endif /* SIMT_LE_H */
