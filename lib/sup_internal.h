/* sup_internal.h: what the sup_ files share and students do not call.
 *
 * Every sup_ function that fails records one sentence that says what to fix;
 * sup_error() (labsup.h) hands it back. sup_tensor.c owns the buffer, the other
 * sup_ files fill it through sup_set_error().
 */
#ifndef SUP_INTERNAL_H
#define SUP_INTERNAL_H

/* Record the reason for a failure, printf-style; sup_error() returns it until
   the next failure. Long messages are cut to fit the buffer (1 KiB). */
void sup_set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* SUP_INTERNAL_H */
