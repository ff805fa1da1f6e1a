/* fuzz_tensor.c: the YAML tensor reader (lib/sup_yaml.c) on any bytes.
 *
 * Students and instructors write tensor files by hand, so the reader must turn
 * every mistake into a sentence and never crash. sup_yaml_read_tensor takes a
 * path, so the input is written to a file in a private temporary folder first.
 * The tensor asked for is "Q". When it loads, its shape must account for its
 * size, and writing it back with sup_yaml_write_tensors and reading that must
 * give the same shape and the same values (nan for nan).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "labsup.h"
#include "fuzz.h"

static char dir[64], in_path[96], out_path[96];

static void remove_dir(void)
{
    unlink(in_path);
    unlink(out_path);
    rmdir(dir);
}

/* Make the private folder once per process; it goes at exit. */
static void make_dir(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/attnlab-fuzz-XXXXXX",
             tmp && *tmp && strlen(tmp) < 32 ? tmp : "/tmp");
    fuzz_check(mkdtemp(dir) != NULL, "cannot make a temporary folder");
    snprintf(in_path, sizeof in_path, "%s/in.yaml", dir);
    snprintf(out_path, sizeof out_path, "%s/out.yaml", dir);
    atexit(remove_dir);
}

/* Do a and b hold the same shape and values, nan matching nan? */
static int same_tensor(const sup_tensor *a, const sup_tensor *b)
{
    if (a->ndim != b->ndim || a->size != b->size)
        return 0;
    for (int k = 0; k < a->ndim; k++)
        if (a->shape[k] != b->shape[k])
            return 0;
    for (long n = 0; n < a->size; n++)
        if (!(a->data[n] == b->data[n] || (isnan(a->data[n]) && isnan(b->data[n]))))
            return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir[0])
        make_dir();
    FILE *f = fopen(in_path, "wb");
    fuzz_check(f != NULL, "cannot write the input file");
    fuzz_check(fwrite(data, 1, size, f) == size && fclose(f) == 0,
               "cannot write the input file");

    sup_tensor *t = sup_yaml_read_tensor(in_path, "Q");
    if (!t) {
        fuzz_check(sup_error()[0] != '\0', "a rejected file has no error message");
        return 0;
    }
    long size_from_shape = 1;
    for (int k = 0; k < t->ndim; k++)
        size_from_shape *= t->shape[k];
    fuzz_check(t->ndim >= 1 && t->ndim <= SUP_MAX_DIMS && t->size == size_from_shape,
               "a loaded tensor's shape does not match its size");

    const char *names[1] = {"Q"};
    const sup_tensor *tensors[1] = {t};
    fuzz_check(sup_yaml_write_tensors(out_path, names, tensors, 1) == 0,
               "a loaded tensor cannot be written back");
    sup_tensor *back = sup_yaml_read_tensor(out_path, "Q");
    fuzz_check(back != NULL, "a written tensor does not read back");
    fuzz_check(same_tensor(t, back), "a tensor read back differs from the one written");
    sup_tensor_free(back);
    sup_tensor_free(t);
    return 0;
}
