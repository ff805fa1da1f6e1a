/* attn_fused_avx512.c: the fused attention kernel for AVX-512F (16 floats a
 * vector). The Makefile compiles this file alone with -mavx512f; it only runs
 * when __builtin_cpu_supports says the CPU has AVX-512F. */
#include "attn_fused.h"

#if defined(__x86_64__) && defined(__AVX512F__)
#include <immintrin.h>

#define VW 16
typedef __m512 vf;
typedef int vi __attribute__((vector_size(64)));
#define VFMA(a, b, c) _mm512_fmadd_ps(a, b, c)
#define VBCAST(x) _mm512_set1_ps(x)
#define VREG(v) __asm__("" : "+v"(v))
#define VMAX(a, b) _mm512_max_ps(a, b)

static inline float vhmax(vf x)
{
    return _mm512_reduce_max_ps(x);
}

static inline float vhsum(vf x)
{
    return _mm512_reduce_add_ps(x);
}
#define KERNEL attn_fused_block_avx512
#include "attn_fused_kernel.h"

#else
/* Never called: the dispatcher only picks this kernel on x86-64 with AVX-512F. */
long attn_fused_block_avx512(fused_block *fb, const float *kt, const float *v)
{
    return attn_fused_block_portable(fb, kt, v);
}
#endif
