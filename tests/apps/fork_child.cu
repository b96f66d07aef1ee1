// fork_child.cu: a child forked after the parent initialised CUDA (Numba's fork detection
// relies on what the driver answers there): the child's driver calls, the parent's
// afterwards, and a fresh process (fork + exec) that initialises its own.
// link: -lcuda
#include "apps.h"
#include <cuda.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cstring>

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "fresh")) {   // exec'd: a process of its own
        CUdeviceptr p;
        CUcontext c;
        CUdevice d;
        DK(cuInit(0));
        DK(cuDeviceGet(&d, 0));
        DK(cuDevicePrimaryCtxRetain(&c, d));
        DK(cuCtxSetCurrent(c));
        DK(cuMemAlloc(&p, 64));
        return 0;
    }
    CUdevice d;
    CUcontext c;
    CUdeviceptr p, q;
    DK(cuInit(0));
    DK(cuDeviceGet(&d, 0));
    DK(cuDevicePrimaryCtxRetain(&c, d));
    DK(cuCtxSetCurrent(c));
    DK(cuMemAlloc(&p, 256));
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        int n = -1;
        CUcontext cur = nullptr;
        printf("child:\n");
        DK(cuMemAlloc(&q, 64));
        DK(cuMemsetD8(p, 1, 256));
        DK(cuCtxGetCurrent(&cur));
        DK(cuDeviceGetCount(&n));
        DK(cuCtxSynchronize());
        DK(cuInit(0));
        DK(cuDeviceGetCount(&n));
        fflush(stdout);
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    printf("parent:\n");
    DK(cuMemsetD8(p, 2, 256));
    unsigned char h[4];
    DK(cuMemcpyDtoH(h, p, 4));
    printf("byte %d\n", h[0]);
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        execl(argv[0], argv[0], "fresh", (char *)nullptr);
        _exit(127);
    }
    waitpid(pid, &st, 0);
    printf("fresh process exit %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    return 0;
}
