/* test_scan.c: the checks on the compiler's intermediate files (scan.c,
 * scan_asm.c), on hand-written preprocessor output and assembly, including the
 * spellings an attacker uses to slip a directive past a line-by-line reader;
 * the normalised copy of the lab file; and the bounded excerpts and lists a
 * report shows of what the build found (shown.c).
 */
#include <check.h>
#include <string.h>

#include "confined/scan.h"
#include "confined/shown.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>

Suite *test_suite(void);

/* What GCC writes for a small function, with a string holding '#', ';' and a
   directive's name: all of it plain C's. */
static const char gcc_output[] =
    "\t.file\t\"lab01.c\"\n"
    "\t.text\n"
    "\t.section\t.rodata.str1.1,\"aMS\",@progbits,1\n"
    ".LC0:\n"
    "\t.string\t\"a # b ; .incbin \\\"x\\\"\"\n"
    "\t.text\n"
    "\t.p2align 4\n"
    "\t.globl\tlab_dot_scores\n"
    "\t.type\tlab_dot_scores, @function\n"
    "lab_dot_scores:\n"
    ".LFB0:\n"
    "\t.cfi_startproc\n"
    "\tmovss\t.LC1(%rip), %xmm0   # a comment\n"
    "\tret\n"
    "\t.cfi_endproc\n"
    "\t.size\tlab_dot_scores, .-lab_dot_scores\n"
    "\t.section\t.rodata.cst4,\"aM\",@progbits,4\n"
    "\t.align 4\n"
    ".LC1:\n"
    "\t.long\t1065353216\n"
    "\t.ident\t\"GCC: (Debian 12.2.0-14) 12.2.0\"\n"
    "\t.section\t.note.GNU-stack,\"\",@progbits\n";

START_TEST(plain_c_assembly_passes)
{
    char why[160] = "";
    ck_assert_msg(gr_scan_assembly(gcc_output, sizeof gcc_output - 1, why, sizeof why) == 0, "refused: %s", why);
}
END_TEST

/* Each attack and the line it must be caught on. */
static const struct { const char *text; int line; const char *why; } attacks[] = {
    {"\t.text\n\t.incbin \"/etc/hostname\"\n", 2, ".incbin"},
    {"\t.text\n\t.section .data\n.include \"/etc/passwd\"\n", 3, ".include"},
    {"\t.section .data;.incbin \"/etc/hostname\"\n", 1, ".incbin"},
    {"x: y: .incbin \"f\"\n", 1, ".incbin"},
    {"\t.section\t.gnu.lto_.opts,\"e\",@progbits\n", 1, ".gnu.lto_.opts"},
    {"\t.section\t.interp,\"a\"\n", 1, ".interp"},
    {"\t.pushsection .note.hostile\n", 1, ".pushsection"},
    {"\t.macro m\n\t.endm\n", 1, ".macro"},
    {"\t.symver lab_x, memcpy@GLIBC_2.2.5\n", 1, ".symver"},
    {"\t.text /* hidden */ .incbin \"f\"\n", 1, "argument: .text"},
    {"\t.string \"unterminated\n", 1, "unterminated"},
    /* quoted names are labels, as the assembler reads them */
    {"\t.text\n\"x\": .incbin \"f\"\n", 2, ".incbin"},
    {"\"a b\": \"c\": .include \"f\"\n", 1, ".include"},
    {"\t\"x\" .incbin \"f\"\n", 1, "cannot read"},
    /* a character constant: the assembler would not read the quote as a string */
    {"\t.byte '\"; .incbin \"f\" ;\"\n", 1, "quote"},
    {"\t.text\n#APP\n\tnop\n#NO_APP\n", 2, "inline assembly"},
    {"\t.text\n\t/* a\n b */ .incbin \"f\"\n", 2, ".incbin"},
    {"\t.irp r, a\n\t.endr\n", 1, ".irp"},
    {"\t.rept 3\n\t.endr\n", 1, ".rept"},
    {"\t.altmacro\n", 1, ".altmacro"},
    {"\t.set x, 1\n", 1, ".set"},
    {"\tx = 1\n", 1, "cannot read"},
    {"\t.section .text.x,\"awx\",@progbits\n", 1, "flags awx"},
    {"\t.section .data.x,\"ae\",@progbits\n", 1, "flags ae"},
    {"\t.section .data.x,\"aw\",@progbits,8,extra\n", 1, "fields"},
    {"\t.section \".text\\n.incbin\",\"ax\"\n", 1, "section named"},
    {"\t.type f, @gnu_indirect_function\n", 1, "gnu_indirect_function"},
    {"\t.popsection\n", 1, ".popsection"},
    {"\t.previous\n", 1, ".previous"},
    {"\tnop\r.incbin \"f\"\n", 1, "0x0d"},
    {"\tnop \\\n", 1, "backslash"},
    {"1: .incbin \"f\"\n", 1, "numbered label"},
};

/* A NUL byte ends nothing: what follows it is read, and it is refused itself. */
START_TEST(assembly_read_by_length)
{
    static const char text[] = "\t.text\n\t.byte 0\0\n\t.incbin \"f\"\n";
    char why[160] = "";
    ck_assert_int_eq(gr_scan_assembly(text, sizeof text - 1, why, sizeof why), 2);
    ck_assert_str_eq(why, "the control byte 0x00");
}
END_TEST

START_TEST(attacks_are_caught)
{
    char why[160] = "";
    int line = gr_scan_assembly(attacks[_i].text, strlen(attacks[_i].text), why, sizeof why);
    ck_assert_int_eq(line, attacks[_i].line);
    ck_assert_msg(strstr(why, attacks[_i].why) != NULL, "why: %s", why);
}
END_TEST

START_TEST(sections_of_plain_c)
{
    const char *ok[] = {".text", ".text.startup", ".rodata.cst16", ".data.rel.ro.local", ".bss",
                        ".rela.text", ".eh_frame", ".rela.eh_frame", ".note.GNU-stack",
                        ".comment", ".symtab", ".init_array", ""};
    const char *bad[] = {".gnu.lto_.opts", ".gnu.lto_main.0", ".interp", ".note.ABI-tag",
                         ".preinit_array", ".ctors", ".textual", ".hostile", ".dynamic"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        ck_assert_msg(gr_scan_section_allowed(ok[i]), "%s refused", ok[i]);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!gr_scan_section_allowed(bad[i]), "%s allowed", bad[i]);
}
END_TEST

/* A preprocessed file: the contract and a system header entered from the
   student's file, a foreign file, asm on line 7, and a header's own asm. */
static const char preprocessed[] =
    "# 0 \"lab01.c\"\n"
    "# 0 \"<built-in>\"\n"
    "# 1 \"lab01.c\"\n"
    "# 1 \"inc/lab01.h\" 1\n"
    "int lab_f(void);\n"
    "# 2 \"lab01.c\" 2\n"
    "# 1 \"/usr/include/math.h\" 1 3 4\n"
    "extern double sin(double) __asm__(\"\" \"sin\");\n"
    "# 3 \"lab01.c\" 2\n"
    "# 1 \"/tmp/x/secret.h\" 1\n"
    "int secret;\n"
    "# 4 \"lab01.c\" 2\n"
    "int lab_f(void) { return 1; }\n"
    "\n"
    "\n"
    "\n"
    "void g(void) { __asm__ volatile(\"\"); }\n";

START_TEST(preprocessed_facts)
{
    gr_pp_facts pf;
    gr_scan_preprocessed(preprocessed, sizeof preprocessed - 1, "lab01.c", "inc", &pf);
    ck_assert_int_eq(pf.n_direct, 3);
    ck_assert_str_eq(pf.direct[0].path, "inc/lab01.h");
    ck_assert_str_eq(pf.direct[1].path, "/usr/include/math.h");
    ck_assert_str_eq(pf.direct[2].path, "/tmp/x/secret.h");
    ck_assert_str_eq(pf.foreign, "/tmp/x/secret.h");
    ck_assert_int_eq(pf.refused_line, 8);
    ck_assert_str_eq(pf.refused, "inline assembly (__asm__)");
    gr_scan_preprocessed_free(&pf);
}
END_TEST

/* Scan a NUL-free preprocessed text as lab01.c's. */
static void scan_pp(const char *text, gr_pp_facts *pf)
{
    gr_scan_preprocessed(text, strlen(text), "lab01.c", "inc", pf);
}

START_TEST(attributes_in_context_only)
{
    gr_pp_facts pf;
    scan_pp("# 1 \"lab01.c\"\nint section = 1, alias;\n"
            "static int x __attribute__((aligned(8), unused));\n"
            "void f(void) __attribute__ ((noinline,\n target (\"avx2\")));\n", &pf);
    ck_assert_int_eq(pf.refused_line, 4);      /* the line the attribute's name is on */
    ck_assert_str_eq(pf.refused, "the target attribute");
    gr_scan_preprocessed_free(&pf);
}
END_TEST

/* Line markers the preprocessor would not write: each is refused on its line. */
static const struct { const char *text; int line; const char *why; } markers[] = {
    /* a forged marker without flags: the student's next lines would be /etc/passwd's */
    {"# 1 \"lab01.c\"\nint a;\n# 1 \"/etc/passwd\"\nint b = ;\n", 2, "/etc/passwd"},
    /* ... or a system header's, where asm is not looked for */
    {"# 1 \"lab01.c\"\nint a;\n# 7 \"/usr/include/stdio.h\"\nvoid f(void) { __asm__(\"\"); }\n", 2,
     "/usr/include/stdio.h"},
    /* a return (flag 2) to a file that was never left, told on the student's line */
    {"# 1 \"lab01.c\"\nint a;\n# 1 \"inc/lab01.h\" 1\nint x;\n# 9 \"/usr/include/math.h\" 2\n", 1,
     "/usr/include/math.h"},
    /* a marker the grader cannot read */
    {"# 1 \"lab01.c\"\nint a;\n# 3 lab01.c\n", 2, "line marker"},
};

START_TEST(forged_line_markers)
{
    gr_pp_facts pf;
    scan_pp(markers[_i].text, &pf);
    ck_assert_int_eq(pf.refused_line, markers[_i].line);
    ck_assert_msg(strstr(pf.refused, markers[_i].why) != NULL, "refused: %s", pf.refused);
    gr_scan_preprocessed_free(&pf);
}
END_TEST

/* The preprocessed text is read by length: a NUL byte hides nothing after it
   and is refused itself; digraph attributes and stray directives are seen. */
START_TEST(read_by_length)
{
    static const char nul[] = "# 1 \"lab01.c\"\nconst char s[] = \"a\0b\";\nvoid f(void) { __asm__(\"\"); }\n";
    gr_pp_facts pf;
    gr_scan_preprocessed(nul, sizeof nul - 1, "lab01.c", "inc", &pf);
    ck_assert_int_eq(pf.refused_line, 1);
    ck_assert_str_eq(pf.refused, "a NUL byte");
    gr_scan_preprocessed_free(&pf);
    static const char after[] = "# 1 \"lab01.c\"\nint a;\n\0\n# 1 \"/tmp/secret.h\" 1\nint s;\n";
    gr_scan_preprocessed(after, sizeof after - 1, "lab01.c", "inc", &pf);
    ck_assert_str_eq(pf.foreign, "/tmp/secret.h");
    gr_scan_preprocessed_free(&pf);

    scan_pp("# 1 \"lab01.c\"\nint a;\nint x <:<:gnu::section(\".x\"):>:>;\n", &pf);
    ck_assert_int_eq(pf.refused_line, 2);
    ck_assert_str_eq(pf.refused, "the section attribute");
    gr_scan_preprocessed_free(&pf);
    scan_pp("# 1 \"lab01.c\"\nint a;\n %: 3 \"/etc/passwd\"\n", &pf);
    ck_assert_int_eq(pf.refused_line, 2);
    gr_scan_preprocessed_free(&pf);
}
END_TEST

/* The copy that is checked and compiled: no byte-order mark, LF line ends; a
   NUL byte is refused with its line. */
START_TEST(normalised_copy)
{
    char text[] = "\xef\xbb\xbf#include <math.h>\r\nint a;\rint b;\n\r\n";
    size_t len = sizeof text - 1;
    ck_assert_int_eq(gr_scan_normalise(text, &len), 0);
    ck_assert_str_eq(text, "#include <math.h>\nint a;\nint b;\n\n");
    ck_assert_uint_eq(len, strlen(text));
    char nul[] = "int a;\r\nint b;\rchar c = '\0';\n";
    len = sizeof nul - 1;
    ck_assert_int_eq(gr_scan_normalise(nul, &len), 3);
}
END_TEST

/* A compiler's output as a report shows it: paths in the student's names, the
   source quotes of the student's file kept and those of any other file (a
   header, or /etc/passwd named by a trick) dropped, at most 20 lines. */
START_TEST(shown_log_quotes_only_the_students_file)
{
    const char *log =
        "/w/build-lab01-x/lab01.c: In function 'f':\n"
        "/w/build-lab01-x/lab01.c:4:9: error: 'y' undeclared\n"
        "    4 |     x = y;\n"
        "      |         ^\n"
        "/etc/passwd:2:1: error: unknown type name 'daemon'\n"
        "    2 | daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
        "      | ^~~~~~\n"
        "In file included from /usr/include/stdio.h:3,\n"
        "                 from /w/build-lab01-x/lab01.c:1:\n"
        "/w/build-lab01-x/inc/lab01.h:9:5: note: declared here\n"
        "    9 | int lab_dot_scores(void);\n"
        "lab01.c:7:1: warning: no newline\n"
        "    7 | }\n";
    char *shown = gr_shown_log(log, "/w/build-lab01-x", "/s", "lab01.c");
    ck_assert_ptr_nonnull(shown);
    ck_assert_ptr_nonnull(strstr(shown, "lab01.c:4:9: error: 'y' undeclared\n    4 |     x = y;\n"));
    ck_assert_ptr_null(strstr(shown, "daemon"));
    ck_assert_ptr_nonnull(strstr(shown, "(a message about a file outside the submission, left out)\n"));
    ck_assert_ptr_null(strstr(shown, "int lab_dot_scores"));
    ck_assert_ptr_nonnull(strstr(shown, "lab01.h:9:5: note"));
    ck_assert_ptr_nonnull(strstr(shown, "In file included from /usr/include/stdio.h:3,\n"));
    ck_assert_ptr_nonnull(strstr(shown, "    7 | }\n"));
    ck_assert_ptr_null(strstr(shown, "/w/"));
    free(shown);

    gr_strbuf big = {0};
    for (int i = 0; i < 100; i++)
        gr_sb_printf(&big, "lab01.c:%d:1: error: x\n", i + 1);
    shown = gr_shown_log(big.s, "/w", "/s", "lab01.c");
    ck_assert_ptr_nonnull(strstr(shown, "... (80 more lines)\n"));
    free(shown);
    free(big.s);
}
END_TEST

/* A capped list names a few items, then how many more; a string set names
   each item once, for 30,000 items in linear time. */
START_TEST(capped_lists_and_string_sets)
{
    gr_strbuf b = {0};
    gr_capped cap;
    gr_capped_init(&cap, &b, GR_CAPPED_ITEMS);
    gr_strset seen = {0};
    int fresh = 0;
    for (int i = 0; i < 60000; i++) {
        char name[32];
        snprintf(name, sizeof name, "hostile_f%d", i % 30000);
        if (!gr_strset_add(&seen, name))
            continue;
        fresh++;
        if (gr_capped_take(&cap))
            gr_sb_printf(&b, "%s\n", name);
    }
    gr_capped_end(&cap, "functions like these");
    ck_assert_int_eq(fresh, 30000);
    ck_assert_str_eq(b.s, "hostile_f0\nhostile_f1\nhostile_f2\nhostile_f3\nhostile_f4\n"
                          "... and 29995 more functions like these.\n");
    gr_strset_free(&seen);
    free(b.s);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("scan");
    TCase *tc = tcase_create("assembly");
    tcase_add_test(tc, plain_c_assembly_passes);
    tcase_add_loop_test(tc, attacks_are_caught, 0, (int)(sizeof attacks / sizeof attacks[0]));
    tcase_add_test(tc, sections_of_plain_c);
    tcase_add_test(tc, assembly_read_by_length);
    suite_add_tcase(s, tc);
    tc = tcase_create("preprocessed");
    tcase_add_test(tc, preprocessed_facts);
    tcase_add_test(tc, attributes_in_context_only);
    tcase_add_loop_test(tc, forged_line_markers, 0, (int)(sizeof markers / sizeof markers[0]));
    tcase_add_test(tc, read_by_length);
    tcase_add_test(tc, normalised_copy);
    suite_add_tcase(s, tc);
    tc = tcase_create("shown");
    tcase_add_test(tc, shown_log_quotes_only_the_students_file);
    tcase_add_test(tc, capped_lists_and_string_sets);
    suite_add_tcase(s, tc);
    return s;
}
