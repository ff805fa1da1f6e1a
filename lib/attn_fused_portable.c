/* attn_fused_portable.c: the fused attention kernel for any CPU, 4 floats a
 * vector: SSE2 on every x86-64, NEON (with fused multiply-add) on arm64, and
 * whatever the compiler makes of a 16-byte vector elsewhere. */
#include "attn_fused.h"

#define VW 4
typedef float vf __attribute__((vector_size(16)));
typedef int vi __attribute__((vector_size(16)));
#if defined(__aarch64__)
#include <arm_neon.h>
#define VFMA(a, b, c) ((vf)vfmaq_f32((float32x4_t)(c), (float32x4_t)(a), (float32x4_t)(b)))
#else
#define VFMA(a, b, c) ((a) * (b) + (c))
#endif
#define VBCAST(x) ((vf){(x), (x), (x), (x)})
#if defined(__x86_64__)
#define VREG(v) __asm__("" : "+x"(v))
#elif defined(__aarch64__)
#define VREG(v) __asm__("" : "+w"(v))
#else
#define VREG(v) ((void)0)
#endif
/* a where a > b, else b (NaN in a gives b), as a blend of bit masks */
#define VMAX(a, b) ((vf)(((vi)(a) & ((a) > (b))) | ((vi)(b) & ~((a) > (b)))))

static inline float vhmax(vf x)
{
    float a = x[0] > x[1] ? x[0] : x[1], b = x[2] > x[3] ? x[2] : x[3];
    return a > b ? a : b;
}

static inline float vhsum(vf x)
{
    return (x[0] + x[1]) + (x[2] + x[3]);
}
#define KERNEL attn_fused_block_portable
#include "attn_fused_kernel.h"
