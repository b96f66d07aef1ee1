// warp_masks: warp collectives whose member masks leave lanes out (undefined by the CUDA
// docs; what the H100 does, recorded): masks that every lane gives alike run, over the
// lanes that arrive, those outside included; masks that differ between lanes run when each
// lane is in its own, and stop the kernel (illegal instruction) when a lane is not.
#include "apps.h"

__global__ void k(unsigned *out, int mode, unsigned arg)
{
    unsigned lane = threadIdx.x & 31;
    unsigned p = (lane * 7 + 3) % 5 < 2;
    unsigned lt = (1u << lane) - 1;
    switch (mode) {
    case 0: out[lane] = __ballot_sync(0, p); break;                        // no lane in it
    case 1: out[lane] = __ballot_sync(0x0000ffffu, p); break;              // lanes 16..31 not in it
    case 2: out[lane] = __shfl_sync(0xffffffffu, lane * 3, 0); break;
    case 3: if (lane < 16) out[lane] = __ballot_sync(0xffffffffu, p); else out[lane] = 7; break;
    case 4: out[lane] = __ballot_sync(arg, p); break;                       // one mask from a register
    case 5: out[lane] = __ballot_sync(lt | (1u << lane), p); break;         // masks differ, self in each
    case 6: out[lane] = __shfl_sync(arg, lane * 3, 1); break;
    case 7: out[lane] = __shfl_sync(lt | (1u << lane), lane * 3, 0); break;
    case 8: out[lane] = __match_any_sync(lt | (1u << lane), lane & 3); break;
    case 9: out[lane] = __ballot_sync(lt, p); break;                        // masks differ, self in none
    }
}

int main()
{
    unsigned *d, h[32];
    CK(cudaMalloc(&d, sizeof h));
    const int modes[] = { 0, 1, 2, 3, 4, 4, 5, 6, 7, 8, 9 };
    const unsigned args[] = { 0, 0, 0, 0, 0xffffu, 0, 0, 0xffffu, 0, 0, 0 };
    for (int i = 0; i < 11; i++) {
        CK(cudaMemset(d, 0, sizeof h));
        k<<<1, 32>>>(d, modes[i], args[i]);
        cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
        printf("mode %d: %s\n", modes[i], cudaGetErrorName(e));
        if (e != cudaSuccess)
            break;
        for (int l = 0; l < 32; l++)
            printf("%x%c", h[l], l == 31 ? '\n' : ' ');
    }
    SAY(cudaDeviceSynchronize());
    return 0;
}
