// curand_host: cuRAND's host API (link: -lcurand) on the emulator: its kernels come from
// the library's PTX for a newer architecture (compute_121), as cuBLAS's do.  Several
// generators, uniform floats and doubles, raw bits, normal and log-normal floats (Box-Muller
// on the multi-function unit: sin.approx, cos.approx, lg2.approx) and normal doubles;
// checksums and a few values of each.
#include <cstdio>
#include <curand.h>
#include <cuda_runtime.h>

#define CK(x) do { curandStatus_t s_ = (x); if (s_ != CURAND_STATUS_SUCCESS) { printf("%s: status %d\n", #x, (int)s_); return 1; } } while (0)

static void show(const char *what, const float *v, int n)
{
    double s = 0, q = 0;
    for (int i = 0; i < n; i++) {
        s += v[i];
        q += (double)v[i] * (i % 7 + 1);
    }
    printf("%-22s %.9g %.9g %.9g sum %.17g weighted %.17g\n", what, v[0], v[1], v[n - 1], s, q);
}

int main()
{
    const int n = 4096;
    float *f;
    double *d;
    unsigned *u;
    cudaMallocManaged(&f, n * sizeof(float));
    cudaMallocManaged(&d, n * sizeof(double));
    cudaMallocManaged(&u, n * sizeof(unsigned));
    const struct { curandRngType_t t; const char *name; } gens[] = {
        { CURAND_RNG_PSEUDO_XORWOW, "xorwow" },
        { CURAND_RNG_PSEUDO_PHILOX4_32_10, "philox" },
        { CURAND_RNG_PSEUDO_MRG32K3A, "mrg32k3a" },
        { CURAND_RNG_QUASI_SOBOL32, "sobol32" },
    };
    for (unsigned k = 0; k < sizeof gens / sizeof *gens; k++) {
        curandGenerator_t g;
        char what[64];
        CK(curandCreateGenerator(&g, gens[k].t));
        if (gens[k].t == CURAND_RNG_QUASI_SOBOL32)
            CK(curandSetQuasiRandomGeneratorDimensions(g, 2));
        else
            CK(curandSetPseudoRandomGeneratorSeed(g, 20261127ULL + k));
        CK(curandGenerateUniform(g, f, n));
        cudaDeviceSynchronize();
        snprintf(what, sizeof what, "%s uniform", gens[k].name);
        show(what, f, n);
        CK(curandGenerateNormal(g, f, n, 0.5f, 2.0f));
        cudaDeviceSynchronize();
        snprintf(what, sizeof what, "%s normal", gens[k].name);
        show(what, f, n);
        CK(curandGenerateLogNormal(g, f, n, 0.1f, 0.5f));
        cudaDeviceSynchronize();
        snprintf(what, sizeof what, "%s log-normal", gens[k].name);
        show(what, f, n);
        CK(curandGenerateNormalDouble(g, d, n, -1.0, 0.25));
        cudaDeviceSynchronize();
        double ns = 0;
        for (int i = 0; i < n; i++)
            ns += d[i] * (i % 5 + 1);
        printf("%-22s %.17g %.17g weighted %.17g\n", gens[k].name, d[0], d[n - 1], ns);
        CK(curandGenerateUniformDouble(g, d, n));
        CK(curandGenerate(g, u, n));
        cudaDeviceSynchronize();
        double s = 0;
        unsigned long long us = 0;
        for (int i = 0; i < n; i++) {
            s += d[i];
            us += u[i];
        }
        printf("%-22s %.17g %.17g bits %u %u sum %llu\n", gens[k].name, d[0], s, u[0], u[n - 1], us);
        CK(curandDestroyGenerator(g));
    }
    return 0;
}
