// ipc_pool: a memory pool shared between processes.  The parent creates a pool that may be
// exported as a file descriptor, allocates from it, exports the pool and a pointer, and
// starts itself again as a child, which imports both, changes the memory with a kernel and
// frees its import; the parent then reads what the child wrote.  The error codes of the
// calls that must fail are printed as the runtime returns them.
#include "ipc.h"
#include <cstdint>
#include <sys/wait.h>
#include <unistd.h>

static const int N = 1 << 18;   // words (1 MiB)
static const int FD = 101;      // the pool's descriptor in the child

static int child(char **argv)
{
    cudaMemPoolPtrExportData d, d2;
    unhex(argv[2], &d, sizeof d);
    unhex(argv[3], &d2, sizeof d2);
    cudaMemPool_t pool;
    SAY(cudaMemPoolImportFromShareableHandle(&pool, (void *)(uintptr_t)FD, cudaMemHandleTypePosixFileDescriptor, 0));
    void *p = nullptr, *q = nullptr, *mine = nullptr;
    SAY(cudaMemPoolImportPointer(&p, pool, &d));
    SAY(cudaMemPoolImportPointer(&q, pool, &d2));
    check("child: p", p, N, 3, 1);
    check("child: q", q, 1024, 5, 2);
    bump<<<64, 256>>>((unsigned *)p, N, 10);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    SAY(cudaMallocFromPoolAsync(&mine, 4096, pool, 0));
    (void)cudaGetLastError();
    SAY(cudaFreeAsync(p, 0));
    SAY(cudaFreeAsync(q, 0));
    SAY(cudaStreamSynchronize(0));
    SAY(cudaMemPoolDestroy(pool));
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "child"))
        return child(argv);
    cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t pool;
    CK(cudaMemPoolCreate(&pool, &props));
    void *p, *q;
    CK(cudaMallocFromPoolAsync(&p, N * 4, pool, 0));
    CK(cudaMallocFromPoolAsync(&q, 4096, pool, 0));
    CK(cudaStreamSynchronize(0));
    fill(p, N, 3, 1);
    fill(q, 1024, 5, 2);
    int fd = -1;
    SAY(cudaMemPoolExportToShareableHandle(&fd, pool, cudaMemHandleTypePosixFileDescriptor, 0));
    cudaMemPoolPtrExportData d, d2, dx;
    SAY(cudaMemPoolExportPointer(&d, p));
    SAY(cudaMemPoolExportPointer(&d2, q));
    SAY(cudaMemPoolExportPointer(&dx, (char *)p + 4096));
    // what may not be exported: the default pool, its memory, plain allocations
    cudaMemPool_t def;
    CK(cudaDeviceGetDefaultMemPool(&def, 0));
    int fdx = -1;
    SAY(cudaMemPoolExportToShareableHandle(&fdx, def, cudaMemHandleTypePosixFileDescriptor, 0));
    void *dp, *plain;
    CK(cudaMallocAsync(&dp, 4096, 0));
    CK(cudaMalloc(&plain, 4096));
    CK(cudaStreamSynchronize(0));
    SAY(cudaMemPoolExportPointer(&dx, dp));
    SAY(cudaMemPoolExportPointer(&dx, plain));
    // nor imported in the process that exported it
    cudaMemPool_t self;
    SAY(cudaMemPoolImportFromShareableHandle(&self, (void *)(uintptr_t)fd, cudaMemHandleTypePosixFileDescriptor, 0));
    (void)cudaGetLastError();
    if (fd < 0 || dup2(fd, FD) != FD) {
        printf("no descriptor to pass on\n");
        return 1;
    }
    std::string s = hex(&d, sizeof d), s2 = hex(&d2, sizeof d2);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execl("/proc/self/exe", argv[0], "child", s.c_str(), s2.c_str(), (char *)nullptr);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    printf("child exited with %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    check("parent: p", p, N, 3, 11);
    check("parent: q", q, 1024, 5, 2);
    CK(cudaFreeAsync(p, 0));
    CK(cudaFreeAsync(q, 0));
    CK(cudaStreamSynchronize(0));
    CK(cudaMemPoolDestroy(pool));
    return 0;
}
