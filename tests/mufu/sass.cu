// sass.cu: one kernel per PTX form whose SASS record.sh prints, to show what ptxas builds
// around the multi-function unit.
#define K(name, insn, T, C) \
    extern "C" __global__ void name(T *p) { T r; asm volatile(insn " %0, %1;" : "=" C(r) : C(p[threadIdx.x])); p[threadIdx.x] = r; }
K(rcp_f32, "rcp.approx.f32", float, "f")
K(rsqrt_f32, "rsqrt.approx.f32", float, "f")
K(sqrt_f32, "sqrt.approx.f32", float, "f")
K(lg2_f32, "lg2.approx.f32", float, "f")
K(ex2_f32, "ex2.approx.f32", float, "f")
K(rsqrt_f64, "rsqrt.approx.f64", double, "d")
K(tanh_f32, "tanh.approx.f32", float, "f")
#define K2(name, insn) \
    extern "C" __global__ void name(float *p) { float r; asm volatile(insn " %0, %1, %2;" : "=f"(r) : "f"(p[threadIdx.x]), "f"(p[threadIdx.x + 32])); p[threadIdx.x] = r; }
K2(div_full_f32, "div.full.f32")
K2(div_full_ftz_f32, "div.full.ftz.f32")
K2(div_approx_f32, "div.approx.f32")
