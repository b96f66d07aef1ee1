#!/usr/bin/env python3
"""gen_cases.py: writes the texture fuzz cases (cases.txt) and their coordinates
(coords5.bin, coords8.bin) beside this script.  Every geometry x format x channel count x
read mode x filter, each with three address-mode and coordinate-mode choices (clamp with
texel coordinates always, two drawn at random), plus tld4, tex1Dfetch, explicit levels of
detail and gradients.  Coordinates cluster at texel centres and edges (exactly, one ulp
and 1/512 away) with a third spread uniformly, two texels beyond either end.  A case line:
NAME KERNEL N SCALE BIAS COORDS TEXTURE.  Run it again to regenerate the same files."""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
N = 1024
FORMATS = ['u8', 's8', 'u16', 's16', 'u32', 's32', 'f16', 'f32']
GEOMS = ['1d', '2d', '3d', 'a1d', 'a2d', 'cube', 'acube']


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def nudge(x, d):
    b = struct.unpack('<I', struct.pack('<f', x))[0]
    if x == 0:
        return struct.unpack('<f', struct.pack('<I', 1 if d > 0 else 0x80000001))[0] if d else 0.0
    b += d if x > 0 else -d
    return struct.unpack('<f', struct.pack('<I', b & 0xffffffff))[0]


def coords(r, S):
    out = []
    for _ in range(4 * N):
        k = r.random()
        if k < 0.35:
            u = r.randrange(-1, S + 1) + 0.5
        elif k < 0.7:
            u = r.randrange(-1, S + 2)
        else:
            out.append(f32(r.uniform(-2, S + 2) / S))
            continue
        j = r.randrange(6)
        v = f32(u / S)
        if j == 1:
            v = nudge(v, 1)
        elif j == 2:
            v = nudge(v, -1)
        elif j == 3:
            v = f32((u + 1 / 512) / S)
        elif j == 4:
            v = f32((u - 1 / 512) / S)
        elif j == 5:
            v = f32((u + r.uniform(-1, 1) / 256) / S)
        out.append(v)
    return out


def size(geom, S):
    return {'1d': [S], '2d': [S, S], '3d': [S, S, S], 'a1d': [S, S], 'a2d': [S, S, S], 'cube': [S],
            'acube': [S, 2], 'lin': [S * S]}[geom]


def main():
    r = random.Random(20261127)
    for S in (5, 8):
        with open(os.path.join(HERE, 'coords%d.bin' % S), 'wb') as f:
            for v in coords(r, S):
                f.write(struct.pack('<f', v))
    cases = []
    seed = [100]

    def add(name, kernel, geom, fmt, opts, S, norm, dims_extra=''):
        seed[0] += 1
        spec = 'tex.%s.%s[%s]=rand(%d)' % (geom, fmt, ','.join(map(str, size(geom, S))), seed[0])
        if opts:
            spec += ':' + ':'.join(opts)
        if geom in ('cube', 'acube'):
            scale, bias = 2, -1   # directions of both signs
        else:
            scale, bias = (1, 0) if norm else (S, 0)
        cases.append('%s %s %d %g %g tests/texfuzz/coords%d.bin %s' % (name, kernel, N, scale, bias, S, spec))

    modes = [(a, n) for a in ('clamp', 'wrap', 'mirror', 'border') for n in (False, True)]
    for geom in GEOMS:
        for fmt in FORMATS:
            for ch in (1, 2, 4):
                ff = '%sx%d' % (fmt, ch)
                reads = ['elem'] + (['float'] if fmt in ('u8', 's8', 'u16', 's16') else [])
                if fmt == 'u8' and ch == 4:
                    reads.append('srgb')
                for rd in reads:
                    floaty = rd != 'elem' or fmt in ('f16', 'f32')
                    for filt in (['point', 'linear'] if floaty else ['point']):
                        picks = [('clamp', False)] + r.sample(modes[1:], 2)
                        for addr, norm in picks:
                            S = r.choice((5, 8))
                            opts = []
                            if rd == 'float':
                                opts.append('float')
                            if rd == 'srgb':
                                opts += ['float', 'srgb']
                            if filt == 'linear':
                                opts.append('linear')
                            opts.append(addr)
                            if addr == 'border' and floaty and r.random() < 0.5:
                                opts.append('border=0.25,-0.5,1,2')
                            if norm:
                                opts.append('norm')
                            k = ('f' if floaty else 'i' if fmt[0] == 's' else 'u') + geom
                            name = '%s_%s_%s_%s_%s%s' % (geom, ff, rd, filt, addr, '_norm' if norm else '')
                            add(name, k, geom, ff, opts, S, norm)
    # tld4, tex1Dfetch, levels of detail and gradients
    for fmt in FORMATS:
        for ch in (1, 2, 4):
            ff = '%sx%d' % (fmt, ch)
            floaty = fmt in ('f16', 'f32')
            p = 'f' if floaty else 'i' if fmt[0] == 's' else 'u'
            for addr, norm in [('clamp', False)] + r.sample(modes[1:], 1):
                S = r.choice((5, 8))
                opts = [addr] + (['norm'] if norm else [])
                add('gather_%s_%s%s' % (ff, addr, '_norm' if norm else ''), p + 'gather', '2d', ff, opts, S, norm)
            add('fetch_%s' % ff, p + 'fetch', 'lin', ff, [], 8, False)
            if fmt in ('u8', 's16'):
                add('gather_%s_float' % ff, 'fgather', '2d', ff, ['float'], 5, False)
                add('fetch_%s_float' % ff, 'ffetch', 'lin', ff, ['float'], 8, False)
    for fmt in ('f32', 'f16', 'u8', 's16'):
        for ch in (1, 4):
            ff = '%sx%d' % (fmt, ch)
            base = ['float'] if fmt in ('u8', 's16') else []
            for geom, k in (('1d', 'flod1d'), ('2d', 'flod2d'), ('3d', 'flod3d'), ('2d', 'fgrad2d')):
                for filt in ('point', 'linear'):
                    for mip in ('point', 'linear'):
                        S = 8 if geom != '3d' else 8
                        opts = base + (['linear'] if filt == 'linear' else []) + ['norm', 'levels=4', 'mip=' + mip]
                        add('%s_%s_%s_%s_mip%s' % (k, ff, geom, filt, mip), k, geom, ff, opts, S, True)
    with open(os.path.join(HERE, 'cases.txt'), 'w') as f:
        f.write('\n'.join(cases) + '\n')
    print(len(cases), 'cases')


if __name__ == '__main__':
    main()
