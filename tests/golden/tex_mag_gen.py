#!/usr/bin/env python3
"""tex_mag_gen.py: writes the texels of the goldens tex_mag_f32 and tex_mag_f16 (also
read by tex_mag_pf32 and tex_mag_pf16) and the coordinates of tex_coords_sub
(tex_mag_f32.bin, tex_mag_f16.bin, tex_coords_sub.bin beside this script): 16x16
four-channel textures whose
neighbouring texels differ wildly in magnitude, so that linear filtering meets every case
of the H100's combination (docs/textures.md): texels far below the largest (their low bits
cut), subnormals, zeros of both signs, values near 1, random bit patterns, and a few
infinities and NaNs.  Run it again to regenerate the same bytes (fixed seed)."""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def f32_value(r):
    k = r.randrange(10)
    if k < 2:
        return r.uniform(-1, 1)
    if k < 5:   # any magnitude, subnormals included
        return r.choice((-1, 1)) * (1 + r.random()) * 2.0 ** r.randrange(-149, 127)
    if k == 5:  # just above 1
        return 1 + r.randrange(64) * 2.0 ** -23
    if k == 6:
        return r.choice((0.0, -0.0))
    if k == 7:  # neighbours of a common exponent, a few binades apart
        return r.choice((-1, 1)) * r.uniform(1, 2) * 2.0 ** r.randrange(-6, 7)
    if k == 8:  # a random finite bit pattern
        while True:
            b = r.getrandbits(32)
            if (b >> 23) & 0xff != 0xff:
                return struct.unpack('<f', struct.pack('<I', b))[0]
    return r.choice((float('inf'), float('-inf'), float('nan'), 1.0, 0.5, 2.0, -3.0, 0.75, 1.5, -1.0, 0.125, 4.0))


def f16_bits(r):
    k = r.randrange(8)
    if k < 3:
        return struct.unpack('<H', struct.pack('<e', r.uniform(-1, 1)))[0]
    if k == 3:  # subnormal halves
        return r.getrandbits(10) | r.getrandbits(1) << 15
    if k == 4:
        return r.choice((0, 0x8000))
    if k == 5:  # any finite half
        while True:
            b = r.getrandbits(16)
            if (b >> 10) & 0x1f != 0x1f:
                return b
    if k == 6:
        return struct.unpack('<H', struct.pack('<e', r.choice((-1, 1)) * r.uniform(1, 2) * 2.0 ** r.randrange(-14, 16) / 2))[0]
    return r.choice((0x7c00, 0xfc00, 0x7e00, 0x3c00, 0x3800, 0xc000, 0x3a00, 0x4400, 0xbc00, 0x3000, 0x4200, 0x3e00))


def main():
    r = random.Random(20261127)
    with open(os.path.join(HERE, 'tex_mag_f32.bin'), 'wb') as f:
        for _ in range(16 * 16 * 4):
            f.write(struct.pack('<f', f32_value(r)))
    with open(os.path.join(HERE, 'tex_mag_f16.bin'), 'wb') as f:
        for _ in range(16 * 16 * 4):
            f.write(struct.pack('<H', f16_bits(r)))
    with open(os.path.join(HERE, 'tex_coords_sub.bin'), 'wb') as f:
        bits = []
        for _ in range(256):   # subnormals of both signs
            bits.append(r.randrange(1, 1 << 23) | r.getrandbits(1) << 31)
        bits += [0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000]
        while len(bits) < 1536:   # multiples of 1/512 and their neighbours
            k = r.randrange(-1536, 1537)
            b = struct.unpack('<I', struct.pack('<f', k / 512))[0]
            d = r.choice((0, 1, -1))
            if k == 0:
                d = 0
            bits.append((b + d) & 0xffffffff)
        while len(bits) < 2048:
            bits.append(struct.unpack('<I', struct.pack('<f', r.uniform(-3, 3)))[0])
        for b in bits:
            f.write(struct.pack('<I', b))


if __name__ == '__main__':
    main()
