// printf length modifiers as the H100 prints them: h with every integer conversion, l,
// a width from an argument, "%5%" with arguments, and L (printed as it stands).
#include <cstdio>
#include <cstddef>
#include <cstdint>

__global__ void printf_lengths(int k)
{
    if (threadIdx.x != 0)
        return;
    printf("A %hu\n", (unsigned short)(k + 5));
    printf("B %hx\n", (unsigned short)(k + 0x1234));
    printf("D %hd %hu\n", (short)(k - 5), (unsigned short)(k + 6));
    printf("E %u %hu %d\n", k + 1u, (unsigned short)(k + 2), k + 3);
    printf("J %5%|%d\n", k + 9);
    printf("K %ho %hX %hi\n", (unsigned short)(k + 8), (unsigned short)(k + 0xabc), (short)(k - 1));
    printf("L %lu %lx %li %lc\n", (unsigned long)(k + 1), (unsigned long)(k + 255), (long)(k - 2), (unsigned)(k + 66));
    printf("M %Lf %Le\n", (long double)(k + 1.25), (long double)(k + 2.5));
}
