// ipc: memory and events shared between processes.  The parent allocates, exports handles
// (cudaIpcGetMemHandle, cudaIpcGetEventHandle, and a VMM allocation exported as a file
// descriptor) and starts itself again as a child, which opens them, changes the memory with
// a kernel and records the event; the parent then reads what the child wrote.  The error
// codes of the calls that must fail are printed as the runtime and driver return them.
// link: -lcuda
#include "ipc.h"
#include <cuda.h>
#include <cstdint>
#include <sys/wait.h>
#include <unistd.h>

static const int NA = 1 << 18;    // words of a (1 MiB)
static const int NB = 1024;       // words of b (4 KiB), in the same 2 MiB chunk as c
static const int NC = 250;        // words of c (1000 bytes)
static const size_t VMM = 2 << 20;
static const int FD = 100;        // the VMM allocation's descriptor in the child

// Address space for a VMM allocation h of VMM bytes, mapped and made read-write.
static CUdeviceptr map_rw(CUmemGenericAllocationHandle h)
{
    CUdeviceptr va;
    DK(cuMemAddressReserve(&va, VMM, 0, 0, 0));
    DK(cuMemMap(va, VMM, 0, h, 0));
    CUmemAccessDesc acc;
    memset(&acc, 0, sizeof acc);
    acc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    acc.location.id = 0;
    acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    DK(cuMemSetAccess(va, VMM, &acc, 1));
    return va;
}

static int child(char **argv)
{
    cudaIpcMemHandle_t ha, hb, hc;
    cudaIpcEventHandle_t he;
    unhex(argv[2], &ha, sizeof ha);
    unhex(argv[3], &hb, sizeof hb);
    unhex(argv[4], &hc, sizeof hc);
    unhex(argv[5], &he, sizeof he);
    cudaIpcMemHandle_t hi;
    unhex(argv[6], &hi, sizeof hi);
    void *a = nullptr, *a2 = nullptr, *b = nullptr, *c = nullptr;
    SAY(cudaIpcOpenMemHandle(&a, ha, cudaIpcMemLazyEnablePeerAccess));
    SAY(cudaIpcOpenMemHandle(&a2, ha, cudaIpcMemLazyEnablePeerAccess));
    printf("child: the second open gives the same pointer: %s\n", a == a2 ? "yes" : "no");
    SAY(cudaIpcOpenMemHandle(&b, hb, 0));
    SAY(cudaIpcOpenMemHandle(&b, hb, 2));
    (void)cudaGetLastError();   // (the runtime keeps those errors as its last)
    SAY(cudaIpcOpenMemHandle(&b, hb, cudaIpcMemLazyEnablePeerAccess));
    SAY(cudaIpcOpenMemHandle(&c, hc, cudaIpcMemLazyEnablePeerAccess));
    check("child: a", a, NA, 3, 1);
    check("child: b", b, NB, 5, 2);
    check("child: c", c, NC, 7, 3);
    void *in = nullptr;
    SAY(cudaIpcOpenMemHandle(&in, hi, cudaIpcMemLazyEnablePeerAccess));
    if (in) {
        unsigned w;
        CK(cudaMemcpy(&w, in, 4, cudaMemcpyDeviceToHost));
        printf("child: the handle of a + 8192 opens at %s, word %u\n", in == a ? "a" : "another address", w);
        SAY(cudaIpcCloseMemHandle(in));
    }
    (void)cudaGetLastError();
    cudaPointerAttributes at;
    CK(cudaPointerGetAttributes(&at, (char *)a + 4096));
    printf("child: a is %s memory of device %d\n", at.type == cudaMemoryTypeDevice ? "device" : "other", at.device);
    bump<<<64, 256>>>((unsigned *)a, NA, 10);
    bump<<<4, 256>>>((unsigned *)b, NB, 20);
    CK(cudaGetLastError());
    cudaEvent_t e;
    SAY(cudaIpcOpenEventHandle(&e, he));
    SAY(cudaEventRecord(e, 0));
    SAY(cudaEventSynchronize(e));
    SAY(cudaEventQuery(e));
    float ms;
    SAY(cudaEventElapsedTime(&ms, e, e));
    CK(cudaDeviceSynchronize());

    cudaIpcMemHandle_t zero;
    memset(&zero, 0, sizeof zero);
    void *z = nullptr;
    SAY(cudaIpcOpenMemHandle(&z, zero, cudaIpcMemLazyEnablePeerAccess));
    void *mine;
    CK(cudaMalloc(&mine, 4096));
    SAY(cudaIpcCloseMemHandle(mine));
    SAY(cudaIpcCloseMemHandle(a));
    SAY(cudaIpcCloseMemHandle(a));
    SAY(cudaIpcCloseMemHandle(a));
    SAY(cudaIpcCloseMemHandle(b));
    SAY(cudaIpcCloseMemHandle(c));
    SAY(cudaEventDestroy(e));

    // the VMM allocation, from the descriptor the parent left open
    CK(cudaFree(0));
    CUmemGenericAllocationHandle h;
    DK(cuMemImportFromShareableHandle(&h, (void *)(uintptr_t)FD, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof prop);
    DK(cuMemGetAllocationPropertiesFromHandle(&prop, h));
    printf("child: imported allocation: type %d, location %d/%d, handle types %d\n", (int)prop.type,
           (int)prop.location.type, prop.location.id, (int)prop.requestedHandleTypes);
    CUdeviceptr va = map_rw(h);
    check("child: vmm", (void *)va, VMM / 4, 11, 4);
    bump<<<64, 256>>>((unsigned *)va, VMM / 4, 30);
    CK(cudaDeviceSynchronize());
    DK(cuMemUnmap(va, VMM));
    DK(cuMemRelease(h));
    DK(cuMemAddressFree(va, VMM));
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "child"))
        return child(argv);
    int attr = 0;
    CK(cudaDeviceGetAttribute(&attr, cudaDevAttrIpcEventSupport, 0));
    printf("IPC events supported: %d\n", attr);
    void *a, *b, *c;
    CK(cudaMalloc(&a, NA * 4));
    CK(cudaMalloc(&b, NB * 4));
    CK(cudaMalloc(&c, NC * 4));
    fill(a, NA, 3, 1);
    fill(b, NB, 5, 2);
    fill(c, NC, 7, 3);
    cudaIpcMemHandle_t ha, hb, hc, hx;
    CK(cudaIpcGetMemHandle(&ha, a));
    CK(cudaIpcGetMemHandle(&hb, b));
    CK(cudaIpcGetMemHandle(&hc, c));
    // what may not be exported
    SAY(cudaIpcGetMemHandle(&hx, nullptr));
    void *host, *managed, *gone;
    CK(cudaMallocHost(&host, 4096));
    CK(cudaMallocManaged(&managed, 4096));
    SAY(cudaIpcGetMemHandle(&hx, host));
    SAY(cudaIpcGetMemHandle(&hx, managed));
    CK(cudaMalloc(&gone, 4096));
    CK(cudaFree(gone));
    SAY(cudaIpcGetMemHandle(&hx, gone));
    void *pooled;
    CK(cudaMallocAsync(&pooled, 4096, 0));
    CK(cudaStreamSynchronize(0));
    SAY(cudaIpcGetMemHandle(&hx, pooled));
    // a pointer inside an allocation
    cudaIpcMemHandle_t hi;
    memset(&hi, 0, sizeof hi);
    SAY(cudaIpcGetMemHandle(&hi, (char *)a + 8192));
    printf("the handle of a + 8192 is a's: %s\n", memcmp(&hi, &ha, sizeof ha) ? "no" : "yes");
    // nor opened in the process that exported it
    void *self = nullptr;
    SAY(cudaIpcOpenMemHandle(&self, ha, cudaIpcMemLazyEnablePeerAccess));

    cudaEvent_t ev, plain, timed;
    cudaIpcEventHandle_t he, hy;
    CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming | cudaEventInterprocess));
    CK(cudaEventCreateWithFlags(&plain, cudaEventDisableTiming));
    SAY(cudaEventCreateWithFlags(&timed, cudaEventInterprocess));
    CK(cudaIpcGetEventHandle(&he, ev));
    SAY(cudaIpcGetEventHandle(&hy, plain));
    cudaEvent_t same;
    SAY(cudaIpcOpenEventHandle(&same, he));

    // a VMM allocation that may be exported as a file descriptor
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    CUmemGenericAllocationHandle vh, plainh;
    DK(cuMemCreate(&vh, VMM, &prop, 0));
    CUdeviceptr va = map_rw(vh);
    fill((void *)va, VMM / 4, 11, 4);
    int fd = -1;
    DK(cuMemExportToShareableHandle(&fd, vh, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_NONE;
    DK(cuMemCreate(&plainh, VMM, &prop, 0));
    int fd2 = -1;
    DK(cuMemExportToShareableHandle(&fd2, plainh, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    DK(cuMemRelease(plainh));
    if (fd < 0 || dup2(fd, FD) != FD) {
        printf("no descriptor to pass on\n");
        return 1;
    }

    std::string sa = hex(&ha, sizeof ha), sb = hex(&hb, sizeof hb), sc = hex(&hc, sizeof hc), se = hex(&he, sizeof he),
                si = hex(&hi, sizeof hi);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execl("/proc/self/exe", argv[0], "child", sa.c_str(), sb.c_str(), sc.c_str(), se.c_str(), si.c_str(), (char *)nullptr);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    printf("child exited with %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    CK(cudaStreamWaitEvent(0, ev, 0));
    SAY(cudaEventQuery(ev));
    check("parent: a", a, NA, 3, 11);
    check("parent: b", b, NB, 5, 22);
    check("parent: c", c, NC, 7, 3);
    check("parent: vmm", (void *)va, VMM / 4, 11, 34);
    // the exported allocations are freed as any other
    CK(cudaFree(a));
    CK(cudaFree(b));
    CK(cudaFree(c));
    CK(cudaEventDestroy(ev));
    DK(cuMemUnmap(va, VMM));
    DK(cuMemRelease(vh));
    DK(cuMemAddressFree(va, VMM));
    return 0;
}
