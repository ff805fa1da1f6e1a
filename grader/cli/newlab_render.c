/* newlab_render.c: the templates of data/newlab/ expanded for a new lab (see
 * newlab.h). The lab's keys (@LAB@, @DIR@, ...) are plain values; each
 * function's keys are its names, points and sections, and the C the grader's
 * module and the visible test need to call it: the sizes read, the arrays
 * added in the contract's order, the inputs drawn, the ints and reals sent. */
#include "cli/newlab.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rubric.h"
#include "base/util.h"

#define MAX_KEYS 48

typedef struct keys {
    const char *name[MAX_KEYS];
    char *value[MAX_KEYS];
    int n;
} keys;

static void put(keys *k, const char *name, char *value)
{
    k->name[k->n] = name;
    k->value[k->n++] = value;
}

static void keys_free(keys *k)
{
    for (int i = 0; i < k->n; i++)
        free(k->value[i]);
    k->n = 0;
}

/* ---- what each argument is in the generated code ------------------------------- */

static int is_array(const nl_arg *a)
{
    return a->kind != 'n' && a->kind != 'r';
}

/* The value of f's int argument a in a test of inputs fixed (else random). */
static int size_value(const nl_fn *f, const nl_arg *a, int fixed)
{
    static const int random_sizes[] = {16, 33, 8, 5};
    int j = 0;
    for (int i = 0; i < f->n_args && &f->args[i] != a; i++)
        j += f->args[i].kind == 'n';
    return fixed ? 3 + j % 3 : random_sizes[j % 4];
}

/* "(long)rows * n": how many elements array a holds. */
static void count_expr(gr_strbuf *b, const nl_arg *a)
{
    for (int k = 0; k < a->n_dims; k++)
        gr_sb_printf(b, "%s%s", k ? " * " : "(long)", a->dims[k]);
}

static const char *wire_type(const nl_arg *a)
{
    return a->kind == 'f' ? "float" : a->kind == 'i' ? "int32_t" : "uint8_t";
}

static const char *wire_adder(const nl_arg *a)
{
    return a->kind == 'f' ? "gr_case_add_f32" : a->kind == 'i' ? "gr_case_add_i32" : "gr_case_add_u8";
}

/* ---- the grader module's code of one function ---------------------------------------- */

/* The sizes and reals a generator reads from its test, with gr_test_int or
   gr_rubric_test_param: each is a course name or one of the lab's param_names. */
static char *mod_sizes(const nl_fn *f)
{
    gr_strbuf b = {0}, reads = {0};
    for (int i = 0; i < f->n_args; i++) {
        const nl_arg *a = &f->args[i];
        if (a->kind == 'n') {
            gr_sb_printf(&b, "    int %s;\n", a->name);
            gr_sb_printf(&reads, "%s        gr_test_int(test, \"%s\", %d, 1, 1024, &%s, err, errlen) != 0",
                         reads.len ? " ||\n" : "", a->name, size_value(f, a, 1), a->name);
        } else if (a->kind == 'r') {
            gr_sb_printf(&b, "    double %s = gr_rubric_test_param(test, \"%s\", 1.0);\n",
                         a->name, a->name);
        }
    }
    if (reads.len) {
        gr_sb_printf(&b, "    if (%s)\n        return -1;\n", reads.s + 8);
    }
    free(reads.s);
    return gr_sb_take(&b);
}

/* The element counts of the arrays, checked against GR_MAX_ELEMS. */
static char *mod_counts(const nl_fn *f)
{
    gr_strbuf b = {0};
    gr_sb_append(&b, "    const long count[] = {");
    int n = 0;
    for (int i = 0; i < f->n_args; i++)
        if (is_array(&f->args[i])) {
            gr_sb_append(&b, n++ ? ", " : " ");
            count_expr(&b, &f->args[i]);
        }
    gr_sb_append(&b, " };\n"
                 "    for (int k = 0; k < (int)(sizeof count / sizeof count[0]); k++)\n"
                 "        if (count[k] > GR_MAX_ELEMS) {\n"
                 "            snprintf(err, errlen, \"test %s: sizes too large (at most %ld \"\n"
                 "                     \"elements an array)\", test->name, GR_MAX_ELEMS);\n"
                 "            return -1;\n"
                 "        }\n");
    return gr_sb_take(&b);
}

/* The arrays added in the contract's order; the inputs' pointers kept. */
static char *mod_buffers(const nl_fn *f, const char *call)
{
    gr_strbuf b = {0};
    gr_sb_printf(&b, "    gc->call.fn = %s;\n", call);
    int n = 0;
    for (int i = 0; i < f->n_args; i++) {
        const nl_arg *a = &f->args[i];
        if (!is_array(a))
            continue;
        if (a->out)
            gr_sb_printf(&b, "    %s(gc, PROTO_OUT, count[%d]);\n", wire_adder(a), n);
        else
            gr_sb_printf(&b, "    %s *%s = %s(gc, PROTO_IN, count[%d]);\n", wire_type(a), a->name,
                         wire_adder(a), n);
        n++;
    }
    return gr_sb_take(&b);
}

/* The inputs drawn from rng: normals, small whole numbers, 0/1 bytes. */
static char *mod_inputs(const nl_fn *f)
{
    gr_strbuf b = {0};
    int n = 0;
    for (int i = 0; i < f->n_args; i++) {
        const nl_arg *a = &f->args[i];
        if (!is_array(a))
            continue;
        if (!a->out && a->kind == 'f')
            gr_sb_printf(&b, "    gr_fill_normal(&rng, %s, count[%d], 1.0);\n", a->name, n);
        else if (!a->out)
            gr_sb_printf(&b, "    for (long k = 0; k < count[%d]; k++)\n"
                         "        %s[k] = (%s)(sup_rng_u64(&rng) %% %d);\n",
                         n, a->name, wire_type(a), a->kind == 'i' ? 4 : 2);
        n++;
    }
    return gr_sb_take(&b);
}

/* Names and shapes for messages, the ints and reals, and the description. */
static char *mod_call_rest(const nl_fn *f)
{
    gr_strbuf b = {0}, ints = {0}, fmt = {0}, vals = {0};
    gr_sb_append(&b, "    gr_case_set_names(gc, ");
    int n = 0;
    for (int i = 0; i < f->n_args; i++)
        if (is_array(&f->args[i]))
            gr_sb_printf(&b, "\"%s\", ", f->args[i].name);
    gr_sb_append(&b, "NULL);\n");
    for (int i = 0; i < f->n_args; i++) {
        const nl_arg *a = &f->args[i];
        if (is_array(a)) {
            const char *d0 = a->dims[0], *d1 = a->dims[1], *d2 = a->dims[2], *d3 = a->dims[3];
            if (a->n_dims == 2)
                gr_sb_printf(&b, "    gr_case_set_shape2(gc, %d, %s, %s);\n", n, d0, d1);
            else if (a->n_dims == 3)
                gr_sb_printf(&b, "    gr_case_set_shape(gc, %d, %s, %s, %s);\n", n, d0, d1, d2);
            else if (a->n_dims == 4)
                gr_sb_printf(&b, "    gr_case_set_shape4(gc, %d, %s, %s, %s, %s);\n", n, d0, d1, d2, d3);
            n++;
            gr_sb_printf(&fmt, "%s%s", i ? ", " : "", a->name);
            continue;
        }
        gr_sb_printf(&fmt, "%s%s=%s", i ? ", " : "", a->name, a->kind == 'n' ? "%d" : "%g");
        gr_sb_printf(&vals, ", %s", a->name);
        if (a->kind == 'n')
            gr_sb_printf(&ints, "%s%s", ints.len ? ", " : "", a->name);
    }
    if (ints.len)
        gr_sb_printf(&b, "    GR_CASE_ADD_INTS(gc, %s);\n", ints.s);
    for (int i = 0; i < f->n_args; i++)
        if (f->args[i].kind == 'r')
            gr_sb_printf(&b, "    gr_case_add_real(gc, %s);\n", f->args[i].name);
    gr_sb_printf(&b, "    snprintf(gc->describe, sizeof gc->describe, \"%s(%s)\"%s);\n", f->name,
                 fmt.s ? fmt.s : "", vals.s ? vals.s : "");
    free(ints.s);
    free(fmt.s);
    free(vals.s);
    return gr_sb_take(&b);
}

/* The expected function's view of a case: one local per argument. */
static char *mod_expect_locals(const nl_fn *f)
{
    gr_strbuf b = {0};
    int buf = 0, in = 0, re = 0;
    for (int i = 0; i < f->n_args; i++) {
        const nl_arg *a = &f->args[i];
        if (is_array(a)) {
            gr_sb_printf(&b, a->out ? "    %s *%s = gr_case_expect(gc, %d);   /* (" :
                                      "    const %s *%s = gc->call.bufs[%d].data;   /* (",
                         wire_type(a), a->name, buf++);
            for (int k = 0; k < a->n_dims; k++)
                gr_sb_printf(&b, "%s%s", k ? ", " : "", a->dims[k]);
            gr_sb_append(&b, ") */\n");
        } else if (a->kind == 'n') {
            gr_sb_printf(&b, "    int %s = (int)gc->call.ints[%d];\n", a->name, in++);
        } else {
            gr_sb_printf(&b, "    %s %s = (%s)gc->call.reals[%d];\n", a->type, a->name, a->type, re++);
        }
    }
    return gr_sb_take(&b);
}

/* ---- the visible test's code of one function ------------------------------------------ */

/* Sizes, arrays (from calloc), inputs drawn, outputs poisoned. */
static char *test_setup(const nl_fn *f)
{
    gr_strbuf b = {0};
    for (int i = 0; i < f->n_args; i++) {
        const nl_arg *a = &f->args[i];
        if (a->kind == 'n')
            gr_sb_printf(&b, "    const %s %s = %d;\n", a->type, a->name, size_value(f, a, 1));
        else if (a->kind == 'r')
            gr_sb_printf(&b, "    const %s %s = 1.0;\n", a->type, a->name);
    }
    gr_sb_append(&b, "    sup_rng rng;\n    sup_rng_seed(&rng, 1);\n");
    for (int i = 0; i < f->n_args; i++) {
        const nl_arg *a = &f->args[i];
        if (!is_array(a))
            continue;
        gr_strbuf n = {0};
        count_expr(&n, a);
        gr_sb_printf(&b, "    %s *%s = calloc((size_t)(%s), sizeof *%s);\n"
                     "    ck_assert_ptr_nonnull(%s);\n", a->type, a->name, n.s, a->name, a->name);
        if (a->out && a->kind == 'f')
            gr_sb_printf(&b, "    lc_poison(%s, %s);\n", a->name, n.s);
        else if (a->out && a->kind == 'i')
            gr_sb_printf(&b, "    for (long k = 0; k < %s; k++)\n        %s[k] = -12345;\n", n.s, a->name);
        else if (a->kind == 'f')
            gr_sb_printf(&b, "    sup_rng_fill_normal(&rng, %s, %s);\n", a->name, n.s);
        else if (!a->out)
            gr_sb_printf(&b, "    for (long k = 0; k < %s; k++)\n        %s[k] = (%s)(k %% %d);\n",
                         n.s, a->name, a->type, a->kind == 'i' ? 4 : 2);
        free(n.s);
    }
    return gr_sb_take(&b);
}

/* Every float or int output written (no poison left, no NaN); arrays freed. */
static char *test_check(const nl_fn *f)
{
    gr_strbuf b = {0};
    for (int i = 0; i < f->n_args; i++) {
        const nl_arg *a = &f->args[i];
        if (!a->out || a->kind == 'u')
            continue;
        gr_strbuf n = {0};
        count_expr(&n, a);
        if (a->kind == 'f')
            gr_sb_printf(&b, "    for (long k = 0; k < %s; k++)\n"
                         "        ck_assert_msg(%s[k] != LC_POISON && !isnan(%s[k]), "
                         "\"%s[%%ld] was not written\", k);\n", n.s, a->name, a->name, a->name);
        else
            gr_sb_printf(&b, "    for (long k = 0; k < %s; k++)\n"
                         "        ck_assert_msg(%s[k] != -12345, \"%s[%%ld] was not written\", k);\n",
                         n.s, a->name, a->name);
        free(n.s);
    }
    for (int i = 0; i < f->n_args; i++)
        if (is_array(&f->args[i]))
            gr_sb_printf(&b, "    free(%s);\n", f->args[i].name);
    return gr_sb_take(&b);
}

/* ---- the keys ------------------------------------------------------------------------------ */

static char *points_text(double p)
{
    return gr_xasprintf("%g", p);
}

/* "    sizes: {rows: 3, n: 4}\n" for the int arguments, or "". */
static char *rubric_sizes(const nl_fn *f, int fixed)
{
    gr_strbuf b = {0};
    for (int i = 0; i < f->n_args; i++) {
        const nl_arg *a = &f->args[i];
        if (a->kind == 'n')
            gr_sb_printf(&b, "%s%s: %d", b.len ? ", " : "    sizes: {", a->name, size_value(f, a, fixed));
    }
    if (b.len)
        gr_sb_append(&b, "}\n");
    return b.s ? gr_sb_take(&b) : gr_xstrdup("");
}

/* ---- a call the contract rejects -------------------------------------------------------- */

/* f's first int argument, or NULL: a bad-argument case makes it -1. */
static const nl_arg *first_size(const nl_fn *f)
{
    for (int i = 0; i < f->n_args; i++)
        if (f->args[i].kind == 'n')
            return &f->args[i];
    return NULL;
}

/* The module's generator of f's bad-argument kind (SHORT_bad), or "". */
static char *mod_bad(const nl_fn *f)
{
    const nl_arg *a = first_size(f);
    if (!a)
        return gr_xstrdup("");
    const char *s = f->name + 4;
    return gr_xasprintf(
        "\n/* A %s call the contract rejects: the case of test with %s = -1\n"
        "   (TODO(new-lab): each LAB_BAD_ARG case of the contract, a kind of its own). */\n"
        "static int gen_%s_bad(const gr_case_kind *kind, const gr_rubric_test *test, uint64_t seed,\n"
        "                       gr_case *gc, char *err, size_t errlen)\n"
        "{\n"
        "    if (gen_%s(kind, test, seed, gc, err, errlen) != 0)\n"
        "        return -1;\n"
        "    for (int b = 0; b < PROTO_MAX_BUFS; b++) {   /* no output is computed now */\n"
        "        free(gc->expected[b]);\n"
        "        gc->expected[b] = NULL;\n"
        "    }\n"
        "    gc->call.ints[0] = -1;   /* the first int argument */\n"
        "    snprintf(gc->describe, sizeof gc->describe, \"%s with %s = -1\");\n"
        "    return gr_case_expect_bad_arg(gc);\n"
        "}\n", f->name, a->name, s, s, f->name, a->name);
}

/* The kinds table's line of f's bad-argument kind, or "". */
static char *bad_kind(const nl_fn *f, const char *call)
{
    return first_size(f) ? gr_xasprintf("        { \"%s_bad\", gen_%s_bad, %s, GR_VARIANT_BAD },\n",
                                        f->name + 4, f->name + 4, call)
                         : gr_xstrdup("");
}

/* The rubric's test of f's bad-argument kind, or "". */
static char *bad_test(const nl_fn *f)
{
    const nl_arg *a = first_size(f);
    if (!a)
        return gr_xstrdup("");
    char *sizes = rubric_sizes(f, 1);
    char *t = gr_xasprintf(
        "  - name: %s_bad\n"
        "    kind: %s_bad                # %s = -1: LAB_BAD_ARG, outputs untouched\n"
        "    points: 0                    # TODO(new-lab): a share of the function's points\n"
        "    visibility: visible\n%s"
        "    params: {seed: 1}\n", f->name + 4, f->name + 4, a->name, sizes);
    free(sizes);
    return t;
}

/* The manifest's param_names: each int or real argument name of the lab's
   functions that is not a course name, once, or "" when there is none. */
static char *param_names_yaml(const nl_lab *lab)
{
    gr_strbuf b = {0};
    for (int i = 0; i < lab->n_fns; i++)
        for (int j = 0; j < lab->fns[i].n_args; j++) {
            const nl_arg *a = &lab->fns[i].args[j];
            char *line = gr_xasprintf("\n  %s: ", a->name);
            if (!is_array(a) && !gr_rubric_param_known(a->name) && !(b.s && strstr(b.s, line)))
                gr_sb_printf(&b, "%s%s\"%s %s; TODO(new-lab): what it does\"", b.len ? "" :
                             "# The sizes and params only this lab's generators read, each with "
                             "what it does\n# (the course's own names are the README's table).\n"
                             "param_names:", line, a->kind == 'n' ? "a size of" : "a real of",
                             lab->fns[i].name);
            free(line);
        }
    if (b.len)
        gr_sb_append(&b, "\n");
    return b.s ? gr_sb_take(&b) : gr_xstrdup("");
}

static void lab_keys(keys *k, const nl_lab *lab)
{
    put(k, "LAB", gr_xasprintf("%d", lab->lab));
    put(k, "NN", gr_xasprintf("%02d", lab->lab));
    put(k, "NAME", gr_xstrdup(lab->name));
    put(k, "DIR", gr_xstrdup(lab->dir));
    put(k, "TITLE", gr_xstrdup(lab->title));
    put(k, "POINTS", points_text(nl_points(lab)));
    put(k, "TASKS_SECTION", gr_xasprintf("%d", lab->n_fns + 3));
    put(k, "RULES_SECTION", gr_xasprintf("%d", lab->n_fns + 4));
    put(k, "GRADED_SECTION", gr_xasprintf("%d", lab->n_fns + 5));
    put(k, "CALLS_INCLUDE", gr_xasprintf("#include \"lab%02d_calls.h\"", lab->lab));
    put(k, "PARAM_NAMES", param_names_yaml(lab));
}

static void function_keys(keys *k, const nl_lab *lab, int i)
{
    const nl_fn *f = &lab->fns[i];
    const char *shortname = f->name + 4;
    char upper[NL_NAME_LEN];
    for (size_t j = 0; j <= strlen(shortname); j++)
        upper[j] = (char)toupper((unsigned char)shortname[j]);
    char *call = gr_xasprintf("LAB%02d_%s", lab->lab, upper);
    gr_strbuf args = {0}, voids = {0}, doc = {0}, yaml = {0};
    for (int j = 0; j < f->n_args; j++) {
        const nl_arg *a = &f->args[j];
        gr_sb_printf(&args, "%s%s", j ? ", " : "", a->name);
        gr_sb_printf(&voids, "%s(void)%s;", j ? " " : "", a->name);
        if (!is_array(a))
            continue;
        gr_sb_printf(&doc, "%s%s (", doc.len ? ", " : "", a->name);
        gr_sb_printf(&yaml, "%s%s: [", yaml.len ? ", " : "{", a->name);
        for (int d = 0; d < a->n_dims; d++) {
            gr_sb_printf(&doc, "%s%s", d ? ", " : "", a->dims[d]);
            gr_sb_printf(&yaml, "%s%s", d ? ", " : "", a->dims[d]);
        }
        gr_sb_append(&doc, ")");
        gr_sb_append(&yaml, "]");
    }
    gr_sb_append(&yaml, "}");
    put(k, "FN", gr_xstrdup(f->name));
    put(k, "SHORT", gr_xstrdup(shortname));
    put(k, "CALL", gr_xstrdup(call));
    put(k, "SIG", gr_xstrdup(f->signature));
    put(k, "SECTION", gr_xasprintf("%d", i + 3));   /* after objectives and background */
    put(k, "FN_POINTS", points_text(f->points));
    put(k, "VISIBLE_POINTS", points_text(f->points / 2));
    put(k, "HIDDEN_POINTS", points_text(f->points - f->points / 2));
    put(k, "ARGS", gr_sb_take(&args));
    put(k, "VOID_ARGS", gr_sb_take(&voids));
    put(k, "SHAPES_DOC", gr_sb_take(&doc));
    put(k, "SHAPES_YAML", gr_sb_take(&yaml));
    put(k, "FIXED_SIZES", rubric_sizes(f, 1));
    put(k, "RANDOM_SIZES", rubric_sizes(f, 0));
    put(k, "MOD_SIZES", mod_sizes(f));
    put(k, "MOD_COUNTS", mod_counts(f));
    put(k, "MOD_BUFFERS", mod_buffers(f, call));
    put(k, "MOD_INPUTS", mod_inputs(f));
    put(k, "MOD_CALL_REST", mod_call_rest(f));
    put(k, "MOD_EXPECT_LOCALS", mod_expect_locals(f));
    put(k, "MOD_BAD", mod_bad(f));
    put(k, "BAD_KIND", bad_kind(f, call));
    put(k, "BAD_TEST", bad_test(f));
    put(k, "TEST_SETUP", test_setup(f));
    put(k, "TEST_CHECK", test_check(f));
    free(call);
}

/* ---- expansion ---------------------------------------------------------------------------- */

static const char *lookup(const keys *a, const keys *b, const char *name, size_t len)
{
    for (const keys *k = a; k; k = k == a ? b : NULL)
        for (int i = 0; i < k->n; i++)
            if (strlen(k->name[i]) == len && strncmp(k->name[i], name, len) == 0)
                return k->value[i];
    return NULL;
}

/* A key's name at p ("@NAME@"): its length, or 0 when p starts none. */
static size_t key_at(const char *p, const char *end)
{
    if (*p != '@' || p + 1 >= end || !isupper((unsigned char)p[1]))
        return 0;
    const char *q = p + 1;
    while (q < end && (isupper((unsigned char)*q) || isdigit((unsigned char)*q) || *q == '_'))
        q++;
    return q < end && *q == '@' ? (size_t)(q - p - 1) : 0;
}

/* Expand one line [p, end) (its '\n' included) into out with keys a and b. A
   line that is one key alone, whose value is whole lines or nothing, becomes
   that value as it is. -1 with err for an unknown key. */
static int expand_line(gr_strbuf *out, const char *p, const char *end, const keys *a,
                       const keys *b, const char *where, int line, char *err, size_t errlen)
{
    const char *s = p;
    while (s < end && (*s == ' ' || *s == '\t'))
        s++;
    size_t n = key_at(s, end);
    if (n && s + n + 2 < end && s[n + 2] == '\n' && s + n + 3 == end) {
        const char *v = lookup(a, b, s + 1, n);
        if (v && (!*v || v[strlen(v) - 1] == '\n')) {
            gr_sb_append(out, v);
            return 0;
        }
    }
    for (const char *q = p; q < end;) {
        n = key_at(q, end);
        if (!n) {
            gr_sb_appendn(out, q, 1);
            q++;
            continue;
        }
        const char *v = lookup(a, b, q + 1, n);
        if (!v) {
            gr_set_err(err, errlen, "%s:%d: unknown key @%.*s@", where, line, (int)n, q + 1);
            return -1;
        }
        gr_sb_append(out, v);
        q += n + 2;
    }
    return 0;
}

char *nl_render(const char *tmpl, const char *tmpl_name, const nl_lab *lab, char *err,
                size_t errlen)
{
    keys lk = {0};
    lab_keys(&lk, lab);
    gr_strbuf out = {0};
    int line = 1, rc = 0;
    for (const char *p = tmpl; *p && rc == 0; line++) {
        const char *end = strchr(p, '\n');
        end = end ? end + 1 : p + strlen(p);
        if (!memmem(p, (size_t)(end - p), "@EACH_FUNCTION@", 15)) {
            rc = expand_line(&out, p, end, &lk, NULL, tmpl_name, line, err, errlen);
            p = end;
            continue;
        }
        /* a block: the lines up to @END_EACH@, once per function */
        const char *body = end, *stop = strstr(body, "@END_EACH@");
        if (!stop) {
            gr_set_err(err, errlen, "%s:%d: @EACH_FUNCTION@ has no @END_EACH@ line", tmpl_name, line);
            rc = -1;
            break;
        }
        while (stop > body && stop[-1] != '\n')
            stop--;
        for (int i = 0; i < lab->n_fns && rc == 0; i++) {
            keys fk = {0};
            function_keys(&fk, lab, i);
            int l = line + 1;
            for (const char *q = body; q < stop && rc == 0; l++) {
                const char *qe = strchr(q, '\n') + 1;
                rc = expand_line(&out, q, qe, &fk, &lk, tmpl_name, l, err, errlen);
                q = qe;
            }
            keys_free(&fk);
        }
        for (const char *q = body; q < stop; q = strchr(q, '\n') + 1)
            line++;
        p = strchr(stop, '\n');
        p = p ? p + 1 : stop + strlen(stop);
        line++;
    }
    keys_free(&lk);
    if (rc != 0) {
        free(out.s);
        return NULL;
    }
    return out.s ? gr_sb_take(&out) : gr_xstrdup("");
}
