__global__ void tiny(int *p) { p[threadIdx.x] += 1; }
int main() { int *p; cudaMalloc(&p, 128); tiny<<<1, 32>>>(p); return cudaDeviceSynchronize(); }
