// Feature group 6.2: memory spaces and initialisers.
__device__ int g_scalar = 5;
__device__ float g_arr[4] = { 1.0f, 2.0f, -3.5f, 0.125f };
__device__ double g_dbl = 3.25;
__device__ int *g_ptr = &g_scalar;
__device__ float *g_ptr_arr = &g_arr[2];
static __device__ int s_static_dev = 9;
__device__ int g_uninit[64];
__device__ long long g_ll = -1234567890123LL;
__device__ char g_chars[10] = "abc";
__device__ short g_2d[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };
struct S { int a; float b; char c; double d; };
__device__ S g_struct = { 1, 2.5f, 'x', 7.0 };
__device__ S g_struct_arr[2] = { { 1, 1.0f, 'a', 1.0 }, { 2, 2.0f, 'b', 2.0 } };
__device__ int *g_ptr_tab[2] = { &g_scalar, &g_uninit[3] };

__device__ __noinline__ int fa(int x) { return x + 1; }
__device__ __noinline__ int fb(int x) { return x - 1; }
__device__ int (*g_fn_tab[2])(int) = { fa, fb };

__constant__ float c_coef[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
__constant__ int c_scalar = 17;
__constant__ char c_str[] = "hello";
__constant__ float c_uninit[64];
__constant__ double c_dbl[2] = { 1.5, -2.25 };

__managed__ int m_val = 7;
__managed__ unsigned m_counter;

__global__ void k_globals(int *out, float *fout, double *dout)
{
    int i = threadIdx.x;
    out[i] = g_scalar + *g_ptr + s_static_dev + g_uninit[i & 63] + (int)g_ll + g_chars[i % 10]
             + g_2d[i & 1][i % 3] + g_struct.a + g_struct_arr[i & 1].c + *g_ptr_tab[i & 1]
             + g_fn_tab[i & 1](i);
    fout[i] = g_arr[i & 3] + *g_ptr_arr + g_struct.b;
    dout[i] = g_dbl + g_struct_arr[i & 1].d;
    g_uninit[i & 63] = i;
    g_scalar = i;
}

__global__ void k_const(float *out, char *sout, double *dout)
{
    int i = threadIdx.x;
    out[i] = c_coef[i & 7] * c_scalar + c_uninit[i & 63];
    sout[i] = c_str[i % 6];
    dout[i] = c_dbl[i & 1];
}

__global__ void k_managed(int *out)
{
    out[threadIdx.x] = m_val;
    atomicAdd(&m_counter, 1u);
}

__global__ void k_static_shared(float *a)
{
    __shared__ float tile[256];
    __shared__ int counter;
    __shared__ double dtile[32];
    int i = threadIdx.x;
    if (i == 0) counter = 0;
    tile[i] = a[i];
    dtile[i & 31] = a[i] * 2.0;
    __syncthreads();
    atomicAdd(&counter, 1);
    __syncthreads();
    a[i] = tile[255 - i] + counter + (float)dtile[31 - (i & 31)];
}

extern __shared__ float dyn[];
extern __shared__ double dyn2[];

__global__ void k_dyn_shared(float *a, int n)
{
    int i = threadIdx.x;
    dyn[i] = a[i];
    __syncthreads();
    a[i] = dyn[n - 1 - i] + (float)dyn2[0];
    unsigned sz;
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(sz));
    if (i == 0) a[n] = (float)sz;
}

__global__ void k_restrict(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * 2.0f + in[(i + 1) % n];
}

__global__ void k_local_array(float *out, int k)
{
    float arr[32];
    for (int j = 0; j < 32; j++) arr[j] = out[j] * j;
    out[threadIdx.x] = arr[k & 31] + arr[(k + threadIdx.x) & 31];
}

__global__ void k_volatile(volatile int *flag, int *out)
{
    flag[threadIdx.x] = 1;
    while (flag[0] == 0) { }
    out[threadIdx.x] = flag[1];
}

__global__ void k_local_struct(S *out, int k)
{
    S loc[4];
    for (int j = 0; j < 4; j++) { loc[j].a = j; loc[j].b = j * 0.5f; loc[j].c = (char)j; loc[j].d = j * 0.25; }
    out[threadIdx.x] = loc[k & 3];
}
