/* dispatch.h: the child side of a test call. child_main.c reads and checks the
 * request, places every buffer in its own guarded mapping (a write past the end
 * faults), then calls child_dispatch(), which each lab implements once in
 * labNN_dispatch.c by unpacking the call into the student's function. */
#ifndef CHILD_DISPATCH_H
#define CHILD_DISPATCH_H

#include "../base/protocol.h"

/* Call the student's function for call->fn with the call's ints, reals and
   buffers (already in memory). Returns the function's status, or sets
   *no_such_call = 1 when fn or the argument counts and kinds do not match. */
int child_dispatch(const proto_call *call, int *no_such_call);

/* True when call has exactly n_ints ints, n_reals reals and the given buffer
   kinds in order (kinds is a string of 'f' F32, 'i' I32, 'u' U8). */
int child_call_shape(const proto_call *call, int n_ints, int n_reals, const char *kinds);

/* The product of sizes, negative ones counted as 0 (a contract-breaking call
   still gets buffers, just no elements it may touch). */
int64_t child_elems(int64_t a, int64_t b, int64_t c);

/* True when buffer b holds at least n elements (n < 0 counts as 0): a dispatch
   refuses any buffer smaller than the call's sizes imply. */
int child_holds(const proto_buf *b, int64_t n);

#endif
