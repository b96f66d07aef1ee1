// surf_rw2d.cu: surface golden tests/golden/surf_rw2d.cmd (one kernel per module: the
// driver JIT refuses a module that also holds the query kernel).
#include <cuda_runtime.h>

// Thread (x, y) of a W x H grid: reads element (x + dx, y + dy) of s with each boundary
// mode and writes what it read, transformed, to d at (W-1-x, y).
extern "C" __global__ void rw2d(cudaSurfaceObject_t s, cudaSurfaceObject_t d, unsigned *o, int dx, int dy)
{
    int x = threadIdx.x, y = threadIdx.y, w = blockDim.x, i = y * w + x;
    unsigned a = surf2Dread<unsigned>(s, (x + dx) * 4, y + dy, cudaBoundaryModeClamp);
    unsigned b = surf2Dread<unsigned>(s, (x + dx) * 4, y + dy, cudaBoundaryModeZero);
    o[2 * i] = a;
    o[2 * i + 1] = b;
    surf2Dwrite(a * 3 + 1, d, (w - 1 - x) * 4, y);
}
