// printf_exit: a kernel that prints and is never synchronised with before main returns;
// what of its output appears is the hardware's and the runtime's answer.
#include "apps.h"

__global__ void late(int v)
{
    if (threadIdx.x < 2)
        printf("late kernel, thread %d, v %d\n", threadIdx.x, v);
}

int main()
{
    late<<<1, 32>>>(1);
    CK(cudaDeviceSynchronize());
    printf("host: first kernel done\n");
    fflush(stdout);
    late<<<1, 32>>>(2);
    printf("host: returning without synchronising\n");
    fflush(stdout);
    return 0;
}
