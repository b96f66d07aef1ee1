// app.cu: a CUDA program that launches some of mem.cu's kernels through the runtime, as a
// user's program does; measured under Nsight Compute (record_app.sh) and run under
// ptxrun --stats (check_app.sh), launch by launch.
#include <cstdio>
#include "mem.cu"

int main()
{
    const unsigned n = 1 << 20;
    float *a, *b, *c;
    unsigned *u, *bins;
    cudaMalloc(&a, n * 4);
    cudaMalloc(&b, n * 4);
    cudaMalloc(&c, n * 4);
    cudaMalloc(&u, n * 4);
    cudaMalloc(&bins, 256 * 4);
    cudaMemset(a, 0, n * 4);
    cudaMemset(b, 0, n * 4);
    cudaMemset(bins, 0, 256 * 4);
    unsigned *h = new unsigned[n];
    for (unsigned i = 0; i < n; i++)
        h[i] = i * 2654435761u >> 7;
    cudaMemcpy(u, h, n * 4, cudaMemcpyHostToDevice);
    delete[] h;
    ld_f32<<<n / 256, 256>>>(a, c, 1, 0, n, 0, 1);                 // a stream
    ld_f32<<<64, 256>>>(a, c, 33, 0, n, 0, 4);                     // strided, four times
    st_f32<<<64, 256>>>(c, 2, 0, 32768, 1, 1);                     // strided, misaligned stores
    transpose<<<dim3(16, 16), dim3(32, 32)>>>(a, b, 512, 32);      // bank conflicts
    transpose<<<dim3(16, 16), dim3(32, 32)>>>(a, b, 512, 33);      // none
    reduce_sequential<<<1024, 256>>>(a, c);
    reduce_strided<<<1024, 256>>>(a, c);
    histogram<<<128, 256>>>(u, bins, n);
    mm_naive<<<dim3(16, 16), dim3(16, 16)>>>(a, b, c, 256);
    sh_ld_f64<<<8, 256>>>(c, 2, 0, 4096, 0, 4);
    atom_add<<<16, 256>>>(u, (unsigned *)c, 1, 0, 4096, 0, 2);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
