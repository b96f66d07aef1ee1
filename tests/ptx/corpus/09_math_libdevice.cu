// Feature group 6.9: standard math library (libdevice); also compiled with -use_fast_math.
__global__ void k_mathf(const float *a, const float *b, float *o)
{
    int i = threadIdx.x; float x = a[i], y = b[i];
    float r = 0;
    r += sinf(x) + cosf(x) + tanf(x) + asinf(x) + acosf(x) + atanf(x) + atan2f(x, y);
    r += sinhf(x) + coshf(x) + tanhf(x) + asinhf(x) + acoshf(y) + atanhf(x);
    r += expf(x) + exp2f(x) + exp10f(x) + expm1f(x) + logf(y) + log2f(y) + log10f(y) + log1pf(y);
    r += powf(x, y) + sqrtf(y) + cbrtf(x) + rsqrtf(y) + hypotf(x, y) + rhypotf(x, y);
    r += erff(x) + erfcf(x) + erfinvf(x) + erfcinvf(y) + lgammaf(x) + tgammaf(x);
    r += j0f(x) + y0f(y) + normcdff(x) + normcdfinvf(y) + sinpif(x) + cospif(x);
    r += fmodf(x, y) + remainderf(x, y) + x / y + 1.0f / y + logbf(x) + scalbnf(x, 3);
    float s, c; sincosf(x, &s, &c); r += s * c;
    sincospif(y, &s, &c); r += s - c;
    o[i] = r;
}
__global__ void k_math(const double *a, const double *b, double *o)
{
    int i = threadIdx.x; double x = a[i], y = b[i];
    double r = 0;
    r += sin(x) + cos(x) + tan(x) + asin(x) + acos(x) + atan(x) + atan2(x, y);
    r += sinh(x) + cosh(x) + tanh(x) + exp(x) + exp2(x) + exp10(x) + expm1(x);
    r += log(y) + log2(y) + log10(y) + log1p(y) + pow(x, y) + sqrt(y) + cbrt(x) + rsqrt(y);
    r += erf(x) + erfc(x) + lgamma(x) + tgamma(x) + hypot(x, y) + fmod(x, y) + x / y;
    double s, c; sincos(x, &s, &c); r += s * c;
    o[i] = r;
}
__global__ void k_fast_expr(const float *a, const float *b, float *o)
{
    int i = threadIdx.x; float x = a[i], y = b[i];
    o[i] = sinf(x) + expf(x) + logf(y) + x / y + sqrtf(y) + 1.0f / x + x * y + fmaf(x, y, 1.0f);
}
