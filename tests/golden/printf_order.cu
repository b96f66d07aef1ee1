// printf_order: the order of printf lines from the arms of divergent branches of one warp
#include <cstdio>
__global__ void printf_order(const int *v, int *out)
{
    int t = threadIdx.x;
    int x = v[t];
    if (t == 0)
        printf("zero %d\n", x);
    else if (t == 1)
        printf("one %d\n", x);
    else if (t < 5)
        printf("small %d %d\n", t, x);
    else if (x & 1)
        printf("odd %d\n", t);
    if (x % 3 == 0) {
        printf("three %d\n", t);
    } else {
        if (t > 20)
            printf("big %d\n", t);
        else
            printf("rest %d\n", t);
    }
    switch (t & 3) {
    case 0: printf("case0 %d\n", t); break;
    case 1: printf("case1 %d\n", t); break;
    case 2: out[t] = x; break;
    default: printf("case3 %d\n", t); break;
    }
    for (int i = 0; i < (t & 3); i++)
        if ((i + t) % 5 == 0)
            printf("loop %d %d\n", t, i);
}
