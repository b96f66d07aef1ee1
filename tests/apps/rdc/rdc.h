/* rdc.h: what the two halves of the -rdc test program share: the declarations of b.cu's
 * device-side definitions that a.cu uses, and a template both instantiate (so that both
 * translation units define the same .weak function). */
#ifndef RDC_H
#define RDC_H

extern __device__ int rdc_counter;       /* b.cu: the launches add to it */
extern __device__ int rdc_table[4];      /* b.cu: {10, 20, 30, 40} */
extern __constant__ int rdc_offset;      /* b.cu: 12 */
__device__ int rdc_scale(int x);         /* b.cu: 3x + rdc_table[x & 3] */
__device__ int rdc_b_value(int x);       /* b.cu: b's helper(x) + twice_plus<7>(x) = 3x + 1007 */
__global__ void rdc_bump(int k);         /* b.cu: adds k to rdc_counter once per thread */

/* Both halves call twice_plus<7>, so both define it: a weak function, one copy kept. */
template <int N> __device__ __noinline__ int twice_plus(int x) { return 2 * x + N; }

#endif
