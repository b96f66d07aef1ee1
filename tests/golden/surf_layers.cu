// surf_layers.cu: surface golden tests/golden/surf_layers.cmd (one kernel per module: the
// driver JIT refuses a module that also holds the query kernel).
#include <cuda_runtime.h>

// Layered 2D and 3D surfaces: the layer or slice from the thread index.
extern "C" __global__ void layers(cudaSurfaceObject_t a, cudaSurfaceObject_t v, unsigned *o)
{
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    unsigned p = surf2DLayeredread<unsigned>(a, x * 4, y, z);
    unsigned q = surf3Dread<unsigned>(v, x * 4, y, z);
    int i = (z * blockDim.y + y) * blockDim.x + x;
    o[2 * i] = p;
    o[2 * i + 1] = q;
    surf2DLayeredwrite(p + q, a, x * 4, y, z);
    surf3Dwrite(p ^ q, v, x * 4, y, z);
}
