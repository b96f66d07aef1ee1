// Feature group 6.4: built-in variables.
__global__ void k_builtins(unsigned *out)
{
    unsigned i = ((blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x)
                 * (blockDim.x * blockDim.y * blockDim.z)
                 + (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    unsigned *o = out + i * 14;
    o[0] = threadIdx.x; o[1] = threadIdx.y; o[2] = threadIdx.z;
    o[3] = blockIdx.x;  o[4] = blockIdx.y;  o[5] = blockIdx.z;
    o[6] = blockDim.x;  o[7] = blockDim.y;  o[8] = blockDim.z;
    o[9] = gridDim.x;   o[10] = gridDim.y;  o[11] = gridDim.z;
    o[12] = warpSize;
    o[13] = threadIdx.x % warpSize + threadIdx.x / warpSize;
}
__global__ void k_builtins_struct(uint3 *t, uint3 *b, dim3 *bd, dim3 *gd)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    t[i] = threadIdx; b[i] = blockIdx; bd[i] = blockDim; gd[i] = gridDim;
}
