/* test_build.c: building a student's lab into a test executable (build.c).
 *
 * Every test builds one "student" file of the fake lab 99 (fixtures/lab99.h)
 * against a fake attnlab tree made at test time (labs/lab99-fixture/lab99.h,
 * lib/labsup.h) and a child directory compiled from the real test child's sources.
 * The rubric allows the headers stdio.h, stdlib.h, math.h, string.h, stdint.h
 * and the functions malloc, free, printf, sqrtf.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "confined/build.h"
#include "base/protocol.h"
#include "confined/sandbox.h"
#include "base/util.h"
#include "fixtures/fixture_kit.h"

Suite *test_suite(void);

/* ---- the fake tree, the child objects and the rubric ------------------------------------- */

static char *kit_dir, *tree_dir, *child_dir, *work_dir;
static int kit_ok;
static char kit_error[512];

static int copy(const char *from, const char *to)
{
    size_t len;
    char *data = gr_read_file(from, &len);
    if (!data)
        return -1;
    int rc = gr_write_file_atomic(to, data, len);
    free(data);
    return rc;
}

static void kit_setup(void)
{
    if (kit_dir)
        return;
    if ((kit_dir = fk_suite_dir("build-test")) == NULL) {
        snprintf(kit_error, sizeof kit_error, "cannot make a temporary directory");
        return;
    }
    tree_dir = gr_xasprintf("%s/tree", kit_dir);
    child_dir = gr_xasprintf("%s/child", kit_dir);
    work_dir = gr_xasprintf("%s/work", kit_dir);
    char *labs = gr_xasprintf("%s/labs", tree_dir);
    char *lab = gr_xasprintf("%s/labs/lab99-fixture", tree_dir);
    char *lib = gr_xasprintf("%s/lib", tree_dir);
    char *hdr_from = gr_xasprintf("%s/grader/tests/fixtures/lab99.h", fk_root());
    char *hdr_to = gr_xasprintf("%s/lab99.h", lab);
    char *sup_from = gr_xasprintf("%s/lib/labsup.h", fk_root());
    char *sup_to = gr_xasprintf("%s/labsup.h", lib);
    int ok = mkdir(tree_dir, 0755) == 0 && mkdir(labs, 0755) == 0 && mkdir(lab, 0755) == 0 &&
             mkdir(lib, 0755) == 0 && mkdir(child_dir, 0755) == 0 && mkdir(work_dir, 0700) == 0 &&
             copy(hdr_from, hdr_to) == 0 && copy(sup_from, sup_to) == 0;
    free(labs);
    free(lab);
    free(lib);
    free(hdr_from);
    free(hdr_to);
    free(sup_from);
    free(sup_to);
    if (!ok) {
        snprintf(kit_error, sizeof kit_error, "cannot lay out the fake tree in %s", kit_dir);
        return;
    }
    if (fk_make_child(child_dir) != 0) {
        snprintf(kit_error, sizeof kit_error, "cannot compile the test child; see %s/kit.log", child_dir);
        return;
    }
    kit_ok = 1;
}

static char h_stdio[] = "stdio.h", h_stdlib[] = "stdlib.h", h_math[] = "math.h",
            h_string[] = "string.h", h_stdint[] = "stdint.h";
static char s_malloc[] = "malloc", s_free[] = "free", s_printf[] = "printf", s_sqrtf[] = "sqrtf",
            s_putchar[] = "putchar";
static char *allowed_headers[] = {h_stdio, h_stdlib, h_math, h_string, h_stdint};
static char *allowed_symbols[] = {s_malloc, s_free, s_printf, s_sqrtf, s_putchar};

static gr_rubric fixture_rubric(void)
{
    gr_rubric r;
    memset(&r, 0, sizeof r);
    r.lab = 99;
    r.name = (char *)(uintptr_t)"fixture";
    r.source = (char *)(uintptr_t)"lab99.c";
    r.allowed_headers = allowed_headers;
    r.n_headers = 5;
    r.allowed_symbols = allowed_symbols;
    r.n_symbols = 5;
    r.limits = (gr_limits){.time_ms = 2000, .memory_bytes = 64L << 20, .output_bytes = 64L << 10};
    return r;
}

static gr_build build_file(const char *path)
{
    ck_assert_msg(kit_ok, "test kit missing: %s", kit_error);
    gr_rubric r = fixture_rubric();
    gr_paths p = {tree_dir, child_dir, work_dir};
    gr_build b;
    char err[512] = "";
    int rc = gr_build_lab(&r, "lab99-fixture", path, &p, &b, err, sizeof err);
    ck_assert_msg(rc == 0, "the build itself failed: %s", err);
    ck_assert(b.compile_seconds > 0.0);
    return b;
}

/* The two functions every source below leaves alone, so that it links. */
#define REST                                                                          \
    "int lab_scale(float *x, const int32_t *idx, const uint8_t *mask, int n, float s)\n" \
    "{ (void)x; (void)idx; (void)mask; (void)n; (void)s; return LAB_NOT_IMPLEMENTED; }\n" \
    "int lab_touch(uint8_t *u, float *f, int n, int k)\n"                                \
    "{ (void)u; (void)f; (void)n; (void)k; return LAB_NOT_IMPLEMENTED; }\n"

#define GOOD_ADD                                                                      \
    "int lab_add(float *out, const float *a, const float *b, int n)\n"                  \
    "{ for (int i = 0; i < n; i++) out[i] = a[i] + b[i]; return LAB_OK; }\n"

/* Write text as a student's lab99.c in a fresh directory and build it. */
static gr_build build_text(const char *text)
{
    ck_assert_msg(kit_ok, "test kit missing: %s", kit_error);
    char *dir = fk_mkdtemp("build-src");
    ck_assert_ptr_nonnull(dir);
    char *path = gr_xasprintf("%s/lab99.c", dir);
    ck_assert_int_eq(gr_write_file_atomic(path, text, strlen(text)), 0);
    gr_build b = build_file(path);
    fk_rm_rf(dir);
    free(path);
    free(dir);
    return b;
}

static void expect_verdict(const gr_build *b, gr_verdict v, const char *needle)
{
    ck_assert_msg(!b->ok && b->verdict == v, "ok %d verdict %d (want %d); message: %s", b->ok,
                  (int)b->verdict, (int)v, b->message ? b->message : "(none)");
    ck_assert_ptr_null(b->exe);
    ck_assert_ptr_nonnull(b->message);
    ck_assert_msg(strstr(b->message, needle) != NULL, "message lacks \"%s\":\n%s", needle, b->message);
}

static const float A4[4] = {1, 2, 3, 4}, B4[4] = {10, 20, 30, 40};

/* Run a built lab_add on A4 + B4 under a memory limit. */
static gr_sandbox_result run_add(const gr_build *b, long memory_bytes)
{
    proto_call c = fk_add_call(A4, B4, 4);
    unsigned char *req;
    size_t len;
    ck_assert_int_eq(proto_encode_request(&c, &req, &len), 0);
    gr_limits lim = {.time_ms = 5000, .memory_bytes = memory_bytes, .output_bytes = 64L << 10};
    gr_sandbox_result r;
    char err[512] = "";
    ck_assert_msg(gr_sandbox_run(b->exe, req, len, &lim, &r, err, sizeof err) == 0, "sandbox: %s", err);
    free(req);
    return r;
}

/* ---- a good build ------------------------------------------------------------------------ */

START_TEST(good_build_runs)
{
    char *src = gr_xasprintf("%s/grader/tests/fixtures/good.c", fk_root());
    gr_build b = build_file(src);
    free(src);
    ck_assert_msg(b.ok, "message: %s\nlog: %s", b.message ? b.message : "", b.log ? b.log : "");
    ck_assert_int_eq(b.verdict, GR_PASSED);
    ck_assert_ptr_null(b.message);
    ck_assert_int_eq(access(b.exe, X_OK), 0);
    struct stat st;
    ck_assert_int_eq(stat(b.exe, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0755);    /* user nobody must be able to run it */

    gr_sandbox_result r = run_add(&b, 64L << 20);
    ck_assert_msg(r.exited && r.exit_code == 0, "exit %d signal %d", r.exit_code, r.term_signal);
    proto_call c = fk_add_call(A4, B4, 4);
    proto_buf out[PROTO_MAX_BUFS];
    int32_t status;
    ck_assert_int_eq(proto_decode_response(r.response, r.response_len, &c, &status, out, NULL, 0), 0);
    const float *o = out[0].data;
    ck_assert(status == 0 && o[0] == 11.0f && o[1] == 22.0f && o[2] == 33.0f && o[3] == 44.0f);
    proto_free_outputs(out, c.n_bufs);
    gr_sandbox_result_free(&r);
    gr_build_free(&b);
}
END_TEST

/* Lab servers often run with umask 077: the tools and the test child run as
   user nobody all the same, and the grader's own files follow the umask. */
START_TEST(umask_077_builds_and_runs)
{
    mode_t old = umask(077);
    char *src = gr_xasprintf("%s/grader/tests/fixtures/good.c", fk_root());
    gr_build b = build_file(src);
    free(src);
    ck_assert_msg(b.ok, "message: %s\nlog: %s", b.message ? b.message : "", b.log ? b.log : "");
    gr_sandbox_result r = run_add(&b, 64L << 20);
    ck_assert_msg(r.exited && r.exit_code == 0, "exit %d signal %d", r.exit_code, r.term_signal);
    gr_sandbox_result_free(&r);
    gr_build_free(&b);

    char *report = gr_xasprintf("%s/umask-report.txt", kit_dir);
    struct stat st;
    ck_assert_int_eq(gr_write_file_atomic(report, "x\n", 2), 0);
    ck_assert_int_eq(stat(report, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0600);
    umask(022);
    ck_assert_int_eq(gr_write_file_atomic(report, "x\n", 2), 0);
    ck_assert_int_eq(stat(report, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0644);
    umask(old);
    unlink(report);
    free(report);
}
END_TEST

/* gcc turns printf("...\n") into puts: allowing printf must allow that. */
START_TEST(compiler_substitutions_count_as_the_call_written)
{
    gr_build b = build_text("#include <stdio.h>\n#include <stdlib.h>\n#include \"lab99.h\"\n"
                            "int lab_add(float *out, const float *a, const float *b, int n)\n"
                            "{\n"
                            "    printf(\"adding\\n\");\n"
                            "    float *t = malloc(16);\n"
                            "    if (t) { for (int i = 0; i < 4; i++) t[i] = 0; free(t); }\n"
                            "    for (int i = 0; i < n; i++) out[i] = a[i] + b[i];\n"
                            "    return LAB_OK;\n"
                            "}\n" REST);
    ck_assert_msg(b.ok, "message: %s", b.message ? b.message : "");
    gr_build_free(&b);
}
END_TEST

/* putchar(c) of a variable c is compiled as putc(c, stdout): allowed with putchar. */
START_TEST(putchar_of_a_variable_is_putchar)
{
    gr_build b = build_text("#include <stdio.h>\n#include \"lab99.h\"\n"
                            "int lab_add(float *out, const float *a, const float *b, int n)\n"
                            "{\n"
                            "    for (int i = 0; i < n; i++) { out[i] = a[i] + b[i]; putchar('0' + i); }\n"
                            "    return LAB_OK;\n"
                            "}\n" REST);
    ck_assert_msg(b.ok, "message: %s", b.message ? b.message : "");
    gr_build_free(&b);
}
END_TEST

/* The grader compiles with labs/warnings.mk's flags: -Wall and -Wextra
   warnings of a lab that builds are kept in its log, and an undeclared
   function is an error, as make test says at home. */
START_TEST(lab_warnings_are_kept)
{
    gr_build b = build_text("#include \"lab99.h\"\n"
                            "int lab_add(float *out, const float *a, const float *b, int n)\n"
                            "{\n"
                            "    int unused = 0;\n"
                            "    for (int i = 0; i < n; i++) out[i] = a[i] + b[i];\n"
                            "    return LAB_OK;\n"
                            "}\n" REST);
    ck_assert_msg(b.ok, "message: %s", b.message ? b.message : "");
    ck_assert_msg(b.log && strstr(b.log, "lab99.c:4:") && strstr(b.log, "[-Wunused-variable]"),
                  "log: %s", b.log ? b.log : "(none)");
    gr_build_free(&b);

    b = build_text("#include \"lab99.h\"\n"
                   "int lab_add(float *out, const float *a, const float *b, int n)\n"
                   "{ (void)a; (void)b; (void)n; out[0] = (float)helper(); return LAB_OK; }\n" REST);
    expect_verdict(&b, GR_COMPILE_ERROR, "does not compile");
    ck_assert_msg(b.log && strstr(b.log, "[-Werror=implicit-function-declaration]"), "log: %s",
                  b.log ? b.log : "(none)");
    gr_build_free(&b);
}
END_TEST

/* Text that only looks like an #include, in comments and strings, is fine. */
START_TEST(includes_in_comments_and_strings_are_fine)
{
    gr_build b = build_text("// #include <unistd.h>\n"
                            "/* #include <unistd.h>\n"
                            "   #include <sys/socket.h> */\n"
                            "#include \"lab99.h\"\n"
                            "const char *lab_note = \"#include <unistd.h>\";\n"
                            "const char lab_quote = '\"';\n"
                            GOOD_ADD REST);
    ck_assert_msg(b.ok, "message: %s", b.message ? b.message : "");
    gr_build_free(&b);
}
END_TEST

/* ---- headers ------------------------------------------------------------------------------- */

START_TEST(forbidden_header)
{
    gr_build b = build_text("#include <stdio.h>\n#include \"lab99.h\"\n#include <unistd.h>\n"
                            GOOD_ADD REST);
    expect_verdict(&b, GR_FORBIDDEN_CALL, "lab99.c:3: #include <unistd.h> is not allowed");
    ck_assert_ptr_nonnull(strstr(b.message, "lab99.h, labsup.h, stdio.h"));   /* says what is */
    gr_build_free(&b);
}
END_TEST

/* Ways to write an #include that a line-by-line grep would miss, each on the
   first line of the file. */
static const char *const hidden_includes[] = {
    "?\?=include <unistd.h>\n",                       /* the trigraph for # (on in C11 mode) */
    "%:include <unistd.h>\n",                         /* digraph for # */
    "#inc\\\nlude <unistd.h>\n",                      /* line splice inside the word */
    "#include \\\n<unistd.h>\n",                      /* splice before the name */
    "#inc\\  \nlude <unistd.h>\n",                    /* splice with spaces after the backslash */
    "# /* a comment */ include <unistd.h>\n",         /* comment between # and include */
    "#include /* a comment\n spanning lines */ <unistd.h>\n",
    "   #   include <unistd.h>\n",
    "#include_next <unistd.h>\n",
    "#define H <unistd.h>\n#include H\n",              /* computed: cannot be checked */
    "#include \"../../../lib/attn.h\"\n",             /* the answer key, by path */
    "#include </etc/passwd>\n",
    "#line 1 \"elsewhere.c\"\n",                      /* would blur where lines come from */
    "# 1 \"/usr/include/stdio.h\" 1 3 4\n",           /* the same, in linemarker form */
};

START_TEST(hidden_include_is_found)
{
    char *text = gr_xasprintf("%s#include \"lab99.h\"\n" GOOD_ADD REST, hidden_includes[_i]);
    gr_build b = build_text(text);
    expect_verdict(&b, GR_FORBIDDEN_CALL, "lab99.c:");
    ck_assert_msg(strstr(b.message, "not allowed") || strstr(b.message, "cannot check"),
                  "case %d: %s", _i, b.message);
    gr_build_free(&b);
    free(text);
}
END_TEST

/* ---- symbols ------------------------------------------------------------------------------- */

START_TEST(forbidden_symbol)
{
    gr_build b = build_text("#include <stdio.h>\n#include \"lab99.h\"\n"
                            "int lab_add(float *out, const float *a, const float *b, int n)\n"
                            "{\n"
                            "    FILE *f = fopen(\"/etc/passwd\", \"r\");\n"
                            "    for (int i = 0; i < n; i++) out[i] = a[i] + b[i] + (f != 0);\n"
                            "    return LAB_OK;\n"
                            "}\n" REST);
    expect_verdict(&b, GR_FORBIDDEN_CALL,
                   "fopen is not allowed in this lab: the grader's sandbox allows no file access");
    ck_assert_ptr_nonnull(strstr(b.message, "malloc, free, printf, sqrtf"));
    gr_build_free(&b);
}
END_TEST

/* No header needed to call a function: a prototype of one's own is enough. */
START_TEST(forbidden_symbol_by_own_prototype)
{
    gr_build b = build_text("#include \"lab99.h\"\n"
                            "int execve(const char *p, char *const a[], char *const e[]);\n"
                            "int lab_add(float *out, const float *a, const float *b, int n)\n"
                            "{\n"
                            "    (void)a; (void)b; (void)n;\n"
                            "    out[0] = (float)execve(\"/bin/sh\", 0, 0);\n"
                            "    return LAB_OK;\n"
                            "}\n" REST);
    expect_verdict(&b, GR_FORBIDDEN_CALL,
                   "execve is not allowed in this lab: the grader's sandbox allows no new processes");
    gr_build_free(&b);
}
END_TEST

/* .incbin would copy any file the compiler can read (a solution, a rubric)
   into the program, where it could be printed. */
START_TEST(inline_assembly_is_refused)
{
    gr_build b = build_text("#include \"lab99.h\"\n"
                            "__asm__(\".section .rodata\\n.incbin \\\"/etc/hostname\\\"\\n.previous\");\n"
                            GOOD_ADD REST);
    expect_verdict(&b, GR_FORBIDDEN_CALL, "lab99.c:2: inline assembly (__asm__) is not allowed");
    gr_build_free(&b);

    /* the keyword made by pasting tokens, which no text search sees */
    b = build_text("#include \"lab99.h\"\n"
                   "#define GLUE(x, y) x##y\n"
                   "GLUE(__as, m__)(\".section .rodata\\n.incbin \\\"/etc/hostname\\\"\\n.previous\");\n"
                   GOOD_ADD REST);
    expect_verdict(&b, GR_FORBIDDEN_CALL, "inline assembly (__asm__) is not allowed");
    gr_build_free(&b);
}
END_TEST

/* Attributes and pragmas whose strings reach the assembler or change code
   generation are refused on the preprocessed text, however they are spelled. */
START_TEST(assembler_bound_attributes_are_refused)
{
    static const char *const attacks[][2] = {
        {"__attribute__((section(\".data\\n.incbin \\\"/etc/hostname\\\"\\n#\"), used))\n"
         "static const char lab_leak[1] = {0};\n", "the section attribute"},
        {"__attribute__((used, __section__(\".gnu.lto_x\"))) static const int lab_x = 1;\n",
         "the __section__ attribute"},
        {"int lab_y __attribute__((alias(\"lab_add\")));\n", "the alias attribute"},
        {"#pragma GCC optimize(\"O0\")\n", "#pragma GCC optimize"},
        {"_Pragma(\"GCC push_options\")\n", "#pragma GCC push_options"},
        {"#ident \"lab\"\n", "#ident"},
    };
    for (size_t i = 0; i < sizeof attacks / sizeof attacks[0]; i++) {
        char *text = gr_xasprintf("#include \"lab99.h\"\n%s" GOOD_ADD REST, attacks[i][0]);
        gr_build b = build_text(text);
        expect_verdict(&b, GR_FORBIDDEN_CALL, attacks[i][1]);
        gr_build_free(&b);
        free(text);
    }
    /* a variable called section is just a variable */
    gr_build b = build_text("#include \"lab99.h\"\nstatic int section = 1;\n"
                            "int lab_add(float *out, const float *a, const float *b, int n)\n"
                            "{ for (int i = 0; i < n; i++) out[i] = a[i] + b[i] * (float)section; return LAB_OK; }\n"
                            REST);
    ck_assert_msg(b.ok, "message: %s", b.message ? b.message : "");
    gr_build_free(&b);
}
END_TEST

/* What is checked is what is compiled: a directive hidden from a line scanner by
   a lone CR, or code that exists only when optimising, is seen. */
START_TEST(what_is_checked_is_what_is_compiled)
{
    gr_build b = build_text("#include \"lab99.h\"\n"
                            "#ifdef __OPTIMIZE__\n"
                            "__asm__(\".section .rodata\\n.incbin \\\"/etc/hostname\\\"\\n.previous\");\n"
                            "#endif\n" GOOD_ADD REST);
    expect_verdict(&b, GR_FORBIDDEN_CALL, "inline assembly (__asm__)");
    gr_build_free(&b);

    b = build_text("#include \"lab99.h\"\r#include \"/etc/hostname\"\r\n" GOOD_ADD REST);
    expect_verdict(&b, GR_FORBIDDEN_CALL, "/etc/hostname");
    gr_build_free(&b);
}
END_TEST

/* A lab file that is not a regular file is named, never opened or waited on. */
START_TEST(only_regular_files_are_read)
{
    char *dir = fk_mkdtemp("build-src");
    ck_assert_ptr_nonnull(dir);
    char *path = gr_xasprintf("%s/lab99.c", dir);
    ck_assert_int_eq(symlink("/etc/hostname", path), 0);
    gr_build b = build_file(path);
    expect_verdict(&b, GR_COMPILE_ERROR, "not a regular file: it is a symbolic link");
    gr_build_free(&b);
    unlink(path);
    ck_assert_int_eq(mkfifo(path, 0644), 0);
    b = build_file(path);
    expect_verdict(&b, GR_COMPILE_ERROR, "it is a FIFO");
    gr_build_free(&b);
    unlink(path);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    b = build_file(path);
    expect_verdict(&b, GR_COMPILE_ERROR, "it is a directory");
    gr_build_free(&b);
    fk_rm_rf(dir);
    free(path);
    free(dir);
}
END_TEST

/* An ifunc resolver runs before main and before the test child's own set-up. */
START_TEST(ifunc_is_refused)
{
    gr_build b = build_text("#include \"lab99.h\"\n"
                            "static int add_impl(float *out, const float *a, const float *b, int n)\n"
                            "{ for (int i = 0; i < n; i++) out[i] = a[i] + b[i]; return LAB_OK; }\n"
                            "typedef int add_fn(float *, const float *, const float *, int);\n"
                            "static add_fn *resolve_add(void) { return add_impl; }\n"
                            "int lab_add(float *out, const float *a, const float *b, int n)\n"
                            "    __attribute__((ifunc(\"resolve_add\")));\n"
                            REST);
    expect_verdict(&b, GR_FORBIDDEN_CALL, "ifunc");
    gr_build_free(&b);
}
END_TEST

/* ---- compile and link errors ------------------------------------------------------------------ */

START_TEST(compile_error_names_file_and_line)
{
    gr_build b = build_text("#include \"lab99.h\"\n"
                            "\n"
                            "int lab_add(float *out, const float *a, const float *b, int n)\n"
                            "{\n"
                            "    for (int i = 0; i < n; i++) out[i] = a[i] + b[i]\n"   /* no ; */
                            "    return LAB_OK;\n"
                            "}\n" REST);
    expect_verdict(&b, GR_COMPILE_ERROR, "lab99.c does not compile");
    ck_assert_ptr_nonnull(b.log);
    ck_assert_msg(strstr(b.log, "lab99.c:5:") || strstr(b.log, "lab99.c:6:"), "log:\n%s", b.log);
    ck_assert_msg(strstr(b.log, work_dir) == NULL, "private paths leak into the log:\n%s", b.log);
    ck_assert_msg(strstr(b.log, "build-lab99-") == NULL, "private paths leak into the log:\n%s", b.log);
    gr_build_free(&b);
}
END_TEST

START_TEST(long_compile_log_is_trimmed)
{
    gr_strbuf src = {0};
    gr_sb_append(&src, "#include \"lab99.h\"\n");
    for (int i = 0; i < 200; i++)
        gr_sb_printf(&src, "int broken_%d = ;\n", i);
    gr_sb_append(&src, GOOD_ADD REST);
    gr_build b = build_text(src.s);
    free(src.s);
    expect_verdict(&b, GR_COMPILE_ERROR, "does not compile");
    ck_assert_ptr_nonnull(b.log);
    int lines = 0;
    for (const char *p = b.log; *p; p++)
        lines += *p == '\n';
    ck_assert_int_le(lines, 21);                    /* 20 lines and a "... (N more lines)" */
    ck_assert_uint_le(strlen(b.log), 2048 + 40);
    ck_assert_ptr_nonnull(strstr(b.log, "more lines)"));
    ck_assert_ptr_nonnull(strstr(b.log, "lab99.c:2:"));
    gr_build_free(&b);
}
END_TEST

START_TEST(link_error_for_a_renamed_function)
{
    gr_build b = build_text("#include \"lab99.h\"\n"
                            "int lab_addd(float *out, const float *a, const float *b, int n)\n"
                            "{ for (int i = 0; i < n; i++) out[i] = a[i] + b[i]; return LAB_OK; }\n"
                            REST);
    expect_verdict(&b, GR_COMPILE_ERROR, "cannot find lab_add.");
    ck_assert_ptr_nonnull(b.log);
    ck_assert_ptr_nonnull(strstr(b.log, "lab_add"));
    gr_build_free(&b);
}
END_TEST

/* ---- memory ------------------------------------------------------------------------------------ */

/* 128 MiB of static array against a 64 MiB limit: static data counts. */
START_TEST(static_array_counts_against_the_memory_limit)
{
    gr_build b = build_text("#include \"lab99.h\"\n"
                            "float big[32 * 1024 * 1024];   /* global: the compiler must keep it */\n"
                            "int lab_add(float *out, const float *a, const float *b, int n)\n"
                            "{ for (int i = 0; i < n; i++) { big[i * 1000] = a[i]; out[i] = big[i * 1000] + b[i]; }\n"
                            "  return LAB_OK; }\n" REST);
    ck_assert_msg(b.ok, "message: %s", b.message ? b.message : "");
    gr_sandbox_result r = run_add(&b, 64L << 20);
    ck_assert_msg(r.exited && r.exit_code == PROTO_EXIT_OUT_OF_MEMORY, "exited %d code %d signal %d",
                  r.exited, r.exit_code, r.term_signal);
    gr_sandbox_result_free(&r);

    r = run_add(&b, 256L << 20);                    /* and with room for it, it runs */
    ck_assert_msg(r.exited && r.exit_code == 0, "exited %d code %d signal %d", r.exited, r.exit_code,
                  r.term_signal);
    gr_sandbox_result_free(&r);
    gr_build_free(&b);
}
END_TEST

/* Defining getenv or malloc_usable_size must not switch the limit off: the
   build makes every student symbol but lab_* local, so the test child keeps the C
   library's own. */
START_TEST(replacing_library_functions_changes_nothing)
{
    gr_build b = build_text("#include <stdlib.h>\n#include \"lab99.h\"\n"
                            "char *getenv(const char *name) { (void)name; return 0; }\n"
                            "size_t malloc_usable_size(void *p) { (void)p; return 0; }\n"
                            "static char *volatile keep;\n"
                            "int lab_add(float *out, const float *a, const float *b, int n)\n"
                            "{\n"
                            "    for (int i = 0; i < 512; i++) { keep = malloc(1 << 20); if (keep) keep[0] = 1; }\n"
                            "    for (int i = 0; i < n; i++) out[i] = a[i] + b[i];\n"
                            "    return LAB_OK;\n"
                            "}\n" REST);
    ck_assert_msg(b.ok, "message: %s", b.message ? b.message : "");
    gr_sandbox_result r = run_add(&b, 64L << 20);              /* 512 MiB asked, 64 MiB allowed */
    ck_assert_msg(r.exited && r.exit_code == PROTO_EXIT_OUT_OF_MEMORY, "exited %d code %d signal %d",
                  r.exited, r.exit_code, r.term_signal);
    gr_sandbox_result_free(&r);
    gr_build_free(&b);
}
END_TEST

/* ---- the grader's side ---------------------------------------------------------------------------- */

START_TEST(missing_source_is_the_students_problem)
{
    gr_build b = build_file("/nonexistent/lab99.c");
    /* named as the student knows it, never by the grader's path */
    expect_verdict(&b, GR_COMPILE_ERROR, "cannot read lab99.c");
    ck_assert_ptr_null(strstr(b.message, "/nonexistent"));
    gr_build_free(&b);
}
END_TEST

START_TEST(missing_child_objects_are_the_graders_problem)
{
    ck_assert_msg(kit_ok, "test kit missing: %s", kit_error);
    char *empty = fk_mkdtemp("build-nochild");
    ck_assert_ptr_nonnull(empty);
    gr_rubric r = fixture_rubric();
    gr_paths p = {tree_dir, empty, work_dir};
    gr_build b;
    char err[512] = "";
    char *src = gr_xasprintf("%s/grader/tests/fixtures/good.c", fk_root());
    ck_assert_int_eq(gr_build_lab(&r, "lab99-fixture", src, &p, &b, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "child_main.o is missing") != NULL, "err: %s", err);
    ck_assert_int_eq(b.ok, 0);
    ck_assert_ptr_null(b.exe);
    free(src);
    fk_rm_rf(empty);
    free(empty);
}
END_TEST

/* The tools run inside the private build directory, so relative paths given
   by the caller must be resolved first. */
START_TEST(relative_paths_work)
{
    ck_assert_msg(kit_ok, "test kit missing: %s", kit_error);
    char *src = gr_xasprintf("%s/grader/tests/fixtures/good.c", fk_root());
    ck_assert_int_eq(chdir(kit_dir), 0);      /* Check runs each test in its own process */
    gr_rubric r = fixture_rubric();
    gr_paths p = {"tree", "child", "work"};
    gr_build b;
    char err[512] = "";
    ck_assert_msg(gr_build_lab(&r, "lab99-fixture", src, &p, &b, err, sizeof err) == 0, "err: %s", err);
    ck_assert_msg(b.ok, "message: %s\nlog: %s", b.message ? b.message : "", b.log ? b.log : "");
    ck_assert_msg(b.exe[0] == '/', "exe %s is not absolute", b.exe);
    gr_build_free(&b);
    free(src);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("build");
    TCase *tc = tcase_create("builds");
    tcase_add_unchecked_fixture(tc, kit_setup, NULL);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, good_build_runs);
    tcase_add_test(tc, umask_077_builds_and_runs);
    tcase_add_test(tc, compiler_substitutions_count_as_the_call_written);
    tcase_add_test(tc, putchar_of_a_variable_is_putchar);
    tcase_add_test(tc, includes_in_comments_and_strings_are_fine);
    tcase_add_test(tc, static_array_counts_against_the_memory_limit);
    tcase_add_test(tc, replacing_library_functions_changes_nothing);
    suite_add_tcase(s, tc);

    tc = tcase_create("rules");
    tcase_add_unchecked_fixture(tc, kit_setup, NULL);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, forbidden_header);
    tcase_add_loop_test(tc, hidden_include_is_found, 0,
                        (int)(sizeof hidden_includes / sizeof hidden_includes[0]));
    tcase_add_test(tc, forbidden_symbol);
    tcase_add_test(tc, forbidden_symbol_by_own_prototype);
    tcase_add_test(tc, inline_assembly_is_refused);
    tcase_add_test(tc, ifunc_is_refused);
    tcase_add_test(tc, assembler_bound_attributes_are_refused);
    tcase_add_test(tc, what_is_checked_is_what_is_compiled);
    tcase_add_test(tc, only_regular_files_are_read);
    suite_add_tcase(s, tc);

    tc = tcase_create("errors");
    tcase_add_unchecked_fixture(tc, kit_setup, NULL);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, compile_error_names_file_and_line);
    tcase_add_test(tc, long_compile_log_is_trimmed);
    tcase_add_test(tc, lab_warnings_are_kept);
    tcase_add_test(tc, link_error_for_a_renamed_function);
    tcase_add_test(tc, missing_source_is_the_students_problem);
    tcase_add_test(tc, missing_child_objects_are_the_graders_problem);
    tcase_add_test(tc, relative_paths_work);
    suite_add_tcase(s, tc);
    return s;
}
