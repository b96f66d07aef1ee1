// classic: the kernels of CUDA's classic samples: a shared-memory histogram, atomics of every
// kind (float/double/half add, integer min/max/inc/dec/and/or/xor, 64-bit, CAS loops), a tiled
// matrix multiply, a padded transpose, a bitonic sort in dynamic shared memory, warp votes,
// matches, shuffles and reductions with the integer intrinsics, pitched 2D copies across two
// streams joined by an event.
// target: -arch=sm_90
#include <cstdio>
#include <cuda_fp16.h>
__global__ void hist(const unsigned char *d, int n, unsigned *h){
  __shared__ unsigned sh[256];
  for (int i=threadIdx.x;i<256;i+=blockDim.x) sh[i]=0; __syncthreads();
  for (int i=blockIdx.x*blockDim.x+threadIdx.x;i<n;i+=gridDim.x*blockDim.x) atomicAdd(&sh[d[i]],1);
  __syncthreads();
  for (int i=threadIdx.x;i<256;i+=blockDim.x) atomicAdd(&h[i], sh[i]);
}
__global__ void atom(float *f, double *d, int *iv, unsigned *u, unsigned long long *ull, __half2 *h2, __half *h1){
  int t = blockIdx.x*blockDim.x+threadIdx.x;
  float v = (t%17)*0.25f;
  atomicAdd(&f[0], v); atomicAdd(&d[0], (double)v*1.5); atomicMax(&iv[0], (t*7919)%1000 - 500); atomicMin(&iv[1], (t*7919)%1000-500);
  atomicInc(&u[0], 37); atomicDec(&u[1], 41); atomicOr(&u[2], 1u<<(t%32)); atomicXor(&u[3], t*0x9e3779b9u); atomicAnd(&u[4], ~(1u<<(t%31)));
  atomicAdd(&ull[0], (unsigned long long)t<<20); atomicMax(&ull[1], (unsigned long long)t*t*t);
  unsigned old = atomicCAS(&u[5], 0u, (unsigned)t+1); atomicAdd(&u[7], old == 0);
  atomicExch(&u[6], t);
  atomicAdd(&h2[0], __floats2half2_rn(0.01f, 0.5f)); atomicAdd(&h1[0], __float2half(0.125f));
  atomicAdd(&f[1], -v*0.5f);
  // float atomicMin via CAS
  float w = -v; int *a = (int*)&f[2]; int o = *a, as;
  do { as = o; o = atomicCAS(a, as, __float_as_int(fminf(w, __int_as_float(as)))); } while (as != o);
}
template<int BS> __global__ void mm(const float *A, const float *B, float *C, int n){
  __shared__ float As[BS][BS], Bs[BS][BS];
  int tx=threadIdx.x, ty=threadIdx.y, r=blockIdx.y*BS+ty, c=blockIdx.x*BS+tx; float acc=0;
  for (int k=0;k<n;k+=BS){ As[ty][tx]=A[r*n+k+tx]; Bs[ty][tx]=B[(k+ty)*n+c]; __syncthreads();
    #pragma unroll
    for (int j=0;j<BS;j++) acc += As[ty][j]*Bs[j][tx]; __syncthreads(); }
  C[r*n+c]=acc;
}
__global__ void transpose(const float *in, float *out, int w, int h){
  __shared__ float tile[32][33];
  int x=blockIdx.x*32+threadIdx.x, y=blockIdx.y*32+threadIdx.y;
  for (int j=0;j<32;j+=8) if (x<w && y+j<h) tile[threadIdx.y+j][threadIdx.x]=in[(y+j)*w+x];
  __syncthreads();
  x=blockIdx.y*32+threadIdx.x; y=blockIdx.x*32+threadIdx.y;
  for (int j=0;j<32;j+=8) if (x<h && y+j<w) out[(y+j)*h+x]=tile[threadIdx.x][threadIdx.y+j];
}
__global__ void bitonic(int *a){
  extern __shared__ int s[];
  int t=threadIdx.x; s[t]=a[blockIdx.x*blockDim.x+t]; __syncthreads();
  for (int k=2;k<=blockDim.x;k<<=1) for (int j=k>>1;j>0;j>>=1){ int p=t^j; if (p>t){ bool up=((t&k)==0); if ((s[t]>s[p])==up){int q=s[t];s[t]=s[p];s[p]=q;} } __syncthreads(); }
  a[blockIdx.x*blockDim.x+t]=s[t];
}
__global__ void vote(const int *in, unsigned *out){
  int t=threadIdx.x+blockIdx.x*blockDim.x; int v=in[t];
  unsigned b = __ballot_sync(0xffffffff, v&1); int an=__any_sync(0xffffffff, v>900); int al=__all_sync(0xffffffff, v>=0);
  unsigned mm = __match_any_sync(0xffffffff, v%5); int pred; unsigned ma = __match_all_sync(0xffffffff, v/1000, &pred);
  int sh = __shfl_xor_sync(0xffffffff, v, 5) + __shfl_up_sync(0xffffffff, v, 3) + __shfl_down_sync(0xffffffff, v, 7, 16) + __shfl_sync(0xffffffff, v, v&31, 8);
  unsigned r = __reduce_add_sync(0xffffffff, v) ^ __reduce_max_sync(0xffffffff, v) ^ __reduce_or_sync(0xffffffff, v);
  out[t] = b ^ an*3 ^ al*5 ^ mm*7 ^ ma*11 ^ pred*13 ^ sh*17 ^ r*19 ^ __popc(v)*23 ^ __clz(v)*29 ^ __ffs(v)*31 ^ __brev(v) ^ __byte_perm(v, b, 0x5140) ^ __funnelshift_l(v,b,v&31) ^ (unsigned)__mul64hi(v,b) ^ __vabsdiffu4(v,b) ^ __sad(v,b,3);
}
int main(){
  int n = 1<<20; unsigned char *d; unsigned *h; cudaMallocManaged(&d, n); cudaMallocManaged(&h, 1024);
  for (int i=0;i<n;i++) d[i] = (i*2654435761u)>>24 ^ (i&7); cudaMemset(h, 0, 1024);
  hist<<<64,256>>>(d, n, h); cudaDeviceSynchronize();
  unsigned hs=0; for (int i=0;i<256;i++) hs = hs*31+h[i]; printf("hist %08x %u %u\n", hs, h[0], h[255]);
  float *f; double *dd; int *iv; unsigned *u; unsigned long long *ull; __half2 *h2; __half *h1;
  cudaMallocManaged(&f, 16); cudaMallocManaged(&dd, 8); cudaMallocManaged(&iv, 8); cudaMallocManaged(&u, 32); cudaMallocManaged(&ull, 16); cudaMallocManaged(&h2, 4); cudaMallocManaged(&h1, 4);
  f[0]=0; f[1]=0; f[2]=0; dd[0]=0; iv[0]=-1000; iv[1]=1000; for(int i=0;i<8;i++) u[i]=0; u[4]=~0u; ull[0]=ull[1]=0; *h2=__floats2half2_rn(0,0); *h1=__float2half(0);
  atom<<<40,96>>>(f, dd, iv, u, ull, h2, h1); cudaDeviceSynchronize();
  printf("atom f %a %a %a d %a iv %d %d u %u %u %08x %08x %08x %u/%u ull %llx %llx h2 %08x h1 %04x\n", f[0], f[1], f[2], dd[0], iv[0], iv[1], u[0], u[1], u[2], u[3], u[4], u[5] != 0, u[7], ull[0], ull[1], *(unsigned*)h2, *(unsigned short*)h1);
  int N=256; float *A,*B,*C; cudaMallocManaged(&A,N*N*4); cudaMallocManaged(&B,N*N*4); cudaMallocManaged(&C,N*N*4);
  for (int i=0;i<N*N;i++){ A[i]=((i*37)%113)/113.f-0.5f; B[i]=((i*91)%127)/127.f-0.3f; }
  mm<16><<<dim3(N/16,N/16),dim3(16,16)>>>(A,B,C,N); cudaDeviceSynchronize();
  unsigned cs=0; for (int i=0;i<N*N;i++) cs = cs*31 + *(unsigned*)&C[i]; printf("mm %08x %a\n", cs, C[12345]);
  float *T; cudaMallocManaged(&T, 300*200*4); float *I; cudaMallocManaged(&I, 300*200*4); for (int i=0;i<300*200;i++) I[i]=i*0.5f;
  transpose<<<dim3(10,7),dim3(32,8)>>>(I,T,300,200); cudaDeviceSynchronize(); printf("tr %g %g %g\n", T[1], T[200], T[300*200-1]);
  int *a; cudaMallocManaged(&a, 4096*4); for (int i=0;i<4096;i++) a[i]=(i*7919)%4099;
  bitonic<<<4,1024,4096>>>(a); cudaDeviceSynchronize(); printf("bitonic %d %d %d %d\n", a[0], a[1023], a[1024], a[4095]);
  int *vin; unsigned *vo; cudaMallocManaged(&vin, 1024*4); cudaMallocManaged(&vo, 1024*4); for (int i=0;i<1024;i++) vin[i]=(i*7919)%1013;
  vote<<<8,128>>>(vin, vo); cudaDeviceSynchronize(); unsigned vs=0; for (int i=0;i<1024;i++) vs=vs*33+vo[i]; printf("vote %08x %08x\n", vs, vo[77]);
  cudaStream_t st[2]; cudaEvent_t e0,e1; cudaStreamCreate(&st[0]); cudaStreamCreate(&st[1]); cudaEventCreate(&e0); cudaEventCreate(&e1);
  float *pd; size_t pitch; cudaMallocPitch(&pd, &pitch, 100*4, 50); float hb[100*50]; for (int i=0;i<5000;i++) hb[i]=i;
  cudaMemcpy2DAsync(pd, pitch, hb, 400, 400, 50, cudaMemcpyHostToDevice, st[0]); cudaEventRecord(e0, st[0]); cudaStreamWaitEvent(st[1], e0, 0);
  float hb2[100*50]; cudaMemcpy2DAsync(hb2, 400, pd, pitch, 400, 50, cudaMemcpyDeviceToHost, st[1]); cudaEventRecord(e1, st[1]); cudaEventSynchronize(e1);
  printf("pitch %zu %g %g\n", pitch, hb2[0], hb2[4999]);
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
