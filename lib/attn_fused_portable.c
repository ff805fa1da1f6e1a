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
#define KERNEL attn_fused_block_portable
#include "attn_fused_kernel.h"
