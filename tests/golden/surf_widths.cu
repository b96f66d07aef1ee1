// surf_widths.cu: surface golden tests/golden/surf_widths.cmd (one kernel per module: the
// driver JIT refuses a module that also holds the query kernel).
#include <cuda_runtime.h>

// 1D surface of 8-byte elements: loads of 1, 2, 4, 8 and 16 bytes, stores of 1 and 2.
extern "C" __global__ void widths(cudaSurfaceObject_t s, unsigned long long *o)
{
    int x = threadIdx.x;
    o[6 * x + 0] = surf1Dread<unsigned char>(s, x * 8 + 3);
    o[6 * x + 1] = surf1Dread<unsigned short>(s, x * 8 + 2);
    o[6 * x + 2] = surf1Dread<unsigned>(s, x * 8 + 4);
    o[6 * x + 3] = surf1Dread<unsigned long long>(s, x * 8);
    if (x % 2 == 0) {
        ulonglong2 v = surf1Dread<ulonglong2>(s, x * 8);
        o[6 * x + 4] = v.x ^ v.y;
    } else {
        o[6 * x + 4] = 0;
    }
    uint4 q = surf1Dread<uint4>(s, (x & ~1) * 8);
    o[6 * x + 5] = q.x + q.y + q.z + q.w;
    __syncthreads();
    surf1Dwrite((unsigned char)(x + 0x40), s, x * 8 + 1);
    surf1Dwrite((unsigned short)(x * 0x101), s, x * 8 + 6);
}
