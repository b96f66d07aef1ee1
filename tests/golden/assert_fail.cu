// A failing assert in two threads of CTA 1 (and a passing one everywhere): the message
// the H100 prints for each, then the launch fails with cudaErrorAssert.
#include <cassert>

__global__ void assert_fail(int *out, int n)
{
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    assert(t >= 0);
    out[t] = t;
    if (blockIdx.x == 1)
        assert(threadIdx.x != 3 && threadIdx.x != 17 && n > 0);
}
