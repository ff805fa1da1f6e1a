/* dispatch.h: the child side of a test call. stub_main.c reads and checks the
 * request, places every buffer in its own guarded mapping (a write past the end
 * faults), then calls stub_dispatch(), which each lab implements once in
 * labNN_dispatch.c by unpacking the call into the student's function. */
#ifndef STUB_DISPATCH_H
#define STUB_DISPATCH_H

#include "../protocol.h"

/* Call the student's function for call->fn with the call's ints, reals and
   buffers (already in memory). Returns the function's status, or sets
   *no_such_call = 1 when fn or the argument counts and kinds do not match. */
int stub_dispatch(const proto_call *call, int *no_such_call);

/* True when call has exactly n_ints ints, n_reals reals and the given buffer
   kinds in order (kinds is a string of 'f' F32, 'i' I32, 'u' U8). */
int stub_call_shape(const proto_call *call, int n_ints, int n_reals, const char *kinds);

#endif
