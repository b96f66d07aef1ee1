// tex_query (link: -lcuda): txq and suq of every attribute on texture and surface
// objects.  Each query is loaded as a module of its own (PTX through the driver's JIT,
// as the same query compiled to SASS fares the same) and run on a 2D f32 array: the
// H100's driver runs width, height and depth; a module with any other txq loads without
// its kernel (CUDA_ERROR_NOT_FOUND), and one with any other suq does not load
// (CUDA_ERROR_NOT_SUPPORTED).
#include "apps.h"
#include <cuda.h>

static const char *name(CUresult r)
{
    const char *n = nullptr;
    cuGetErrorName(r, &n);
    return n ? n : "?";
}

static void query(const char *insn, const char *q, unsigned long long handle, int *dout)
{
    char ptx[1024];
    snprintf(ptx, sizeof ptx,
             ".version 8.0\n.target sm_90\n.address_size 64\n"
             ".visible .entry k(.param .u64 h, .param .u64 o)\n{\n.reg .b32 %%r<2>; .reg .b64 %%rd<3>;\n"
             "ld.param.u64 %%rd1, [h]; ld.param.u64 %%rd2, [o];\n%s.%s.b32 %%r1, [%%rd1];\n"
             "st.global.u32 [%%rd2], %%r1;\nret;\n}\n", insn, q);
    CUmodule m;
    CUresult lr = cuModuleLoadData(&m, ptx), fr = CUDA_ERROR_NOT_INITIALIZED, kr = CUDA_ERROR_NOT_INITIALIZED;
    int v = -1;
    if (lr == CUDA_SUCCESS) {
        CUfunction f;
        fr = cuModuleGetFunction(&f, m, "k");
        if (fr == CUDA_SUCCESS) {
            CK(cudaMemset(dout, 0xff, 4));
            void *args[] = { &handle, &dout };
            kr = cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr);
            if (kr == CUDA_SUCCESS)
                kr = cuCtxSynchronize();
            CK(cudaMemcpy(&v, dout, 4, cudaMemcpyDeviceToHost));
        }
        cuModuleUnload(m);
    }
    printf("%s.%-26s load %-26s get function %-26s launch %-26s value %d\n", insn, q, name(lr),
           lr ? "-" : name(fr), lr || fr ? "-" : name(kr), v);
}

int main()
{
    int *dout;
    CK(cudaMalloc(&dout, 4));
    cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CK(cudaMallocArray(&a, &cf, 16, 8, cudaArraySurfaceLoadStore));
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaTextureDesc td = {};
    td.normalizedCoords = 1;
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    cudaSurfaceObject_t s;
    CK(cudaCreateSurfaceObject(&s, &r));
    const char *tq[] = { "width", "height", "depth", "channel_data_type", "channel_order", "normalized_coords",
                         "filter_mode", "addr_mode_0", "addr_mode_1", "addr_mode_2", "array_size",
                         "num_mipmap_levels", "num_samples", "force_unnormalized_coords" };
    for (const char *q : tq)
        query("txq", q, t, dout);
    const char *sq[] = { "width", "height", "depth", "channel_data_type", "channel_order", "array_size",
                         "memory_layout" };
    for (const char *q : sq)
        query("suq", q, s, dout);
    return 0;
}
