// printf: device printf's conversions, flags, widths and precisions, lengths, strings and
// characters, many arguments, output of several warps and blocks (one warp prints in lane
// order; different blocks print in turn), and output flushed at each synchronisation.
#include "apps.h"
#include <cstring>

__global__ void formats(int i, unsigned u, long long ll, unsigned long long ull, float f, double d, const char *s)
{
    printf("d %d i %i u %u x %x X %X o %o\n", i, i, u, u, u, u);
    printf("ld %ld lld %lld llu %llu llx %llx\n", (long)ll, ll, ull, ull);
    printf("f %f e %e E %E g %g G %G\n", f, d, d, d, d);
    printf("a %a A %A\n", d, f);
    printf("width [%8d] [%-8d] [%08d] [%+d] [% d] [%x] [%#x] [%#o]\n", i, i, i, i, i, u, u, u);
    printf("precision [%.3f] [%10.4f] [%-10.2e] [%.0f] [%.10g] [%#.0f]\n", d, d, d, d, d, d);
    printf("string [%s] [%10s] [%-10s] [%.3s] char [%c%c%c] percent %%\n", s, s, s, s, 'a', 'B' + 1, 48 + i % 10);
    printf("special %f %f %f %e %g\n", 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0 * (i > 0 ? 1 : -1), 1e300 * 10, -0.0);
    printf("many %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %f %f\n", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
           14, 15, 16, 17.5, 18.25);
    printf("no arguments\n");
    printf("half a line ");
    printf("and the rest\n");
    printf("short %hd ushort %hu\n", (short)-12345, (unsigned short)54321);
}

__global__ void lanes()
{
    printf("block %d thread %2d: %d\n", blockIdx.x, threadIdx.x, threadIdx.x * threadIdx.x);
}

__global__ void strings(const char *const *tab, int n)
{
    for (int k = 0; k < n; k++)
        printf("%d: %s|%5.2s|\n", k, tab[k], tab[k]);
}

int main()
{
    const char msg[] = "hello, device";
    char *dmsg;
    CK(cudaMalloc(&dmsg, sizeof msg));
    CK(cudaMemcpy(dmsg, msg, sizeof msg, cudaMemcpyHostToDevice));
    formats<<<1, 1>>>(-42, 3000000000u, -1234567890123ll, 18446744073709551615ull, 3.14159274f, 2.718281828459045,
                      dmsg);
    CK(cudaDeviceSynchronize());
    printf("host: after formats\n");
    fflush(stdout);
    lanes<<<1, 32>>>();
    CK(cudaDeviceSynchronize());
    fflush(stdout);
    for (int b = 0; b < 3; b++) {
        lanes<<<dim3(1), dim3(4)>>>();
        CK(cudaDeviceSynchronize());
        fflush(stdout);
    }
    const char *words[] = { "", "a", "longer words here", "x" };
    char **dw, *hw[4];
    for (int k = 0; k < 4; k++) {
        char buf[32] = { 0 };
        strcpy(buf, words[k]);
        CK(cudaMalloc(&hw[k], 32));
        CK(cudaMemcpy(hw[k], buf, 32, cudaMemcpyHostToDevice));
    }
    CK(cudaMalloc(&dw, sizeof hw));
    CK(cudaMemcpy(dw, hw, sizeof hw, cudaMemcpyHostToDevice));
    strings<<<1, 1>>>(dw, 4);
    CK(cudaDeviceSynchronize());
    printf("host: done\n");
    return 0;
}
