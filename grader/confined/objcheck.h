/* objcheck.h: what a student's compiled object and test program may contain.
 *
 * Read from the ELF files themselves (never from nm's or readelf's text):
 * the object's undefined symbols (each must be a function the lab allows),
 * its indirect functions (they run before any check), its sections (only
 * those plain C code lives in: no LTO, loader or note sections), and the
 * linked program's loading (static, no interpreter).
 *
 * What these checks refuse (syscall(), exec, fork, mmap ...) they refuse early
 * and by name, so a student reads why; they are not what holds a raw system
 * call. Code can reach a `syscall` instruction without naming anything: glibc's
 * own, inside a function the link holds anyway, found by scanning the
 * program's code and called through a pointer. The line that holds is the
 * sandbox's seccomp allow-list (allowlist.h), installed before exec, which
 * kills the process at any system call it does not allow, wherever in the
 * program the instruction sits.
 */
#ifndef GR_OBJCHECK_H
#define GR_OBJCHECK_H

#include "base/rubric.h"

typedef struct gr_obj_facts {
    char **undef;          /* undefined global/weak symbols */
    int n_undef;
    char *ifunc;           /* the first GNU indirect function defined, or NULL */
    char *bad_section;     /* the first section plain C does not make, or NULL */
    unsigned long long static_bytes;   /* code and data the object brings (SHF_ALLOC sections) */
} gr_obj_facts;

/* Read an ELF64 relocatable object (a regular file, links not followed). 0, or
   -1 if it is not one. */
int gr_objcheck_read(const char *path, gr_obj_facts *o);
void gr_objcheck_free(gr_obj_facts *o);

/* Is the external symbol sym allowed for this lab (rubric r)? */
int gr_objcheck_symbol_allowed(const gr_rubric *r, const char *sym);

/* Why a symbol is refused, as the end of a sentence, or NULL when there is no
   particular reason beyond the lab's list. */
const char *gr_objcheck_symbol_reason(const char *sym);

/* Check a linked test program: an ELF64 executable, statically linked, with no
   interpreter and no dynamic section, a stack marked not executable, no segment
   both writable and executable, and none of the functions no lab needs
   (syscall, exec*, fork ...) in its link. 0 with *writable the bytes its
   writable segments take in memory (alignment padding included) and its
   thread-local data, or -1 with why. */
int gr_objcheck_exe(const char *path, unsigned long long *writable, char *why, size_t whylen);

#endif
