// props: what the runtime says of the device: properties, attributes, versions, memory,
// and pointer attributes of every kind of memory.
#include "apps.h"

int main()
{
    int dv, rv;
    CK(cudaDriverGetVersion(&dv));
    CK(cudaRuntimeGetVersion(&rv));
    printf("driver version >= 13000: %d, runtime %d\n", dv >= 13000, rv);
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("name %s\n", p.name);
    printf("cc %d.%d sms %d warp %d\n", p.major, p.minor, p.multiProcessorCount, p.warpSize);
    printf("global memory %zu GiB\n", (p.totalGlobalMem + (1 << 29)) >> 30);
    printf("sharedMemPerBlock %zu sharedMemPerBlockOptin %zu sharedMemPerMultiprocessor %zu reservedSharedMemPerBlock %zu\n",
           p.sharedMemPerBlock, p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor, p.reservedSharedMemPerBlock);
    printf("regsPerBlock %d regsPerMultiprocessor %d\n", p.regsPerBlock, p.regsPerMultiprocessor);
    printf("maxThreadsPerBlock %d maxThreadsDim %d %d %d maxGridSize %d %d %d\n", p.maxThreadsPerBlock,
           p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2], p.maxGridSize[0], p.maxGridSize[1],
           p.maxGridSize[2]);
    printf("maxThreadsPerMultiProcessor %d maxBlocksPerMultiProcessor %d\n", p.maxThreadsPerMultiProcessor,
           p.maxBlocksPerMultiProcessor);
    printf("totalConstMem %zu memPitch %zu textureAlignment %zu texturePitchAlignment %zu\n", p.totalConstMem,
           p.memPitch, p.textureAlignment, p.texturePitchAlignment);
    printf("l2CacheSize %d persistingL2CacheMaxSize %d memoryBusWidth %d\n", p.l2CacheSize,
           p.persistingL2CacheMaxSize, p.memoryBusWidth);
    printf("unifiedAddressing %d managedMemory %d concurrentManagedAccess %d pageableMemoryAccess %d\n",
           p.unifiedAddressing, p.managedMemory, p.concurrentManagedAccess, p.pageableMemoryAccess);
    printf("concurrentKernels %d asyncEngineCount %d canMapHostMemory %d cooperativeLaunch %d\n",
           p.concurrentKernels, p.asyncEngineCount, p.canMapHostMemory, p.cooperativeLaunch);
    printf("maxTexture1D %d maxTexture2D %d %d maxTexture3D %d %d %d maxSurface2D %d %d\n", p.maxTexture1D,
           p.maxTexture2D[0], p.maxTexture2D[1], p.maxTexture3D[0], p.maxTexture3D[1], p.maxTexture3D[2],
           p.maxSurface2D[0], p.maxSurface2D[1]);
    printf("ECCEnabled %d tccDriver %d integrated %d isMultiGpuBoard %d computePreemptionSupported %d\n",
           p.ECCEnabled, p.tccDriver, p.integrated, p.isMultiGpuBoard, p.computePreemptionSupported);
    printf("clusterLaunch %d accessPolicyMaxWindowSize %d hostRegisterSupported %d\n", p.clusterLaunch,
           p.accessPolicyMaxWindowSize, p.hostRegisterSupported);

    // attributes one by one (all but the identities of this machine: PCI location)
    for (int a = 1; a <= 150; a++) {
        if (a == cudaDevAttrPciBusId || a == cudaDevAttrPciDeviceId || a == cudaDevAttrPciDomainId)
            continue;
        int v;
        cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)a, 0);
        if (e == cudaSuccess)
            printf("attribute %d = %d\n", a, v);
        else
            printf("attribute %d: %s\n", a, cudaGetErrorName(e));
    }
    size_t fr, tot;
    CK(cudaMemGetInfo(&fr, &tot));
    printf("memory total %zu GiB, free <= total %d\n", (tot + (1 << 29)) >> 30, fr <= tot);

    // pointer attributes
    void *dev, *pinned, *managed, *plain = malloc(64), *reg = malloc(4096);
    CK(cudaMalloc(&dev, 64));
    CK(cudaMallocHost(&pinned, 64));
    CK(cudaMallocManaged(&managed, 64));
    CK(cudaHostRegister(reg, 4096, cudaHostRegisterDefault));
    void *ptrs[] = { dev, (char *)dev + 8, pinned, managed, plain, reg, NULL };
    const char *names[] = { "device", "device+8", "pinned", "managed", "plain", "registered", "NULL" };
    for (int k = 0; k < 7; k++) {
        cudaPointerAttributes a;
        cudaError_t e = cudaPointerGetAttributes(&a, ptrs[k]);
        printf("%s: %s type %d device %d devicePointer==p %d hostPointer==p %d hostPointer NULL %d\n", names[k],
               cudaGetErrorName(e), (int)a.type, a.device, a.devicePointer == ptrs[k], a.hostPointer == ptrs[k],
               a.hostPointer == NULL);
    }
    int lp = -1, hp = -1;
    CK(cudaDeviceGetStreamPriorityRange(&lp, &hp));
    char bus[32];
    CK(cudaDeviceGetPCIBusId(bus, sizeof bus, 0));
    int back = -1;
    CK(cudaDeviceGetByPCIBusId(&back, bus));
    printf("device by its PCI bus id: %d\n", back);
    return 0;
}
