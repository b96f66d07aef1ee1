// printf_odd: device printf's conversions that C allows and the device treats its own way:
// a '*' width, %p of NULL, a %s of NULL, the j, z and t lengths.  (The H100 prints bytes
// unrelated to the argument for hh lengths and for a '*' precision, which changed from run
// to run, so they are not here.)
#include "apps.h"

__global__ void odd(int i, double d)
{
    printf("star width [%*d] next [%d]\n", 6, i, 77);
    printf("null string [%s]\n", (const char *)0);
    printf("null pointer [%p]\n", (void *)0);
    printf("j z t: [%jd] [%zu] [%td]\n", (long long)i, (size_t)i, (long long)i);
}

int main()
{
    odd<<<1, 1>>>(300, 3.14159);
    CK(cudaDeviceSynchronize());
    printf("host: done\n");
    return 0;
}
