// printf conversions as the CUDA runtime formats them: integers of every length,
// floats (finite, subnormal, huge, inf, nan), %a, strings (global, shared, local, NULL),
// pointers, %%, flags, width (also *) and precision, many arguments; a format without
// arguments is printed as it stands.  (hh lengths, a precision given by '*' and z/t/j
// are left out: the H100 prints bytes that are not the argument for them, see
// docs/services.md.)  One thread prints
// (thread 0); the others print nothing.  Output recorded on an H100 by
// tests/golden/record.sh.
#include <cstdio>
#include <cstdint>

__global__ void printf_formats(const double *v, const int *iv)
{
    __shared__ char sh[8];
    char loc[8];
    if (threadIdx.x != 0)
        return;
    sh[0] = 's'; sh[1] = 'h'; sh[2] = 0;
    for (int i = 0; i < 7; i++)
        loc[i] = 'a' + iv[i % 4] % 26 + i;
    loc[7] = 0;
    int a = iv[0], b = iv[1];
    unsigned u = (unsigned)iv[2];
    long long ll = (long long)iv[3] * 1000000007LL;
    printf("plain text\n");
    printf("%%d %d %i %u %o %x %X|%5d|%-5d|%05d|%+d|% d|%.3d\n", a, b, u, u, u, u, a, a, a, a, a, a);
    printf("%ld %lld %llu %llx %hd\n", (long)ll, ll, (unsigned long long)ll, (unsigned long long)ll, (short)b);
    for (int i = 0; i < 8; i++)
        printf("[%d] %f %F %e %E %g %G %a %A|%10.3f|%-12.4e|%+.0f|%#g|%#.0f|%.12g\n", i, v[i], v[i], v[i], v[i],
               v[i], v[i], v[i], v[i], v[i], v[i], v[i], v[i], v[i], v[i]);
    printf("%f %e %g\n", (float)v[1], (float)v[2], (float)v[3]);
    printf("c=%c%c%c s=%s sh=%s loc=%s lit=%s|%10s|%-6s|%.2s|\n", 'x', 65 + a % 26, '!', "global", sh, loc,
           "literal", "right", "left", "truncate");
    printf("null=%s\n", (const char *)0);
    printf("p=%p null=%p\n", (void *)0x1234abcdULL, (void *)0);
    printf("star=%*d|%-*d|\n", 6, a, 6, b);
    printf("many %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %f %f %f %f\n", 1, 2, 3, 4, 5, 6,
           7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, v[0], v[1], v[2], v[3]);
    int r1 = printf("no args\n");
    int r2 = printf("%d %d %s\n", 1, 2, "three");
    printf("returns %d %d\n", r1, r2);
    printf("bad %y %k %% %5% %\n");
    printf("%5%|%-5%|%d\n", a);
}
