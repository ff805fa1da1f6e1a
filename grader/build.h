/* build.h: turn one student source file into a sandboxable test executable.
 *
 * Steps, each a verdict when it fails:
 *   1. headers: every #include in the source (comments stripped) must be in the
 *      rubric's allowed_headers               -> GR_FORBIDDEN_CALL
 *   2. compile the file alone, copied into a private work dir, against the
 *      pristine contract header from the tree  -> GR_COMPILE_ERROR (first errors, trimmed)
 *   3. external symbols (nm -u of the object) must be in allowed_symbols or
 *      defined by the contract/support code   -> GR_FORBIDDEN_CALL (names them)
 *   4. link statically with the protocol stub, the lab's dispatch and the support
 *      RNG/tensor objects (never libattn), wrapping malloc/calloc/realloc/free
 *      so the stub can enforce the memory limit -> GR_COMPILE_ERROR
 */
#ifndef GR_BUILD_H
#define GR_BUILD_H

#include "result.h"
#include "rubric.h"

typedef struct gr_paths {
    const char *root;        /* the attnlab tree: labs/, lib/, data/ */
    const char *stub_dir;    /* prebuilt stub objects: build/grader/stub */
    const char *work_dir;    /* private scratch dir for this grading run */
} gr_paths;

typedef struct gr_build {
    int ok;                  /* 1: exe is ready */
    gr_verdict verdict;      /* when !ok: GR_COMPILE_ERROR or GR_FORBIDDEN_CALL */
    char *message;           /* when !ok: what to fix, one paragraph */
    char *log;               /* trimmed compiler output, or NULL */
    char *exe;               /* path of the test executable */
    double compile_seconds;
} gr_build;

/* Build lab r from the student's source file src. Always fills out; returns 0 when
   the build ran (ok or not), -1 when the grader itself failed (err says why). */
int gr_build_lab(const gr_rubric *r, const char *lab_dir_name, const char *src,
                 const gr_paths *paths, gr_build *out, char *err, size_t errlen);

void gr_build_free(gr_build *b);

#endif
