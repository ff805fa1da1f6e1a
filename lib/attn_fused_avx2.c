/* attn_fused_avx2.c: the fused attention kernel for AVX2 with FMA (8 floats a
 * vector). The Makefile compiles this file alone with -mavx2 -mfma; it only
 * runs when __builtin_cpu_supports says the CPU has both. */
#include "attn_fused.h"

#if defined(__x86_64__) && defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>

#define VW 8
typedef __m256 vf;
typedef int vi __attribute__((vector_size(32)));
#define VFMA(a, b, c) _mm256_fmadd_ps(a, b, c)
#define VBCAST(x) _mm256_set1_ps(x)
#define VREG(v) __asm__("" : "+x"(v))
#define VMAX(a, b) _mm256_max_ps(a, b)

/* Halve the vector three times: 8 lanes, 4, 2, 1. */
static inline float vhmax(vf x)
{
    __m128 h = _mm_max_ps(_mm256_castps256_ps128(x), _mm256_extractf128_ps(x, 1));
    h = _mm_max_ps(h, _mm_movehl_ps(h, h));
    return _mm_cvtss_f32(_mm_max_ss(h, _mm_shuffle_ps(h, h, 1)));
}

static inline float vhsum(vf x)
{
    __m128 h = _mm_add_ps(_mm256_castps256_ps128(x), _mm256_extractf128_ps(x, 1));
    h = _mm_add_ps(h, _mm_movehl_ps(h, h));
    return _mm_cvtss_f32(_mm_add_ss(h, _mm_shuffle_ps(h, h, 1)));
}
#define KERNEL attn_fused_block_avx2
#include "attn_fused_kernel.h"

#else
/* Never called: the dispatcher only picks this kernel on x86-64 with AVX2. */
long attn_fused_block_avx2(fused_block *fb, const float *kt, const float *v)
{
    return attn_fused_block_portable(fb, kt, v);
}
#endif
