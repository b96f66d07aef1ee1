__global__ void tiny(int *p) { p[threadIdx.x] += 1; }
