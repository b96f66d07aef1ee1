#!/usr/bin/env python3
"""mma_special_gen.py: writes mma_special.bin, the operands of golden mma_special,
mma_mixed.bin, those of golden mma_mixed, and mma_subnormal.bin, those of golden
mma_subnormal (half of the finite 16-bit operands subnormal, the others of any exponent,
small f32 accumulators): six sets (one per CTA) of 32 lanes x
18 words: A as f16 (4 words), B as f16 (2), A as bf16
(4), B as bf16 (2), C as f32 (4), C as f16x2 (2).  Set 0 puts infinities and NaNs in A,
set 1 in B, set 2 in C, set 3 everywhere with zeros and subnormals, set 4 holds values
whose sums overflow an f16 (and an f32 from bf16), set 5 infinities of both signs that
meet in one sum.  In mma_special the finite values have few significant bits and
exponents close together, so that every finite sum is exact in f32 (the rounding of the
tensor cores plays no part: the special values do); in mma_mixed they span 12 binades with
full significands.  Run from tests/golden: python3 mma_special_gen.py"""
import random, struct

F16_SPECIAL = [0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0x7dff]
BF16_SPECIAL = [0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7f81]
F32_SPECIAL = [0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001]

EASY = False
SUB = False

def f16_normal(r, lo=-6, hi=6):
    if SUB:
        if r.random() < 0.5:
            return (r.randint(0, 1) << 15) | r.randint(1, 1023)
        return (r.randint(0, 1) << 15) | (r.randint(1, 30) << 10) | r.randint(0, 1023)
    if EASY:
        return (r.randint(0, 1) << 15) | (r.randint(15 - 3, 15 + 3) << 10) | (r.randint(0, 7) << 7)
    e = r.randint(15 + lo, 15 + hi)
    return (r.randint(0, 1) << 15) | (e << 10) | r.randint(0, 1023)

def bf16_normal(r, lo=-6, hi=6):
    if SUB:
        if r.random() < 0.5:
            return (r.randint(0, 1) << 15) | r.randint(1, 127)
        return (r.randint(0, 1) << 15) | (r.randint(1, 254) << 7) | r.randint(0, 127)
    if EASY:
        return (r.randint(0, 1) << 15) | (r.randint(127 - 3, 127 + 3) << 7) | (r.randint(0, 7) << 4)
    e = r.randint(127 + lo, 127 + hi)
    return (r.randint(0, 1) << 15) | (e << 7) | r.randint(0, 127)

def f32_normal(r, lo=-6, hi=6):
    if SUB and lo < 0:
        return (r.randint(0, 1) << 31) | (r.randint(1, 40) << 23) | r.randint(0, (1 << 23) - 1)
    if EASY and lo < 0:
        return (r.randint(0, 1) << 31) | (r.randint(127 - 3, 127 + 3) << 23) | (r.randint(0, 7) << 20)
    e = r.randint(127 + lo, 127 + hi)
    return (r.randint(0, 1) << 31) | (e << 23) | r.randint(0, (1 << 23) - 1)

def pack(lo, hi):
    return lo | (hi << 16)

def lane_words(r, s):
    if SUB:
        w = [pack(f16_normal(r), f16_normal(r)) for _ in range(6)]
        w += [pack(bf16_normal(r), bf16_normal(r)) for _ in range(6)]
        w += [f32_normal(r) for _ in range(4)]
        w += [pack(f16_normal(r), f16_normal(r)) for _ in range(2)]
        return w
    def f16(where):
        if s == 3 and r.random() < 0.25:
            return r.choice(F16_SPECIAL + [0x0000, 0x8000, 0x0001, 0x83ff, 0x7bff])
        if s == 4:
            return (r.randint(0, 1) << 15) | (r.randint(27, 30) << 10) | r.randint(0, 1023)
        if s == 5 and r.random() < 0.1:
            return r.choice([0x7c00, 0xfc00])
        if s == where and r.random() < 0.08:
            return r.choice(F16_SPECIAL)
        return f16_normal(r)
    def bf16(where):
        if s == 3 and r.random() < 0.25:
            return r.choice(BF16_SPECIAL + [0x0000, 0x8000, 0x0001, 0x807f, 0x7f7f])
        if s == 4:
            return (r.randint(0, 1) << 15) | (r.randint(190, 254) << 7) | r.randint(0, 127)
        if s == 5 and r.random() < 0.1:
            return r.choice([0x7f80, 0xff80])
        if s == where and r.random() < 0.08:
            return r.choice(BF16_SPECIAL)
        return bf16_normal(r)
    def f32():
        if (s == 2 or s == 3) and r.random() < 0.2:
            return r.choice(F32_SPECIAL)
        if s == 4:
            return f32_normal(r, 100, 126)
        return f32_normal(r)
    w = []
    w += [pack(f16(0), f16(0)) for _ in range(4)]
    w += [pack(f16(1), f16(1)) for _ in range(2)]
    w += [pack(bf16(0), bf16(0)) for _ in range(4)]
    w += [pack(bf16(1), bf16(1)) for _ in range(2)]
    w += [f32() for _ in range(4)]
    def c16():
        if (s == 2 or s == 3) and r.random() < 0.2:
            return r.choice(F16_SPECIAL)
        return f16(-1)
    w += [pack(c16(), c16()) for _ in range(2)]
    return w

for EASY, SUB, path in ((False, False, "mma_mixed.bin"), (True, False, "mma_special.bin"),
                        (False, True, "mma_subnormal.bin")):
    r = random.Random(20261127)
    words = []
    for s in range(6):
        for lane in range(32):
            words += lane_words(r, s)
    with open(path, "wb") as f:
        f.write(struct.pack("<%dI" % len(words), *words))
