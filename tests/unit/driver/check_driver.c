/* check_driver.c: the emulator's CUDA driver (runtime/driver/) called directly, linked in
 * (so that the sanitizer build checks it too): cuGetProcAddress's answers, the private
 * tables, the device, memory and its errors, modules from PTX text, cuLink*, launches with
 * both parameter forms, sticky faults, stream capture and graphs, unsupported functions, CUDA
 * arrays and their copies, texture and surface objects.  What
 * NVIDIA's runtime does on top of it is tested by the programs of tests/apps. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/driver/drv.h"

/* The driver functions called here (the driver declares few of them itself). */
CUresult cuInit(unsigned);
CUresult cuGetProcAddress_v2(const char *, void **, int, unsigned long long, int *);
CUresult cuGetExportTable(const void **, const CUuuid *);
CUresult cuDeviceGetName(char *, int, CUdevice);
CUresult cuCtxSetCurrent(CUcontext);
CUresult cuCtxGetCurrent(CUcontext *);
CUresult cuCtxSynchronize(void);
CUresult cuMemAlloc_v2(CUdeviceptr *, size_t);
CUresult cuMemAlloc(CUdeviceptr *, size_t);
CUresult cuMemFree_v2(CUdeviceptr);
CUresult cuMemcpyHtoD_v2(CUdeviceptr, const void *, size_t);
CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr, const void *, size_t);
CUresult cuMemcpyDtoH_v2(void *, CUdeviceptr, size_t);
CUresult cuMemsetD32_v2(CUdeviceptr, unsigned, size_t);
CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *);
CUresult cuMemGetAddressRange_v2(CUdeviceptr *, size_t *, CUdeviceptr);
CUresult cuPointerGetAttribute(void *, int, CUdeviceptr);
CUresult cuModuleGetFunction(CUfunction *, CUmodule, const char *);
CUresult cuModuleGetGlobal_v2(CUdeviceptr *, size_t *, CUmodule, const char *);
CUresult cuLaunchKernel(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                        void **, void **);
CUresult cuStreamCreate(CUstream *, unsigned);
CUresult cuStreamSynchronize(CUstream);
CUresult cuStreamBeginCapture_v2(CUstream, int);
CUresult cuStreamEndCapture(CUstream, void **);
CUresult cuGraphInstantiateWithFlags(void **, void *, unsigned long long);
CUresult cuGraphLaunch(void *, CUstream);
CUresult cuGraphGetNodes(void *, void **, size_t *);
CUresult cuIpcGetMemHandle(void *, CUdeviceptr);
CUresult cuIpcCloseMemHandle(CUdeviceptr);
CUresult cuGLInit(void);
CUresult cuArrayCreate_v2(CUarray *, const CUDA_ARRAY_DESCRIPTOR *);
CUresult cuArray3DCreate_v2(CUarray *, const CUDA_ARRAY3D_DESCRIPTOR *);
CUresult cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR *, CUarray);
CUresult cuArrayDestroy(CUarray);
CUresult cuMipmappedArrayCreate(CUmipmappedArray *, const CUDA_ARRAY3D_DESCRIPTOR *, unsigned);
CUresult cuMipmappedArrayGetLevel(CUarray *, CUmipmappedArray, unsigned);
CUresult cuMipmappedArrayDestroy(CUmipmappedArray);
CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *);
CUresult cuMemcpyHtoA_v2(CUarray, size_t, const void *, size_t);
CUresult cuMemcpyAtoH_v2(void *, CUarray, size_t, size_t);
CUresult cuMemGetInfo_v2(size_t *, size_t *);
CUresult cuTexObjectCreate(CUtexObject *, const CUDA_RESOURCE_DESC *, const CUDA_TEXTURE_DESC *,
                           const CUDA_RESOURCE_VIEW_DESC *);
CUresult cuTexObjectDestroy(CUtexObject);
CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC *, CUtexObject);
CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC *, CUtexObject);
CUresult cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC *, CUtexObject);
CUresult cuSurfObjectCreate(CUsurfObject *, const CUDA_RESOURCE_DESC *);
CUresult cuSurfObjectDestroy(CUsurfObject);
CUresult cuTexRefCreate(void *);
CUresult cuModuleUnload(CUmodule);
CUresult cuStreamDestroy_v2(CUstream);
CUresult cuGraphDestroy(void *);
CUresult cuGraphExecDestroy(void *);
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice);
CUresult cuModuleLoadData(CUmodule *, const void *);
CUresult cuLibraryLoadData(CUlibrary *, const void *, void *, void **, unsigned, void *, void **, unsigned);
CUresult cuLibraryGetKernel(CUkernel *, CUlibrary, const char *);
CUresult cuLibraryGetGlobal(CUdeviceptr *, size_t *, CUlibrary, const char *);
CUresult cuLibraryUnload(CUlibrary);
CUresult cuKernelGetFunction(CUfunction *, CUkernel);
CUresult cuLinkCreate_v2(unsigned, int *, void **, CUlinkState *);
CUresult cuLinkAddData_v2(CUlinkState, int, void *, size_t, const char *, unsigned, int *, void **);
CUresult cuLinkAddFile_v2(CUlinkState, int, const char *, unsigned, int *, void **);
CUresult cuLinkComplete(CUlinkState, void **, size_t *);
CUresult cuLinkDestroy(CUlinkState);

/* Graph API (graph.c, graph_exec.c, capture.c, graph_mem.c), for the tests below. */
CUresult cuGraphCreate(void **, unsigned);
CUresult cuGraphAddNode(void **, void *, void *const *, size_t, void *);
CUresult cuGraphAddMemAllocNode(void **, void *, void *const *, size_t, void *);
CUresult cuGraphAddMemFreeNode(void **, void *, void *const *, size_t, CUdeviceptr);
CUresult cuGraphAddKernelNode_v2(void **, void *, void *const *, size_t, const void *);
CUresult cuGraphMemAllocNodeGetParams(void *, void *);
CUresult cuGraphKernelNodeSetAttribute(void *, int, const CUlaunchAttributeValue *);
CUresult cuGraphKernelNodeGetAttribute(void *, int, CUlaunchAttributeValue *);
CUresult cuGraphKernelNodeCopyAttributes(void *, void *);
CUresult cuGraphClone(void **, void *);
CUresult cuGraphDestroyNode(void *);
CUresult cuGraphDebugDotPrint(void *, const char *, unsigned);
CUresult cuGraphConditionalHandleCreate(unsigned long long *, void *, CUcontext, unsigned, unsigned);
CUresult cuUserObjectCreate(void **, void *, void (*)(void *), unsigned, unsigned);
CUresult cuUserObjectRelease(void *, unsigned);
CUresult cuGraphRetainUserObject(void *, void *, unsigned, unsigned);
CUresult cuDeviceGetGraphMemAttribute(CUdevice, int, void *);
CUresult cuDeviceGraphMemTrim(CUdevice);
CUresult cuMemAllocAsync(CUdeviceptr *, size_t, CUstream);
CUresult cuMemFreeAsync(CUdeviceptr, CUstream);

static const char kernels[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .global .align 4 .u32 counter = 5;\n"
    ".visible .entry add(.param .u64 p, .param .u32 v, .param .u32 n)\n{\n"
    "  .reg .pred %p; .reg .u32 %r<5>; .reg .u64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n  ld.param.u32 %r1, [v];\n  ld.param.u32 %r4, [n];\n"
    "  mov.u32 %r2, %tid.x;\n  setp.ge.u32 %p, %r2, %r4;\n  @%p ret;\n"
    "  mul.wide.u32 %rd2, %r2, 4;\n  add.u64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r3, [%rd3];\n  add.u32 %r3, %r3, %r1;\n  st.global.u32 [%rd3], %r3;\n  ret;\n}\n"
    ".visible .entry bad()\n{\n  .reg .u64 %rd1;\n  mov.u64 %rd1, 16;\n  st.global.u32 [%rd1], 1;\n  ret;\n}\n";

static CUcontext setup(void)
{
    CUcontext c;
    ck_assert_int_eq(cuInit(0), CUDA_SUCCESS);
    ck_assert_int_eq(cuDevicePrimaryCtxRetain(&c, 0), CUDA_SUCCESS);
    ck_assert_int_eq(cuCtxSetCurrent(c), CUDA_SUCCESS);
    return c;
}

/* The module of kernels, loaded, in *m, and its entry "add". */
static CUfunction add_kernel(CUmodule *m)
{
    CUfunction f;
    ck_assert_int_eq(cuModuleLoadData(m, kernels), CUDA_SUCCESS);
    ck_assert_int_eq(cuModuleGetFunction(&f, *m, "add"), CUDA_SUCCESS);
    return f;
}

static void *fn_addr(void (*f)(void))
{
    void *p;
    memcpy(&p, &f, sizeof p);
    return p;
}
#define ADDR(f) fn_addr((void (*)(void))(f))

START_TEST(getproc_answers_as_recorded)
{
    void *fn = NULL;
    int st = -1;
    ck_assert_int_eq(cuGetProcAddress_v2("cuMemAlloc", &fn, 3020, 0, &st), CUDA_SUCCESS);
    ck_assert_ptr_eq(fn, ADDR(cuMemAlloc_v2));
    ck_assert_int_eq(st, CU_GET_PROC_ADDRESS_SUCCESS);
    ck_assert_int_eq(cuGetProcAddress_v2("cuMemAlloc", &fn, 12000, 0, &st), CUDA_SUCCESS);
    ck_assert_ptr_eq(fn, ADDR(cuMemAlloc_v2));
    ck_assert_int_eq(cuGetProcAddress_v2("cuMemcpyHtoD", &fn, 7000, 0, &st), CUDA_SUCCESS);
    ck_assert_ptr_eq(fn, ADDR(cuMemcpyHtoD_v2_ptds));
    ck_assert_int_eq(cuGetProcAddress_v2("cuNoSuchFunction", &fn, 13000, 0, &st), CUDA_ERROR_NOT_FOUND);
    ck_assert_int_eq(st, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    ck_assert_int_eq(cuGetProcAddress_v2("cuMemAlloc", &fn, 1000, 0, &st), CUDA_ERROR_NOT_FOUND);
    ck_assert_int_eq(st, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
    ck_assert_int_eq(cuGetProcAddress_v2("", &fn, 0, 0, &st), CUDA_SUCCESS);
    ck_assert_ptr_null(fn);
}
END_TEST

START_TEST(private_tables)
{
    static const uint8_t ids[7][4] = { { 0x6b, 0xd5, 0xfb, 0x6c }, { 0xa0, 0x94, 0x79, 0x8c }, { 0x42, 0xd8, 0x5a, 0x81 },
                                       { 0xf8, 0xcf, 0xf9, 0x51 }, { 0xc6, 0x93, 0x33, 0x6e }, { 0x26, 0x3e, 0x88, 0x60 },
                                       { 0xd4, 0x08, 0x20, 0x55 } };
    static const uint8_t full[7][16] = {
        { 0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9 },
        { 0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66 },
        { 0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc },
        { 0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e, 0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9 },
        { 0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93 },
        { 0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e },
        { 0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2 } };
    /* the sizes the real driver's tables start with (docs/driver-abi.md) */
    static const uintptr_t sizes[7] = { 104, 56, 24, 24, 0, 120, 24 };
    (void)ids;
    for (int i = 0; i < 7; i++) {
        CUuuid u;
        const void *t = NULL;
        memcpy(u.bytes, full[i], 16);
        ck_assert_int_eq(cuGetExportTable(&t, &u), CUDA_SUCCESS);
        ck_assert_ptr_nonnull(t);
        if (sizes[i])
            ck_assert_uint_eq(*(const uintptr_t *)t, sizes[i]);
    }
    CUuuid other = { { 1, 2, 3 } };
    const void *t;
    ck_assert_int_eq(cuGetExportTable(&t, &other), CUDA_ERROR_INVALID_VALUE);
    /* cuBLASLt's table: 136 bytes, every slot answers CUDA_ERROR_NOT_SUPPORTED */
    static const uint8_t blt[16] = { 0x17, 0x34, 0xdc, 0x26, 0x80, 0x0d, 0x47, 0x45,
                                     0x87, 0x26, 0xc0, 0xf1, 0xe7, 0xdd, 0x8b, 0xca };
    CUuuid ub;
    memcpy(ub.bytes, blt, 16);
    ck_assert_int_eq(cuGetExportTable(&t, &ub), CUDA_SUCCESS);
    ck_assert_uint_eq(*(const uintptr_t *)t, 136);
    for (unsigned k = 1; k <= 16; k++) {
        CUresult (*slot)(void);
        memcpy(&slot, (const char *)t + k * sizeof(void *), sizeof slot);
        ck_assert_ptr_nonnull((void *)(uintptr_t)slot);
        ck_assert_int_eq(slot(), CUDA_ERROR_NOT_SUPPORTED);
    }
    /* the integrity answer: constants for versions ending in 0 and 1, else a keyed hash
     * that depends on the time passed */
    CUuuid u;
    memcpy(u.bytes, full[6], 16);
    ck_assert_int_eq(cuGetExportTable(&t, &u), CUDA_SUCCESS);
    CUresult (*integrity)(uint32_t, uint64_t, uint64_t *);
    memcpy(&integrity, (const char *)t + sizeof(void *), sizeof integrity);
    uint64_t a[2], b[2], c[2];
    ck_assert_int_eq(integrity(13000, 1234, a), CUDA_SUCCESS);
    ck_assert_uint_eq(a[0], 0x3341181C03CB675Cull);
    ck_assert_uint_eq(a[1], 0x8ED383AA1F4CD1E8ull);
    ck_assert_int_eq(integrity(13001, 1234, a), CUDA_SUCCESS);
    ck_assert_uint_eq(a[0], 0x1841181C03CB675Cull);
    ck_assert_int_eq(integrity(13002, 1234, a), CUDA_SUCCESS);
    ck_assert_int_eq(integrity(13002, 1234, b), CUDA_SUCCESS);
    ck_assert_int_eq(integrity(13002, 1235, c), CUDA_SUCCESS);
    ck_assert(a[0] == b[0] && a[1] == b[1]);
    ck_assert(a[0] != c[0] || a[1] != c[1]);
}
END_TEST

START_TEST(device_is_an_h100)
{
    setup();
    char name[64];
    int v;
    ck_assert_int_eq(cuDeviceGetName(name, sizeof name, 0), CUDA_SUCCESS);
    ck_assert_str_eq(name, "NVIDIA H100 80GB HBM3");
    ck_assert_int_eq(cuDeviceGetAttribute(&v, 75, 0), CUDA_SUCCESS);   /* compute capability major */
    ck_assert_int_eq(v, 9);
    ck_assert_int_eq(cuDeviceGetAttribute(&v, 16, 0), CUDA_SUCCESS);   /* multiprocessors */
    ck_assert_int_eq(v, 132);
    ck_assert_int_eq(cuDeviceGetAttribute(&v, 16, 1), CUDA_ERROR_INVALID_DEVICE);
    ck_assert_int_eq(cuDeviceGetAttribute(&v, 100000, 0), CUDA_ERROR_INVALID_VALUE);
}
END_TEST

START_TEST(memory_and_its_errors)
{
    setup();
    CUdeviceptr d, base;
    size_t size;
    uint32_t h[64], back[64];
    for (int i = 0; i < 64; i++)
        h[i] = (uint32_t)i * 3;
    ck_assert_int_eq(cuMemAlloc_v2(&d, 256), CUDA_SUCCESS);
    ck_assert_uint_eq(d % 256, 0);
    ck_assert_int_eq(cuMemAlloc_v2(&d, 0), CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuMemAlloc_v2(&d, 256), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemcpyHtoD_v2(d, h, sizeof h), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemcpyDtoH_v2(back, d, sizeof back), CUDA_SUCCESS);
    ck_assert_mem_eq(back, h, sizeof h);
    ck_assert_int_eq(cuMemcpyHtoD_v2(d + 200, h, 100), CUDA_ERROR_INVALID_VALUE);   /* past the end */
    ck_assert_int_eq(cuMemsetD32_v2(d + 4, 0xdeadbeef, 2), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemcpyDtoH_v2(back, d, 16), CUDA_SUCCESS);
    ck_assert_uint_eq(back[0], 0);
    ck_assert_uint_eq(back[1], 0xdeadbeef);
    ck_assert_uint_eq(back[2], 0xdeadbeef);
    ck_assert_uint_eq(back[3], 9);
    ck_assert_int_eq(cuMemsetD32_v2(d + 2, 0, 1), CUDA_ERROR_INVALID_VALUE);   /* misaligned */
    ck_assert_int_eq(cuMemGetAddressRange_v2(&base, &size, d + 17), CUDA_SUCCESS);
    ck_assert_uint_eq(base, d);
    ck_assert_uint_eq(size, 256);
    unsigned type = 0;
    ck_assert_int_eq(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d), CUDA_SUCCESS);
    ck_assert_uint_eq(type, CU_MEMORYTYPE_DEVICE);
    /* a 2D copy: a 4x3 block out of a 16-byte pitched host array */
    uint8_t src[48], dst[12];
    for (int i = 0; i < 48; i++)
        src[i] = (uint8_t)i;
    CUDA_MEMCPY2D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = src;
    c.srcPitch = 16;
    c.srcXInBytes = 2;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = d;
    c.dstPitch = 4;
    c.WidthInBytes = 4;
    c.Height = 3;
    ck_assert_int_eq(cuMemcpy2D_v2(&c), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemcpyDtoH_v2(dst, d, 12), CUDA_SUCCESS);
    ck_assert_uint_eq(dst[0], 2);
    ck_assert_uint_eq(dst[4], 18);
    ck_assert_uint_eq(dst[11], 37);
    ck_assert_int_eq(cuMemFree_v2(d), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemFree_v2(d), CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuMemFree_v2(d + 1), CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuDevicePrimaryCtxRelease_v2(0), CUDA_SUCCESS);   /* frees the other allocation */
}
END_TEST

START_TEST(launch_both_parameter_forms)
{
    setup();
    CUmodule m;
    CUfunction f;
    CUdeviceptr d, g;
    size_t gsize;
    uint32_t h[40];
    f = add_kernel(&m);
    ck_assert_int_eq(cuModuleGetFunction(&f, m, "nothing"), CUDA_ERROR_NOT_FOUND);
    ck_assert_int_eq(cuModuleGetFunction(&f, m, "add"), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemAlloc_v2(&d, sizeof h), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemsetD32_v2(d, 10, 40), CUDA_SUCCESS);
    uint32_t v = 7, n = 33;
    void *params[] = { &d, &v, &n };
    ck_assert_int_eq(cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, params, NULL), CUDA_SUCCESS);
    struct { CUdeviceptr p; uint32_t v, n; } block = { d, 100, 2 };
    size_t bs = sizeof block;
    void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &block, CU_LAUNCH_PARAM_BUFFER_SIZE, &bs, CU_LAUNCH_PARAM_END };
    ck_assert_int_eq(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemcpyDtoH_v2(h, d, sizeof h), CUDA_SUCCESS);
    ck_assert_uint_eq(h[0], 117);
    ck_assert_uint_eq(h[1], 117);
    ck_assert_uint_eq(h[2], 17);
    ck_assert_uint_eq(h[32], 17);
    ck_assert_uint_eq(h[33], 10);
    /* limits the launch refuses */
    ck_assert_int_eq(cuLaunchKernel(f, 1, 1, 1, 2048, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 64 * 1024, NULL, params, NULL), CUDA_ERROR_INVALID_VALUE);
    /* a module variable with its initial value */
    ck_assert_int_eq(cuModuleGetGlobal_v2(&g, &gsize, m, "counter"), CUDA_SUCCESS);
    ck_assert_uint_eq(gsize, 4);
    ck_assert_int_eq(cuMemcpyDtoH_v2(h, g, 4), CUDA_SUCCESS);
    ck_assert_uint_eq(h[0], 5);
    ck_assert_int_eq(cuModuleUnload(m), CUDA_SUCCESS);
    ck_assert_int_eq(cuDevicePrimaryCtxRelease_v2(0), CUDA_SUCCESS);
}
END_TEST

/* PTXEMU_STATS=json: each launch's statistics, one JSON object per line, in the file
 * PTXEMU_STATS_FILE names (the counts by the rules tests/stats measured on the H100: one
 * request per warp instruction, the distinct 32-byte sectors its lanes touch). */
START_TEST(statistics_per_launch)
{
    char path[] = "/tmp/ptxemu-drvstats.XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    setenv("PTXEMU_STATS", "json", 1);
    setenv("PTXEMU_STATS_FILE", path, 1);
    setup();
    CUmodule m;
    CUfunction f;
    CUdeviceptr d;
    f = add_kernel(&m);
    ck_assert_int_eq(cuMemAlloc_v2(&d, 256), CUDA_SUCCESS);
    uint32_t v = 7, n = 33;
    void *params[] = { &d, &v, &n };
    ck_assert_int_eq(cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, params, NULL), CUDA_SUCCESS);
    ck_assert_int_eq(cuCtxSynchronize(), CUDA_SUCCESS);
    FILE *in = fopen(path, "r");
    ck_assert_ptr_nonnull(in);
    char line[4096];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, in));
    fclose(in);
    unlink(path);
    ck_assert_ptr_nonnull(strstr(line, "\"kernel\": \"add\""));
    ck_assert_ptr_nonnull(strstr(line, "\"block\": [64, 1, 1]"));
    ck_assert_ptr_nonnull(strstr(line, "\"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\": 2,"));
    ck_assert_ptr_nonnull(strstr(line, "\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\": 5,"));
    ck_assert_ptr_nonnull(strstr(line, "\"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum\": 5,"));
    ck_assert_int_eq(cuModuleUnload(m), CUDA_SUCCESS);
    ck_assert_int_eq(cuDevicePrimaryCtxRelease_v2(0), CUDA_SUCCESS);
}
END_TEST

/* A library needs no current context (the runtime loads one before it makes a context when
 * the host first touches a __managed__ variable) and is usable in every context; a module
 * needs the current one. */
START_TEST(library_needs_no_context)
{
    CUmodule m;
    CUlibrary l;
    CUkernel k;
    CUfunction f;
    CUdeviceptr g, d;
    size_t gsize;
    uint32_t h[4];
    ck_assert_int_eq(cuInit(0), CUDA_SUCCESS);
    ck_assert_int_eq(cuCtxSetCurrent(NULL), CUDA_SUCCESS);
    ck_assert_int_eq(cuModuleLoadData(&m, kernels), CUDA_ERROR_INVALID_CONTEXT);
    ck_assert_int_eq(cuLibraryLoadData(&l, kernels, NULL, NULL, 0, NULL, NULL, 0), CUDA_SUCCESS);
    ck_assert_int_eq(cuLibraryGetKernel(&k, l, "add"), CUDA_SUCCESS);
    ck_assert_int_eq(cuLibraryGetGlobal(&g, &gsize, l, "counter"), CUDA_SUCCESS);
    ck_assert_uint_eq(gsize, 4);
    setup();
    ck_assert_int_eq(cuKernelGetFunction(&f, k), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemAlloc_v2(&d, sizeof h), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemsetD32_v2(d, 1, 4), CUDA_SUCCESS);
    uint32_t v = 2, n = 3;
    void *params[] = { &d, &v, &n };
    ck_assert_int_eq(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemcpyDtoH_v2(h, d, sizeof h), CUDA_SUCCESS);
    ck_assert_uint_eq(h[0], 3);
    ck_assert_uint_eq(h[2], 3);
    ck_assert_uint_eq(h[3], 1);
    ck_assert_int_eq(cuMemcpyDtoH_v2(h, g, 4), CUDA_SUCCESS);
    ck_assert_uint_eq(h[0], 5);
    ck_assert_int_eq(cuMemFree_v2(d), CUDA_SUCCESS);
    ck_assert_int_eq(cuLibraryUnload(l), CUDA_SUCCESS);
    ck_assert_int_eq(cuDevicePrimaryCtxRelease_v2(0), CUDA_SUCCESS);
}
END_TEST

/* The layout of device memory, as the H100's driver gave it (tests/apps/oob_layout.cu and
 * the measurement in docs/driver.md): 512-byte steps, the smallest free block that holds
 * an allocation of at most 2 MiB, chunks of their own for larger ones, freed blocks reused. */
START_TEST(device_memory_layout)
{
    setup();
    static const size_t sizes[] = { 512, 65536, 262144, 524288, 786432, 1048064, 1048576, 1049088, 1572864,
                                    2096640, 2097152, 4096, 100, 6u << 20, 512 };
    /* recorded on the H100: the offset in its 2 MiB chunk, and which earlier allocation's
     * chunk it shares (-1: a chunk of its own at the time) */
    static const unsigned long offs[] = { 0, 0x200, 0x10200, 0x50200, 0xd0200, 0, 0xffe00, 0, 0, 0, 0, 0x190200,
                                          0x1ffe00, 0, 0x1ffe00 };
    static const int shares[] = { -1, 0, 0, 0, 0, -1, 5, -1, -1, -1, -1, 0, 5, -1, 9 };
    CUdeviceptr d[15];
    for (int i = 0; i < 15; i++) {
        ck_assert_int_eq(cuMemAlloc_v2(&d[i], sizes[i]), CUDA_SUCCESS);
        ck_assert_uint_eq(d[i] & 0x1fffff, offs[i]);
        if (shares[i] >= 0)
            ck_assert_uint_eq(d[i] >> 21, d[shares[i]] >> 21);
        for (int j = 0; j < i; j++)
            if (shares[i] < 0 && j != i)
                ck_assert_uint_ne(d[i] >> 21, d[j] >> 21);
    }
    /* freed blocks come back for the same size, and read as zero */
    uint32_t v = 0x12345678, z = 1;
    ck_assert_int_eq(cuMemcpyHtoD_v2(d[12], &v, 4), CUDA_SUCCESS);
    CUdeviceptr old = d[12];
    ck_assert_int_eq(cuMemFree_v2(d[12]), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemAlloc_v2(&d[12], 100), CUDA_SUCCESS);
    ck_assert_uint_eq(d[12], old);
    ck_assert_int_eq(cuMemcpyDtoH_v2(&z, d[12], 4), CUDA_SUCCESS);
    ck_assert_uint_eq(z, 0);
    old = d[13];
    ck_assert_int_eq(cuMemFree_v2(d[13]), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemAlloc_v2(&d[13], 6u << 20), CUDA_SUCCESS);
    ck_assert_uint_eq(d[13], old);
    for (int i = 0; i < 15; i++)
        ck_assert_int_eq(cuMemFree_v2(d[i]), CUDA_SUCCESS);
}
END_TEST

/* Memory exported for other processes (cuIpcGetMemHandle) moves into a memory file and
 * keeps its contents; allocations freed in its chunks read as zero again, the exported
 * one's included, small and large. */
START_TEST(shared_memory_frees_to_zero)
{
    setup();
    CUdeviceptr a, b, big;
    char handle[64];
    uint32_t v = 0x12345678, w = 0x9abcdef0, z = 1;
    ck_assert_int_eq(cuMemAlloc_v2(&a, 4096), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemAlloc_v2(&b, 8192), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemAlloc_v2(&big, 6u << 20), CUDA_SUCCESS);
    ck_assert_uint_eq(a >> 21, b >> 21);
    ck_assert_int_eq(cuMemcpyHtoD_v2(a + 100, &v, 4), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemcpyHtoD_v2(b + 4096, &w, 4), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemcpyHtoD_v2(big + (5u << 20), &w, 4), CUDA_SUCCESS);
    ck_assert_int_eq(cuIpcGetMemHandle(handle, a + 16), CUDA_SUCCESS);
    ck_assert_int_eq(cuIpcGetMemHandle(handle, big), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemcpyDtoH_v2(&z, a + 100, 4), CUDA_SUCCESS);
    ck_assert_uint_eq(z, v);
    ck_assert_int_eq(cuMemcpyDtoH_v2(&z, b + 4096, 4), CUDA_SUCCESS);
    ck_assert_uint_eq(z, w);
    ck_assert_int_eq(cuMemcpyDtoH_v2(&z, big + (5u << 20), 4), CUDA_SUCCESS);
    ck_assert_uint_eq(z, w);
    CUdeviceptr olds[3] = { a, b, big };
    ck_assert_int_eq(cuMemFree_v2(b), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemFree_v2(a), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemFree_v2(big), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemAlloc_v2(&a, 4096), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemAlloc_v2(&b, 8192), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemAlloc_v2(&big, 6u << 20), CUDA_SUCCESS);
    ck_assert_uint_eq(a, olds[0]);
    ck_assert_uint_eq(b, olds[1]);
    ck_assert_uint_eq(big, olds[2]);
    ck_assert_int_eq(cuMemcpyDtoH_v2(&z, a + 100, 4), CUDA_SUCCESS);
    ck_assert_uint_eq(z, 0);
    ck_assert_int_eq(cuMemcpyDtoH_v2(&z, b + 4096, 4), CUDA_SUCCESS);
    ck_assert_uint_eq(z, 0);
    ck_assert_int_eq(cuMemcpyDtoH_v2(&z, big + (5u << 20), 4), CUDA_SUCCESS);
    ck_assert_uint_eq(z, 0);
    /* what may not be shared */
    ck_assert_int_eq(cuIpcGetMemHandle(handle, 0), CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuIpcGetMemHandle(NULL, a), CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuIpcCloseMemHandle(a), CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuMemFree_v2(a), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemFree_v2(b), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemFree_v2(big), CUDA_SUCCESS);
}
END_TEST

/* A module whose kernel takes a .texref parameter does not load, its other kernels lost
 * with it, as on the H100 (CUDA_ERROR_INVALID_IMAGE); the same module with a .u64
 * parameter loads. */
START_TEST(opaque_kernel_parameters_refused)
{
    setup();
    static const char ptx[] = ".version 9.0\n.target sm_90\n.address_size 64\n"
                              ".visible .entry k(.param .texref t, .param .u64 out)\n{\n\tret;\n}\n"
                              ".visible .entry k2(.param .u64 out)\n{\n\tret;\n}\n";
    char ok[sizeof ptx];
    memcpy(ok, ptx, sizeof ptx);
    memcpy(strstr(ok, ".texref"), ".u64   ", 7);
    CUmodule m;
    ck_assert_int_eq(cuModuleLoadData(&m, ptx), CUDA_ERROR_INVALID_IMAGE);
    ck_assert_int_eq(cuModuleLoadData(&m, ok), CUDA_SUCCESS);
    ck_assert_int_eq(cuModuleUnload(m), CUDA_SUCCESS);
}
END_TEST

/* A kernel reading 4 bytes before an allocation: mapped memory on the H100 (zeros), a
 * fault with PTXEMU_EXACT_BOUNDS=1.  The environment is read at the first allocation of
 * the process (each test runs in a process of its own). */
static CUresult read_before(bool exact)
{
    if (exact)
        setenv("PTXEMU_EXACT_BOUNDS", "1", 1);
    else
        unsetenv("PTXEMU_EXACT_BOUNDS");
    setup();
    CUmodule m;
    CUfunction f;
    CUdeviceptr d;
    f = add_kernel(&m);
    ck_assert_int_eq(cuMemAlloc_v2(&d, 64), CUDA_SUCCESS);
    CUdeviceptr before = d - 4;
    uint32_t v = 7, n = 1;
    void *params[] = { &before, &v, &n };
    ck_assert_int_eq(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL), CUDA_SUCCESS);
    CUresult r = cuCtxSynchronize();
    ck_assert_int_eq(cuModuleUnload(m), CUDA_SUCCESS);
    ck_assert_int_eq(cuDevicePrimaryCtxRelease_v2(0), CUDA_SUCCESS);
    return r;
}
START_TEST(outside_allocations_as_on_the_h100) { ck_assert_int_eq(read_before(false), CUDA_SUCCESS); }
END_TEST
START_TEST(outside_allocations_exact) { ck_assert_int_eq(read_before(true), CUDA_ERROR_ILLEGAL_ADDRESS); }
END_TEST

/* cuMemCreate with generic compression: granted, as on the H100 (NVIDIA's sample
 * cudaCompressibleMemory, run there, used compressible memory), and read back from the
 * handle with the other allocation flags as given. */
typedef struct {
    int type, handle_types, loc_type, loc_id;
    void *win32;
    unsigned char compression, rdma;
    unsigned short usage;
    unsigned char reserved[4];
} test_alloc_prop_t;
CUresult cuMemCreate(unsigned long long *, size_t, const test_alloc_prop_t *, unsigned long long);
CUresult cuMemRelease(unsigned long long);
CUresult cuMemGetAllocationGranularity(size_t *, const test_alloc_prop_t *, int);
CUresult cuMemGetAllocationPropertiesFromHandle(test_alloc_prop_t *, unsigned long long);
START_TEST(compressible_memory)
{
    setup();
    test_alloc_prop_t p = { .type = 1, .loc_type = 1, .compression = 1, .rdma = 1 }, q;
    unsigned long long h;
    ck_assert_int_eq(cuMemCreate(&h, 2u << 20, &p, 0), CUDA_SUCCESS);
    memset(&q, 0xff, sizeof q);
    ck_assert_int_eq(cuMemGetAllocationPropertiesFromHandle(&q, h), CUDA_SUCCESS);
    ck_assert_int_eq(q.compression, 1);
    ck_assert_int_eq(q.rdma, 1);
    ck_assert_int_eq(q.type, 1);
    ck_assert_int_eq(cuMemRelease(h), CUDA_SUCCESS);
    p.compression = 2;   /* no such CUmemAllocationCompType */
    ck_assert_int_eq(cuMemCreate(&h, 2u << 20, &p, 0), CUDA_ERROR_INVALID_VALUE);
    /* virtual memory management needs no current context (NVIDIA's sample memMapIPCDrv
     * creates allocations after destroying its contexts) */
    CUcontext c;
    size_t g = 0;
    ck_assert_int_eq(cuCtxGetCurrent(&c), CUDA_SUCCESS);
    ck_assert_int_eq(cuCtxSetCurrent(NULL), CUDA_SUCCESS);
    p.compression = 0;
    ck_assert_int_eq(cuMemGetAllocationGranularity(&g, &p, 0), CUDA_SUCCESS);
    ck_assert_uint_eq(g, 2u << 20);
    ck_assert_int_eq(cuMemCreate(&h, 2u << 20, &p, 0), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemRelease(h), CUDA_SUCCESS);
    ck_assert_int_eq(cuCtxSetCurrent(c), CUDA_SUCCESS);
}
END_TEST

/* CU_FUNC_ATTRIBUTE_PTX_VERSION is the PTX's target, not its ISA version: CUB chooses its
 * kernels by it, and on the H100 a default-arch (compute_75) build of CUB's device-wide
 * algorithms works (tests/apps/cg_cub.cu, recorded there); with the ISA version (90 for
 * nvcc 13's PTX) they launched nothing. */
CUresult cuFuncGetAttribute(int *, int, CUfunction);
START_TEST(ptx_version_is_the_target)
{
    setup();
    static const char sm75[] = ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry e()\n{\n  ret;\n}\n";
    CUmodule m, m75;
    CUfunction f = add_kernel(&m), g;
    ck_assert_int_eq(cuModuleLoadData(&m75, sm75), CUDA_SUCCESS);
    ck_assert_int_eq(cuModuleGetFunction(&g, m75, "e"), CUDA_SUCCESS);
    int v = 0;
    ck_assert_int_eq(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_PTX_VERSION, g), CUDA_SUCCESS);
    ck_assert_int_eq(v, 75);
    ck_assert_int_eq(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_BINARY_VERSION, g), CUDA_SUCCESS);
    ck_assert_int_eq(v, 90);
    ck_assert_int_eq(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_PTX_VERSION, f), CUDA_SUCCESS);
    ck_assert_int_eq(v, 90);   /* kernels: .version 8.0, .target sm_90 (the old answer was 80) */
    ck_assert_int_eq(cuModuleUnload(m75), CUDA_SUCCESS);
    ck_assert_int_eq(cuModuleUnload(m), CUDA_SUCCESS);
    ck_assert_int_eq(cuDevicePrimaryCtxRelease_v2(0), CUDA_SUCCESS);
}
END_TEST

START_TEST(fault_is_sticky)
{
    setup();
    CUmodule m;
    CUfunction f;
    CUdeviceptr d;
    ck_assert_int_eq(cuModuleLoadData(&m, kernels), CUDA_SUCCESS);
    ck_assert_int_eq(cuModuleGetFunction(&f, m, "bad"), CUDA_SUCCESS);
    ck_assert_int_eq(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL), CUDA_SUCCESS);
    ck_assert_int_eq(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
    ck_assert_int_eq(cuMemAlloc_v2(&d, 16), CUDA_ERROR_ILLEGAL_ADDRESS);
    ck_assert_int_eq(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
    ck_assert_int_eq(cuModuleUnload(m), CUDA_SUCCESS);
    ck_assert_int_eq(cuDevicePrimaryCtxRelease_v2(0), CUDA_SUCCESS);   /* the last release resets it */
    CUcontext c;
    ck_assert_int_eq(cuDevicePrimaryCtxRetain(&c, 0), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemAlloc_v2(&d, 16), CUDA_SUCCESS);
    ck_assert_int_eq(cuDevicePrimaryCtxRelease_v2(0), CUDA_SUCCESS);
}
END_TEST

START_TEST(capture_and_graph)
{
    setup();
    CUmodule m;
    CUfunction f;
    CUdeviceptr d;
    CUstream s;
    void *graph, *exec;
    uint32_t h[8];
    f = add_kernel(&m);
    ck_assert_int_eq(cuMemAlloc_v2(&d, sizeof h), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemsetD32_v2(d, 1, 8), CUDA_SUCCESS);
    ck_assert_int_eq(cuStreamCreate(&s, 0), CUDA_SUCCESS);
    ck_assert_int_eq(cuStreamBeginCapture_v2(s, 0), CUDA_SUCCESS);
    uint32_t v = 2, n = 8;
    void *params[] = { &d, &v, &n };
    ck_assert_int_eq(cuLaunchKernel(f, 1, 1, 1, 8, 1, 1, 0, s, params, NULL), CUDA_SUCCESS);
    v = 1000;   /* the captured launch keeps the value it was given */
    ck_assert_int_eq(cuMemcpyDtoH_v2(h, d, sizeof h), CUDA_SUCCESS);
    ck_assert_uint_eq(h[0], 1);   /* nothing ran yet */
    ck_assert_int_eq(cuStreamEndCapture(s, &graph), CUDA_SUCCESS);
    size_t nn = 0;
    ck_assert_int_eq(cuGraphGetNodes(graph, NULL, &nn), CUDA_SUCCESS);
    ck_assert_uint_eq(nn, 1);
    ck_assert_int_eq(cuGraphInstantiateWithFlags(&exec, graph, 0), CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphLaunch(exec, s), CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphLaunch(exec, s), CUDA_SUCCESS);
    ck_assert_int_eq(cuStreamSynchronize(s), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemcpyDtoH_v2(h, d, sizeof h), CUDA_SUCCESS);
    ck_assert_uint_eq(h[0], 5);
    ck_assert_uint_eq(h[7], 5);
    ck_assert_int_eq(cuGraphExecDestroy(exec), CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphDestroy(graph), CUDA_SUCCESS);
    ck_assert_int_eq(cuStreamDestroy_v2(s), CUDA_SUCCESS);
    ck_assert_int_eq(cuModuleUnload(m), CUDA_SUCCESS);
    ck_assert_int_eq(cuDevicePrimaryCtxRelease_v2(0), CUDA_SUCCESS);
}
END_TEST

/* Stream memory operations: a write, then waits on what is there pass; a wait for a value
 * that is not there could never end here (work runs when submitted): refused, located,
 * nothing of its batch done; on a capturing stream they are refused and the capture
 * invalidated (batch memory operation nodes are not emulated). */
CUresult cuStreamWriteValue32_v2(CUstream, CUdeviceptr, uint32_t, unsigned);
CUresult cuStreamWaitValue32_v2(CUstream, CUdeviceptr, uint32_t, unsigned);
START_TEST(stream_memory_operations)
{
    setup();
    CUdeviceptr d;
    CUstream s;
    uint32_t h = 0;
    void *graph = NULL;
    ck_assert_int_eq(cuMemAlloc_v2(&d, 64), CUDA_SUCCESS);
    ck_assert_int_eq(cuStreamCreate(&s, 0), CUDA_SUCCESS);
    ck_assert_int_eq(cuStreamWriteValue32_v2(s, d, 41, 0), CUDA_SUCCESS);
    ck_assert_int_eq(cuStreamWaitValue32_v2(s, d, 41, 1 /* EQ */), CUDA_SUCCESS);
    ck_assert_int_eq(cuStreamWaitValue32_v2(s, d, 40, 0 /* GEQ */), CUDA_SUCCESS);
    ck_assert_int_eq(cuStreamWaitValue32_v2(s, d, 42, 1 /* EQ */), CUDA_ERROR_NOT_SUPPORTED);
    ck_assert_int_eq(cuStreamWaitValue32_v2(s, d + 1, 41, 1), CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuStreamBeginCapture_v2(s, 0), CUDA_SUCCESS);
    ck_assert_int_eq(cuStreamWriteValue32_v2(s, d, 7, 0), CUDA_ERROR_NOT_SUPPORTED);
    ck_assert_int_eq(cuStreamEndCapture(s, &graph), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
    ck_assert_int_eq(cuMemcpyDtoH_v2(&h, d, sizeof h), CUDA_SUCCESS);
    ck_assert_uint_eq(h, 41);   /* the refused write wrote nothing */
    ck_assert_int_eq(cuStreamDestroy_v2(s), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemFree_v2(d), CUDA_SUCCESS);
    ck_assert_int_eq(cuDevicePrimaryCtxRelease_v2(0), CUDA_SUCCESS);
}
END_TEST

/* Two PTX units for cuLink*: scale() adds the .extern base (b.ptx: 40) to twice a value. */
static const char link_a[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".extern .func (.param .b32 r) twice(.param .b32 x);\n"
    ".extern .global .align 4 .u32 base;\n"
    ".visible .entry scale(.param .u64 p)\n{\n"
    "  .reg .u32 %r<4>; .reg .u64 %rd<4>;\n  .param .b32 a; .param .b32 r;\n"
    "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, %tid.x;\n  st.param.b32 [a], %r1;\n"
    "  call (r), twice, (a);\n  ld.param.b32 %r2, [r];\n  ld.global.u32 %r3, [base];\n  add.u32 %r2, %r2, %r3;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.u64 %rd3, %rd1, %rd2;\n  st.global.u32 [%rd3], %r2;\n  ret;\n}\n";
static const char link_b[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .global .align 4 .u32 base = 40;\n"
    ".visible .func (.param .b32 r) twice(.param .b32 x)\n{\n"
    "  .reg .u32 %r<2>;\n  ld.param.b32 %r1, [x];\n  add.u32 %r1, %r1, %r1;\n  st.param.b32 [r], %r1;\n  ret;\n}\n";

/* cuLink*: PTX inputs (as data and as a file) linked into an image cuModuleLoadData takes;
 * the logs; the located link errors; the input types that hold no PTX. */
START_TEST(link_ptx_units)
{
    setup();
    char err[1024], info[256];
    int opts[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_INFO_LOG_BUFFER,
                   CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_WALL_TIME };
    void *vals[] = { err, (void *)(uintptr_t)sizeof err, info, (void *)(uintptr_t)sizeof info, NULL };
    CUlinkState l;
    ck_assert_int_eq(cuLinkCreate_v2(5, opts, vals, &l), CUDA_SUCCESS);
    ck_assert_int_eq(cuLinkAddData_v2(l, CU_JIT_INPUT_PTX, (void *)link_a, sizeof link_a, "a.ptx", 0, NULL, NULL),
                     CUDA_SUCCESS);
    char path[] = "/tmp/ptxemu-link-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, link_b, strlen(link_b)), (ssize_t)strlen(link_b));
    close(fd);
    ck_assert_int_eq(cuLinkAddFile_v2(l, CU_JIT_INPUT_PTX, path, 0, NULL, NULL), CUDA_SUCCESS);
    unlink(path);
    void *image;
    size_t size;
    ck_assert_int_eq(cuLinkComplete(l, &image, &size), CUDA_SUCCESS);
    ck_assert_uint_eq(size, strlen(image) + 1);
    ck_assert_msg(strncmp(info, "ptxemu: linked 2 PTX inputs", 27) == 0, "%s", info);
    ck_assert_uint_eq((uintptr_t)vals[3], strlen(info));
    ck_assert_str_eq(err, "");
    CUmodule m;
    CUfunction f;
    CUdeviceptr d;
    uint32_t h[32];
    ck_assert_int_eq(cuModuleLoadData(&m, image), CUDA_SUCCESS);
    ck_assert_int_eq(cuLinkDestroy(l), CUDA_SUCCESS);   /* the module does not need the image */
    ck_assert_int_eq(cuModuleGetFunction(&f, m, "scale"), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemAlloc_v2(&d, sizeof h), CUDA_SUCCESS);
    void *params[] = { &d };
    ck_assert_int_eq(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemcpyDtoH_v2(h, d, sizeof h), CUDA_SUCCESS);
    ck_assert_uint_eq(h[0], 40);    /* 2 * 0 + 40 */
    ck_assert_uint_eq(h[31], 102);  /* 2 * 31 + 40 */
    ck_assert_int_eq(cuMemFree_v2(d), CUDA_SUCCESS);
    ck_assert_int_eq(cuModuleUnload(m), CUDA_SUCCESS);

    /* a used .extern that no input defines: the located error, in the error log */
    ck_assert_int_eq(cuLinkCreate_v2(2, opts, vals, &l), CUDA_SUCCESS);
    ck_assert_int_eq(cuLinkAddData_v2(l, CU_JIT_INPUT_PTX, (void *)link_a, sizeof link_a, "a.ptx", 0, NULL, NULL),
                     CUDA_SUCCESS);
    ck_assert_int_eq(cuLinkComplete(l, &image, &size), CUDA_ERROR_INVALID_PTX);
    ck_assert_msg(strstr(err, "a.ptx:13:13: error: undefined reference to function 'twice': no unit defines it") ==
                      err, "%s", err);
    ck_assert_msg(strstr(err, "a.ptx:15:22: error: undefined reference to variable 'base'") != NULL, "%s", err);
    ck_assert_uint_eq((uintptr_t)vals[1], strlen(err));
    /* inputs that hold no PTX name their type */
    static const char elf[] = "\x7f" "ELF\2\1\1";
    ck_assert_int_eq(cuLinkAddData_v2(l, CU_JIT_INPUT_CUBIN, (void *)elf, sizeof elf, "k.cubin", 0, NULL, NULL),
                     CUDA_ERROR_NO_BINARY_FOR_GPU);
    ck_assert_msg(strstr(err, "CU_JIT_INPUT_CUBIN input 'k.cubin' is SASS") != NULL, "%s", err);
    ck_assert_int_eq(cuLinkAddData_v2(l, CU_JIT_INPUT_LIBRARY, (void *)elf, sizeof elf, "lib.a", 0, NULL, NULL),
                     CUDA_ERROR_INVALID_IMAGE);
    ck_assert_msg(strstr(err, "CU_JIT_INPUT_LIBRARY input 'lib.a' is not an archive") != NULL, "%s", err);
    ck_assert_int_eq(cuLinkAddData_v2(l, CU_JIT_INPUT_FATBINARY, (void *)elf, sizeof elf, "x.fatbin", 0, NULL, NULL),
                     CUDA_ERROR_INVALID_IMAGE);
    ck_assert_msg(strstr(err, "CU_JIT_INPUT_FATBINARY input 'x.fatbin'") != NULL, "%s", err);
    ck_assert_int_eq(cuLinkAddFile_v2(l, CU_JIT_INPUT_PTX, "/no/such/file.ptx", 0, NULL, NULL),
                     CUDA_ERROR_FILE_NOT_FOUND);
    ck_assert_int_eq(cuLinkDestroy(l), CUDA_SUCCESS);
    ck_assert_int_eq(cuLinkComplete(NULL, &image, &size), CUDA_ERROR_INVALID_HANDLE);
    ck_assert_int_eq(cuDevicePrimaryCtxRelease_v2(0), CUDA_SUCCESS);
}
END_TEST

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }

/* A fatbin container whose one entry is text as plain compute_90 PTX; returns its size. */
static size_t plain_fatbin(uint8_t *buf, size_t cap, const char *text)
{
    size_t raw = strlen(text) + 1, psize = (raw + 7) & ~(size_t)7, hsize = 0x50;
    ck_assert_uint_le(16 + hsize + psize, cap);
    memset(buf, 0, 16 + hsize + psize);
    uint8_t *e = buf + 16;
    put16(e + 0x00, 1);            /* PTX */
    put16(e + 0x02, 0x0101);
    put32(e + 0x04, (uint32_t)hsize);
    put64(e + 0x08, psize);
    put32(e + 0x14, 0x40);         /* options descriptor {0x48, 0} */
    put16(e + 0x1a, 9);            /* PTX ISA 9.0 */
    put32(e + 0x1c, 90);           /* compute_90 */
    put64(e + 0x28, 0x11);
    put32(e + 0x40, 0x48);
    memcpy(e + hsize, text, raw);
    put32(buf, 0xBA55ED50u);
    put16(buf + 4, 1);
    put16(buf + 6, 16);
    put64(buf + 8, hsize + psize);
    return 16 + hsize + psize;
}

/* One member of an ar archive (GNU names: "b.o/"); returns the bytes written. */
static size_t ar_member(uint8_t *buf, const char *name, const void *data, size_t n)
{
    char h[61];
    snprintf(h, sizeof h, "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", name, "0", "0", "0", "644", n);
    memcpy(buf, h, 60);
    memcpy(buf + 60, data, n);
    size_t k = 60 + n;
    if (k & 1)
        buf[k++] = '\n';
    return k;
}

/* An archive input (CU_JIT_INPUT_LIBRARY): a member is linked only where it defines what the
 * others need: b.o (twice, base) is; c.o, which defines twice again and nothing needed, is
 * not (else twice would be defined twice); h.o holds no device code. */
START_TEST(link_archive_members)
{
    setup();
    static uint8_t fb1[4096], fb2[4096], ar[16384];
    char c_text[2048];
    snprintf(c_text, sizeof c_text, "%s.visible .func unused()\n{\n  ret;\n}\n", link_b);
    /* c.o: b.o's text without its base variable, plus unused(): twice is defined again */
    char *nobase = strstr(c_text, ".visible .global");
    memset(nobase, ' ', strcspn(nobase, "\n"));
    size_t n1 = plain_fatbin(fb1, sizeof fb1, link_b), n2 = plain_fatbin(fb2, sizeof fb2, c_text);
    size_t k = 0;
    memcpy(ar, "!<arch>\n", 8);
    k = 8;
    k += ar_member(ar + k, "h.o/", "host code only", 14);
    k += ar_member(ar + k, "b.o/", fb1, n1);
    k += ar_member(ar + k, "c.o/", fb2, n2);
    char info[256];
    int opts[] = { CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES };
    void *vals[] = { info, (void *)(uintptr_t)sizeof info };
    CUlinkState l;
    ck_assert_int_eq(cuLinkCreate_v2(2, opts, vals, &l), CUDA_SUCCESS);
    ck_assert_int_eq(cuLinkAddData_v2(l, CU_JIT_INPUT_PTX, (void *)link_a, sizeof link_a, "a.ptx", 0, NULL, NULL),
                     CUDA_SUCCESS);
    ck_assert_int_eq(cuLinkAddData_v2(l, CU_JIT_INPUT_LIBRARY, ar, k, "lib.a", 0, NULL, NULL), CUDA_SUCCESS);
    void *image;
    size_t size;
    ck_assert_int_eq(cuLinkComplete(l, &image, &size), CUDA_SUCCESS);
    ck_assert_msg(strstr(info, "2 of them archive members") != NULL, "%s", info);
    ck_assert_ptr_null(strstr(image, "unused"));
    CUmodule m;
    CUfunction f;
    CUdeviceptr d;
    uint32_t h[32];
    ck_assert_int_eq(cuModuleLoadData(&m, image), CUDA_SUCCESS);
    ck_assert_int_eq(cuLinkDestroy(l), CUDA_SUCCESS);
    ck_assert_int_eq(cuModuleGetFunction(&f, m, "scale"), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemAlloc_v2(&d, sizeof h), CUDA_SUCCESS);
    void *params[] = { &d };
    ck_assert_int_eq(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemcpyDtoH_v2(h, d, sizeof h), CUDA_SUCCESS);
    ck_assert_uint_eq(h[5], 50);   /* 2 * 5 + 40 */
    ck_assert_int_eq(cuMemFree_v2(d), CUDA_SUCCESS);
    ck_assert_int_eq(cuModuleUnload(m), CUDA_SUCCESS);
    ck_assert_int_eq(cuDevicePrimaryCtxRelease_v2(0), CUDA_SUCCESS);
}
END_TEST

START_TEST(unsupported_functions_say_so)
{
    setup();
    char handle[64] = { 0 };
    ck_assert_int_eq(cuGLInit(), CUDA_ERROR_NOT_SUPPORTED);   /* OpenGL interoperability */
    ck_assert_int_eq(cuTexRefCreate(handle), CUDA_ERROR_NOT_SUPPORTED);   /* removed in CUDA 12 */
    ck_assert_int_eq(cuMemAlloc(NULL, 0), CUDA_ERROR_NOT_SUPPORTED);   /* the 32-bit form of CUDA 2.0 */
}
END_TEST

/* The graph tests' parameter blocks, as cuda.h lays them out (checked against it). */
typedef struct { int type, reserved0[3]; union { long long reserved1[29]; struct {
    unsigned long long handle; int type; unsigned size; void **phGraph_out; CUcontext ctx; } cond; } u;
    long long reserved2; } gnode_params_t;
typedef struct { int allocType, handleTypes; CUmemLocation location; void *win32; size_t maxSize;
    unsigned short usage; unsigned char reserved[54]; const void *access; size_t naccess; size_t bytesize;
    CUdeviceptr dptr; } galloc_params_t;
typedef struct { CUfunction func; unsigned g[3], b[3], shared; void **params, **extra; void *kern; CUcontext ctx; } gkernel_t;

START_TEST(graph_memory_nodes)
{
    setup();
    CUmodule m;
    CUfunction f;
    CUstream s;
    void *g, *x, *na, *nk, *nf;
    f = add_kernel(&m);
    ck_assert_int_eq(cuStreamCreate(&s, 0), CUDA_SUCCESS);
    /* alloc -> kernel -> free, built by hand; the address is fixed at node creation */
    ck_assert_int_eq(cuGraphCreate(&g, 0), CUDA_SUCCESS);
    galloc_params_t ap = { .allocType = 1, .location = { 1, 0 }, .bytesize = 64 };
    ck_assert_int_eq(cuGraphAddMemAllocNode(&na, g, NULL, 0, &ap), CUDA_SUCCESS);
    ck_assert(ap.dptr != 0);
    galloc_params_t q;
    ck_assert_int_eq(cuGraphMemAllocNodeGetParams(na, &q), CUDA_SUCCESS);
    ck_assert(q.dptr == ap.dptr && q.bytesize == 64);
    CUdeviceptr d = ap.dptr;
    uint32_t v = 3, n = 16;
    void *params[] = { &d, &v, &n };
    gkernel_t kp = { .func = f, .g = { 1, 1, 1 }, .b = { 16, 1, 1 }, .params = params };
    ck_assert_int_eq(cuGraphAddKernelNode_v2(&nk, g, &na, 1, &kp), CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphAddMemFreeNode(&nf, g, &nk, 1, d), CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphAddMemFreeNode(&nf, g, &nk, 1, d), CUDA_ERROR_INVALID_VALUE);   /* twice */
    ck_assert_int_eq(cuGraphAddMemFreeNode(&nf, g, &nk, 1, d + 4), CUDA_ERROR_INVALID_VALUE);
    void *c;
    ck_assert_int_eq(cuGraphClone(&c, g), CUDA_ERROR_NOT_SUPPORTED);
    ck_assert_int_eq(cuGraphDestroyNode(nk), CUDA_ERROR_NOT_SUPPORTED);
    ck_assert_int_eq(cuGraphInstantiateWithFlags(&x, g, 0), CUDA_SUCCESS);
    void *x2;
    ck_assert_int_eq(cuGraphInstantiateWithFlags(&x2, g, 0), CUDA_ERROR_NOT_SUPPORTED);   /* one at a time (H100) */
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(cuGraphLaunch(x, s), CUDA_SUCCESS);
    uint64_t used = 1;
    ck_assert_int_eq(cuDeviceGetGraphMemAttribute(0, 0, &used), CUDA_SUCCESS);
    ck_assert_uint_eq(used, 32u << 20);   /* still associated after its free, a 32 MiB granule (H100) */
    ck_assert_int_eq(cuDeviceGetGraphMemAttribute(0, 1, &used), CUDA_SUCCESS);
    ck_assert_uint_ge(used, 64);
    ck_assert_int_eq(cuGraphExecDestroy(x), CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphDestroy(g), CUDA_SUCCESS);

    /* captured: cuMemAllocAsync without a free leaves the memory allocated after the launch */
    CUdeviceptr p;
    uint32_t h[4];
    ck_assert_int_eq(cuStreamBeginCapture_v2(s, 0), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemAllocAsync(&p, 16, s), CUDA_SUCCESS);
    d = p;
    v = 7;
    n = 4;
    ck_assert_int_eq(cuMemAllocAsync(&d, 16, s), CUDA_SUCCESS);   /* a second, freed in the graph */
    ck_assert_int_eq(cuMemFreeAsync(d, s), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemFreeAsync(p + 4, s), CUDA_ERROR_INVALID_VALUE);
    d = p;
    ck_assert_int_eq(cuLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, s, params, NULL), CUDA_SUCCESS);
    ck_assert_int_eq(cuStreamEndCapture(s, &g), CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphDebugDotPrint(g, "/dev/null", 1), CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphInstantiateWithFlags(&x, g, 0), CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphLaunch(x, s), CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphLaunch(x, s), CUDA_ERROR_INVALID_VALUE);   /* p not freed yet */
    ck_assert_int_eq(cuMemcpyDtoH_v2(h, p, sizeof h), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemFree_v2(p), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemFree_v2(p), CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuGraphLaunch(x, s), CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphExecDestroy(x), CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphDestroy(g), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemcpyDtoH_v2(h, p, sizeof h), CUDA_SUCCESS);   /* still allocated: the graph left it */
    ck_assert_int_eq(cuMemFreeAsync(p, s), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemcpyDtoH_v2(h, p, sizeof h), CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuDeviceGraphMemTrim(0), CUDA_SUCCESS);
    ck_assert_int_eq(cuDeviceGetGraphMemAttribute(0, 2, &used), CUDA_SUCCESS);
    ck_assert_uint_eq(used, 0);
    ck_assert_int_eq(cuStreamDestroy_v2(s), CUDA_SUCCESS);
    ck_assert_int_eq(cuModuleUnload(m), CUDA_SUCCESS);
    ck_assert_int_eq(cuDevicePrimaryCtxRelease_v2(0), CUDA_SUCCESS);
}
END_TEST

START_TEST(arrays_and_their_copies)
{
    setup();
    size_t free0, free1, total;
    ck_assert_int_eq(cuMemGetInfo_v2(&free0, &total), CUDA_SUCCESS);
    /* a 2D array of float2, 5 x 3: a host copy in at an offset, back out whole */
    CUarray a;
    CUDA_ARRAY_DESCRIPTOR d2 = { 5, 3, CU_AD_FORMAT_FLOAT, 2 };
    ck_assert_int_eq(cuArrayCreate_v2(&a, &d2), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemGetInfo_v2(&free1, &total), CUDA_SUCCESS);
    ck_assert_uint_ge(free0 - free1, 5 * 3 * 8);
    CUDA_ARRAY3D_DESCRIPTOR q;
    ck_assert_int_eq(cuArray3DGetDescriptor_v2(&q, a), CUDA_SUCCESS);
    ck_assert_uint_eq(q.Width, 5);
    ck_assert_uint_eq(q.Height, 3);
    ck_assert_uint_eq(q.Depth, 0);
    ck_assert_int_eq(q.Format, CU_AD_FORMAT_FLOAT);
    ck_assert_uint_eq(q.NumChannels, 2);
    float in[2][2][2] = { { { 1, 2 }, { 3, 4 } }, { { 5, 6 }, { 7, 8 } } }, out[3][5][2];
    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof c);
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = in;
    c.srcPitch = sizeof in[0];
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    c.dstArray = a;
    c.dstXInBytes = 3 * 8;
    c.dstY = 1;
    c.WidthInBytes = sizeof in[0];
    c.Height = 2;
    c.Depth = 1;
    ck_assert_int_eq(cuMemcpy3D_v2(&c), CUDA_SUCCESS);
    c.dstXInBytes = 4 * 8;   /* one element beyond the row */
    ck_assert_int_eq(cuMemcpy3D_v2(&c), CUDA_ERROR_INVALID_VALUE);
    c.dstXInBytes = 4;       /* not a whole element: taken, as the H100's driver takes it */
    c.WidthInBytes = 8;
    ck_assert_int_eq(cuMemcpy3D_v2(&c), CUDA_SUCCESS);
    c.dstXInBytes = 0;
    c.dstLOD = 1;
    ck_assert_int_eq(cuMemcpy3D_v2(&c), CUDA_ERROR_INVALID_VALUE);
    memset(&c, 0, sizeof c);
    memset(out, 0, sizeof out);
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    c.srcArray = a;
    c.dstMemoryType = CU_MEMORYTYPE_HOST;
    c.dstHost = out;
    c.WidthInBytes = sizeof out[0];
    c.Height = 3;
    c.Depth = 1;
    ck_assert_int_eq(cuMemcpy3D_v2(&c), CUDA_SUCCESS);
    ck_assert(out[1][3][0] == 1 && out[1][4][1] == 4 && out[2][3][0] == 5 && out[2][4][1] == 8);
    ck_assert(out[0][3][0] == 0 && out[1][2][1] == 0);
    ck_assert_int_eq(cuArrayDestroy(a), CUDA_SUCCESS);
    ck_assert_int_eq(cuArrayDestroy(a), CUDA_ERROR_INVALID_HANDLE);
    ck_assert_int_eq(cuMemcpy3D_v2(&c), CUDA_ERROR_INVALID_HANDLE);
    /* a 1D array through the CUDA 2.0 copies */
    CUDA_ARRAY_DESCRIPTOR d1 = { 16, 0, CU_AD_FORMAT_UNSIGNED_INT16, 1 };
    unsigned short h[16], g[4];
    for (int i = 0; i < 16; i++)
        h[i] = (unsigned short)(i * 3);
    ck_assert_int_eq(cuArrayCreate_v2(&a, &d1), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemcpyHtoA_v2(a, 0, h, sizeof h), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemcpyAtoH_v2(g, a, 10, sizeof g), CUDA_SUCCESS);
    ck_assert(g[0] == 15 && g[3] == 24);
    ck_assert_int_eq(cuMemcpyAtoH_v2(g, a, 26, sizeof g), CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuArrayDestroy(a), CUDA_SUCCESS);
    /* bad descriptors */
    CUDA_ARRAY3D_DESCRIPTOR bad = { 8, 8, 5, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_CUBEMAP };
    ck_assert_int_eq(cuArray3DCreate_v2(&a, &bad), CUDA_ERROR_INVALID_VALUE);
    bad = (CUDA_ARRAY3D_DESCRIPTOR){ 8, 8, 0, CU_AD_FORMAT_FLOAT, 3, 0 };
    ck_assert_int_eq(cuArray3DCreate_v2(&a, &bad), CUDA_ERROR_INVALID_VALUE);
    bad = (CUDA_ARRAY3D_DESCRIPTOR){ 8, 8, 0, 0x77, 1, 0 };
    ck_assert_int_eq(cuArray3DCreate_v2(&a, &bad), CUDA_ERROR_INVALID_VALUE);
    bad = (CUDA_ARRAY3D_DESCRIPTOR){ 8, 8, 0, 0xb0 /* NV12 */, 1, 0 };
    ck_assert_int_eq(cuArray3DCreate_v2(&a, &bad), CUDA_ERROR_NOT_SUPPORTED);
    bad = (CUDA_ARRAY3D_DESCRIPTOR){ 8, 8, 0, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_SPARSE };
    ck_assert_int_eq(cuArray3DCreate_v2(&a, &bad), CUDA_ERROR_NOT_SUPPORTED);
    bad = (CUDA_ARRAY3D_DESCRIPTOR){ 131073, 1, 0, CU_AD_FORMAT_FLOAT, 1, 0 };
    ck_assert_int_eq(cuArray3DCreate_v2(&a, &bad), CUDA_ERROR_INVALID_VALUE);
    /* a mipmapped array: levels clamped, each level an array */
    CUmipmappedArray m;
    CUDA_ARRAY3D_DESCRIPTOR dm = { 8, 4, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, CUDA_ARRAY3D_SURFACE_LDST };
    ck_assert_int_eq(cuMipmappedArrayCreate(&m, &dm, 9), CUDA_SUCCESS);
    CUarray l3, l3b;
    ck_assert_int_eq(cuMipmappedArrayGetLevel(&l3, m, 3), CUDA_SUCCESS);
    ck_assert_int_eq(cuMipmappedArrayGetLevel(&l3b, m, 3), CUDA_SUCCESS);
    ck_assert_ptr_eq(l3, l3b);
    ck_assert_int_eq(cuMipmappedArrayGetLevel(&l3b, m, 4), CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuArray3DGetDescriptor_v2(&q, l3), CUDA_SUCCESS);
    ck_assert(q.Width == 1 && q.Height == 1 && q.Depth == 0);
    ck_assert_int_eq(cuArrayDestroy(l3), CUDA_ERROR_INVALID_HANDLE);
    ck_assert_int_eq(cuMipmappedArrayDestroy(m), CUDA_SUCCESS);
    ck_assert_int_eq(cuArray3DGetDescriptor_v2(&q, l3), CUDA_ERROR_INVALID_HANDLE);
    ck_assert_int_eq(cuMemGetInfo_v2(&free1, &total), CUDA_SUCCESS);
    ck_assert_uint_eq(free1, free0);
    ck_assert_int_eq(cuDevicePrimaryCtxRelease_v2(0), CUDA_SUCCESS);
}
END_TEST

static int destroyed;
static void count_destroy(void *p) { destroyed += *(int *)p; }

static const char cond_kernels[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".extern .func cudaGraphSetConditional(.param .b64 h, .param .b32 v);\n"
    ".visible .entry countdown(.param .u64 p, .param .u64 h)\n{\n"
    "  .reg .u32 %r<3>; .reg .u64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [p];\n  ld.param.u64 %rd2, [h];\n"
    "  ld.global.u32 %r1, [%rd1];\n  sub.u32 %r1, %r1, 1;\n  st.global.u32 [%rd1], %r1;\n"
    "  { .param .b64 a0; .param .b32 a1;\n  st.param.b64 [a0], %rd2;\n  st.param.b32 [a1], %r1;\n"
    "  call.uni cudaGraphSetConditional, (a0, a1); }\n  ret;\n}\n";

START_TEST(graph_conditionals_attributes_user_objects)
{
    setup();
    CUmodule m;
    CUfunction f;
    CUstream s;
    CUdeviceptr d;
    void *g, *x, *nc, *nk, *nk2;
    ck_assert_int_eq(cuModuleLoadData(&m, cond_kernels), CUDA_SUCCESS);
    ck_assert_int_eq(cuModuleGetFunction(&f, m, "countdown"), CUDA_SUCCESS);
    ck_assert_int_eq(cuStreamCreate(&s, 0), CUDA_SUCCESS);
    ck_assert_int_eq(cuMemAlloc_v2(&d, 4), CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphCreate(&g, 0), CUDA_SUCCESS);
    unsigned long long hnd;
    ck_assert_int_eq(cuGraphConditionalHandleCreate(&hnd, g, NULL, 1, 1), CUDA_SUCCESS);
    gnode_params_t cp = { .type = 13, .u.cond = { .handle = hnd, .type = 1, .size = 1 } };
    ck_assert_int_eq(cuGraphAddNode(&nc, g, NULL, 0, &cp), CUDA_SUCCESS);
    ck_assert_ptr_nonnull(cp.u.cond.phGraph_out);
    void *body = cp.u.cond.phGraph_out[0];
    void *params[] = { &d, &hnd };
    gkernel_t kp = { .func = f, .g = { 1, 1, 1 }, .b = { 1, 1, 1 }, .params = params };
    ck_assert_int_eq(cuGraphAddKernelNode_v2(&nk, body, NULL, 0, &kp), CUDA_SUCCESS);
    /* attributes: stored and returned; a cluster dimension kept, a preferred one checked at
     * the launch (here 1x1x1 with the cluster 1x1x1: regular clusters run) */
    CUlaunchAttributeValue av = { .priority = 3 }, got;
    ck_assert_int_eq(cuGraphKernelNodeSetAttribute(nk, CU_LAUNCH_ATTRIBUTE_PRIORITY, &av), CUDA_SUCCESS);
    av = (CUlaunchAttributeValue){ .preferredClusterDim = { 2, 1, 1 } };
    ck_assert_int_eq(cuGraphKernelNodeSetAttribute(nk, CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION, &av),
                     CUDA_SUCCESS);
    av = (CUlaunchAttributeValue){ .preferredClusterDim = { 1, 1, 1 } };
    ck_assert_int_eq(cuGraphKernelNodeSetAttribute(nk, CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION, &av),
                     CUDA_SUCCESS);
    av = (CUlaunchAttributeValue){ .clusterDim = { 1, 1, 1 } };
    ck_assert_int_eq(cuGraphKernelNodeSetAttribute(nk, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, &av), CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphKernelNodeGetAttribute(nk, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, &got), CUDA_SUCCESS);
    ck_assert_uint_eq(got.clusterDim.x, 1);
    ck_assert_int_eq(cuGraphAddKernelNode_v2(&nk2, body, &nk, 1, &kp), CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphKernelNodeCopyAttributes(nk2, nk), CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphKernelNodeGetAttribute(nk2, CU_LAUNCH_ATTRIBUTE_PRIORITY, &got), CUDA_SUCCESS);
    ck_assert_int_eq(got.priority, 0);   /* 3 clamped to the device's least priority, as on the H100 */
    ck_assert_int_eq(cuGraphDestroyNode(nk2), CUDA_SUCCESS);
    /* a user object whose last reference goes with the executable graph */
    int weight = 5;
    void *uo;
    ck_assert_int_eq(cuUserObjectCreate(&uo, &weight, count_destroy, 1, 1), CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphRetainUserObject(g, uo, 1, 1), CUDA_SUCCESS);   /* moved in */
    ck_assert_int_eq(cuGraphInstantiateWithFlags(&x, g, 0), CUDA_SUCCESS);
    ck_assert_int_eq(cuGraphDestroy(g), CUDA_SUCCESS);
    ck_assert_int_eq(destroyed, 0);
    for (int run = 0; run < 2; run++) {
        ck_assert_int_eq(cuMemsetD32_v2(d, 4, 1), CUDA_SUCCESS);
        ck_assert_int_eq(cuGraphLaunch(x, s), CUDA_SUCCESS);   /* WHILE: the body runs until the count is 0 */
        uint32_t left = 9;
        ck_assert_int_eq(cuMemcpyDtoH_v2(&left, d, 4), CUDA_SUCCESS);
        ck_assert_uint_eq(left, 0);
    }
    ck_assert_int_eq(cuGraphExecDestroy(x), CUDA_SUCCESS);
    ck_assert_int_eq(destroyed, 5);
    ck_assert_int_eq(cuMemFree_v2(d), CUDA_SUCCESS);
    ck_assert_int_eq(cuStreamDestroy_v2(s), CUDA_SUCCESS);
    ck_assert_int_eq(cuModuleUnload(m), CUDA_SUCCESS);
    ck_assert_int_eq(cuDevicePrimaryCtxRelease_v2(0), CUDA_SUCCESS);
}
END_TEST

START_TEST(texture_and_surface_objects)
{
    setup();
    CUarray a;
    CUDA_ARRAY3D_DESCRIPTOR q = { 4, 4, 0, CU_AD_FORMAT_FLOAT, 1, 0 };
    ck_assert_int_eq(cuArray3DCreate_v2(&a, &q), CUDA_SUCCESS);
    CUDA_RESOURCE_DESC r, rb;
    memset(&r, 0, sizeof r);
    r.resType = CU_RESOURCE_TYPE_ARRAY;
    r.res.array.hArray = a;
    CUDA_TEXTURE_DESC t, tb;
    memset(&t, 0, sizeof t);
    t.addressMode[0] = t.addressMode[1] = CU_TR_ADDRESS_MODE_BORDER;
    t.filterMode = CU_TR_FILTER_MODE_LINEAR;
    t.flags = CU_TRSF_NORMALIZED_COORDINATES;
    t.borderColor[2] = 0.25f;
    CUtexObject tex;
    ck_assert_int_eq(cuTexObjectCreate(&tex, &r, &t, NULL), CUDA_SUCCESS);
    ck_assert_uint_ne(tex, 0);
    ck_assert_int_eq(cuTexObjectGetResourceDesc(&rb, tex), CUDA_SUCCESS);
    ck_assert(rb.resType == CU_RESOURCE_TYPE_ARRAY && rb.res.array.hArray == a);
    ck_assert_int_eq(cuTexObjectGetTextureDesc(&tb, tex), CUDA_SUCCESS);
    ck_assert(memcmp(&tb, &t, sizeof t) == 0);
    CUDA_RESOURCE_VIEW_DESC v;
    ck_assert_int_eq(cuTexObjectGetResourceViewDesc(&v, tex), CUDA_ERROR_INVALID_VALUE);   /* none given */
    /* a surface on an array made without CUDA_ARRAY3D_SURFACE_LDST: taken, as on the H100 */
    CUsurfObject surf;
    ck_assert_int_eq(cuSurfObjectCreate(&surf, &r), CUDA_SUCCESS);
    ck_assert_int_eq(cuSurfObjectDestroy(surf), CUDA_SUCCESS);
    ck_assert_int_eq(cuTexObjectDestroy(tex), CUDA_SUCCESS);
    ck_assert_int_eq(cuTexObjectDestroy(tex), CUDA_ERROR_INVALID_VALUE);
    /* a view of the whole array as it is, and one that is not supported yet */
    memset(&v, 0, sizeof v);
    v.width = 4;
    v.height = 4;
    v.format = 0x16;   /* CU_RES_VIEW_FORMAT_FLOAT_1X32 */
    ck_assert_int_eq(cuTexObjectCreate(&tex, &r, &t, &v), CUDA_SUCCESS);
    CUDA_RESOURCE_VIEW_DESC vb;
    ck_assert_int_eq(cuTexObjectGetResourceViewDesc(&vb, tex), CUDA_SUCCESS);
    ck_assert_uint_eq(vb.width, 4);
    ck_assert_int_eq(cuTexObjectDestroy(tex), CUDA_SUCCESS);
    v.format = 0x0d;   /* CU_RES_VIEW_FORMAT_UINT_1X32: another format */
    ck_assert_int_eq(cuTexObjectCreate(&tex, &r, &t, &v), CUDA_ERROR_NOT_SUPPORTED);
    t.addressMode[0] = 7;
    ck_assert_int_eq(cuTexObjectCreate(&tex, &r, &t, NULL), CUDA_ERROR_INVALID_VALUE);
    t.addressMode[0] = CU_TR_ADDRESS_MODE_CLAMP;
    r.flags = 1;
    ck_assert_int_eq(cuTexObjectCreate(&tex, &r, &t, NULL), CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuArrayDestroy(a), CUDA_SUCCESS);
    /* linear and pitched memory: alignment, pitch, the allocation */
    CUdeviceptr d;
    ck_assert_int_eq(cuMemAlloc_v2(&d, 4096), CUDA_SUCCESS);
    memset(&r, 0, sizeof r);
    r.resType = CU_RESOURCE_TYPE_LINEAR;
    r.res.linear.devPtr = d;
    r.res.linear.format = CU_AD_FORMAT_UNSIGNED_INT32;
    r.res.linear.numChannels = 1;
    r.res.linear.sizeInBytes = 4096;
    memset(&t, 0, sizeof t);
    t.flags = CU_TRSF_READ_AS_INTEGER;
    ck_assert_int_eq(cuTexObjectCreate(&tex, &r, &t, NULL), CUDA_SUCCESS);
    ck_assert_int_eq(cuTexObjectDestroy(tex), CUDA_SUCCESS);
    r.res.linear.devPtr = d + 256;   /* not aligned to 512 bytes */
    r.res.linear.sizeInBytes = 256;
    ck_assert_int_eq(cuTexObjectCreate(&tex, &r, &t, NULL), CUDA_ERROR_INVALID_VALUE);
    r.res.linear.devPtr = d;
    r.res.linear.sizeInBytes = 8192;  /* beyond the allocation */
    ck_assert_int_eq(cuTexObjectCreate(&tex, &r, &t, NULL), CUDA_ERROR_INVALID_VALUE);
    memset(&r, 0, sizeof r);
    r.resType = CU_RESOURCE_TYPE_PITCH2D;
    r.res.pitch2D.devPtr = d;
    r.res.pitch2D.format = CU_AD_FORMAT_FLOAT;
    r.res.pitch2D.numChannels = 1;
    r.res.pitch2D.width = 10;
    r.res.pitch2D.height = 8;
    r.res.pitch2D.pitchInBytes = 64;
    ck_assert_int_eq(cuTexObjectCreate(&tex, &r, &t, NULL), CUDA_SUCCESS);
    ck_assert_int_eq(cuSurfObjectDestroy(tex), CUDA_ERROR_INVALID_VALUE);   /* a texture, not a surface */
    ck_assert_int_eq(cuTexObjectDestroy(tex), CUDA_SUCCESS);
    r.res.pitch2D.pitchInBytes = 48;  /* not a multiple of 32 */
    ck_assert_int_eq(cuTexObjectCreate(&tex, &r, &t, NULL), CUDA_ERROR_INVALID_VALUE);
    ck_assert_int_eq(cuMemFree_v2(d), CUDA_SUCCESS);
    /* a surface on one level of a mipmapped array */
    CUmipmappedArray m;
    CUDA_ARRAY3D_DESCRIPTOR dm = { 8, 8, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4, CUDA_ARRAY3D_SURFACE_LDST };
    ck_assert_int_eq(cuMipmappedArrayCreate(&m, &dm, 4), CUDA_SUCCESS);
    ck_assert_int_eq(cuMipmappedArrayGetLevel(&a, m, 2), CUDA_SUCCESS);
    memset(&r, 0, sizeof r);
    r.resType = CU_RESOURCE_TYPE_ARRAY;
    r.res.array.hArray = a;
    ck_assert_int_eq(cuSurfObjectCreate(&surf, &r), CUDA_SUCCESS);
    ck_assert_int_eq(cuSurfObjectDestroy(surf), CUDA_SUCCESS);
    memset(&t, 0, sizeof t);
    ck_assert_int_eq(cuTexObjectCreate(&tex, &r, &t, NULL), CUDA_SUCCESS);   /* the level as a plain array */
    ck_assert_int_eq(cuTexObjectDestroy(tex), CUDA_SUCCESS);
    r.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
    r.res.mipmap.hMipmappedArray = m;
    ck_assert_int_eq(cuSurfObjectCreate(&surf, &r), CUDA_ERROR_INVALID_VALUE);
    memset(&t, 0, sizeof t);
    ck_assert_int_eq(cuTexObjectCreate(&tex, &r, &t, NULL), CUDA_ERROR_INVALID_VALUE);   /* unnormalized */
    t.flags = CU_TRSF_NORMALIZED_COORDINATES;
    ck_assert_int_eq(cuTexObjectCreate(&tex, &r, &t, NULL), CUDA_SUCCESS);
    ck_assert_int_eq(cuTexObjectDestroy(tex), CUDA_SUCCESS);
    ck_assert_int_eq(cuMipmappedArrayDestroy(m), CUDA_SUCCESS);
    ck_assert_int_eq(cuDevicePrimaryCtxRelease_v2(0), CUDA_SUCCESS);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("driver");
    TCase *t = tcase_create("driver");
    tcase_set_timeout(t, 30);
    tcase_add_test(t, getproc_answers_as_recorded);
    tcase_add_test(t, private_tables);
    tcase_add_test(t, device_is_an_h100);
    tcase_add_test(t, memory_and_its_errors);
    tcase_add_test(t, launch_both_parameter_forms);
    tcase_add_test(t, library_needs_no_context);
    tcase_add_test(t, statistics_per_launch);
    tcase_add_test(t, fault_is_sticky);
    tcase_add_test(t, device_memory_layout);
    tcase_add_test(t, shared_memory_frees_to_zero);
    tcase_add_test(t, opaque_kernel_parameters_refused);
    tcase_add_test(t, compressible_memory);
    tcase_add_test(t, ptx_version_is_the_target);
    tcase_add_test(t, outside_allocations_as_on_the_h100);
    tcase_add_test(t, outside_allocations_exact);
    tcase_add_test(t, capture_and_graph);
    tcase_add_test(t, stream_memory_operations);
    tcase_add_test(t, link_ptx_units);
    tcase_add_test(t, link_archive_members);
    tcase_add_test(t, unsupported_functions_say_so);
    tcase_add_test(t, arrays_and_their_copies);
    tcase_add_test(t, texture_and_surface_objects);
    suite_add_tcase(s, t);
    TCase *gt = tcase_create("graph");   /* CK_RUN_CASE=graph: the graph API's tests alone */
    tcase_set_timeout(gt, 30);
    tcase_add_test(gt, graph_memory_nodes);
    tcase_add_test(gt, graph_conditionals_attributes_user_objects);
    suite_add_tcase(s, gt);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
