// nvrtc_ptx: one NVRTC compile to PTX (nvcc -o nvrtc_ptx nvrtc_ptx.cu -lnvrtc), logged on the
// GPU machine through the logging libcuda.so.1 with NVRTC's private table wrapped:
//   DRVLOG_WRAP=da9151d3 DRVLOG_REAL=<the real libcuda> DRVLOG_FILE=log LD_LIBRARY_PATH=DIR ./nvrtc_ptx
// (logs/nvrtc.wrap-da9151d3.log).
#include <cstdio>
#include <nvrtc.h>

int main()
{
    nvrtcProgram p;
    nvrtcCreateProgram(&p, "extern \"C\" __global__ void k(){}", "x.cu", 0, 0, 0);
    int r = nvrtcCompileProgram(p, 0, 0);
    printf("r=%d", r);
    return 0;
}
