// vecadd.cu: the program whose driver calls are logged (tests/driver/record.sh): allocate,
// copy, launch, synchronise, device printf, copy back.
#include <cstdio>

__global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
    if (i == 0)
        printf("device: n=%d\n", n);
}

int main()
{
    const int n = 1000;
    float ha[n], hb[n], hc[n];
    for (int i = 0; i < n; i++) {
        ha[i] = (float)i;
        hb[i] = 2.0f * i;
    }
    float *a, *b, *c;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMalloc(&c, n * sizeof(float));
    cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice);
    cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice);
    vecadd<<<(n + 255) / 256, 256>>>(a, b, c, n);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(hc, c, sizeof hc, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += hc[i] != 3.0f * i;
    printf("host: %s, %d wrong\n", cudaGetErrorString(e), bad);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    return bad != 0;
}
