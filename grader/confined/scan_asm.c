/* scan_asm.c: the compiler's assembly, read as the GNU assembler reads it (see
 * scan.h, gr_scan_assembly).
 *
 * The assembler splits its input into statements at newlines and at ';', drops
 * '#' comments (to the end of the line) and block comments, keeps strings
 * whole, and reads each statement as labels ("name:" or a quoted "name":),
 * then one directive or instruction. This reader does the same, and allows
 * only what GCC and Clang write for plain C: the directives below, sections
 * plain C code lives in with ordinary flags, and instructions. Whatever it
 * cannot read the way the assembler would (a character constant, a backslash,
 * a control byte, a symbol assignment, #APP markers of inline asm) is refused:
 * a compiler never writes it, so only a trick can have put it there.
 */
#include "confined/scan.h"

#include "base/util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Directives GCC and Clang write for plain C; anything else (.incbin,
   .include, .macro, .irp, .rept, .altmacro, .set, .symver, .pushsection,
   .org ...) came from somewhere else. */
static const char *const allowed_directives[] = {
    ".file", ".text", ".data", ".bss", ".section", ".globl", ".global", ".local", ".comm",
    ".lcomm", ".type", ".size", ".align", ".p2align", ".balign", ".long", ".quad", ".byte",
    ".short", ".value", ".word", ".hword", ".int", ".2byte", ".4byte", ".8byte", ".octa",
    ".zero", ".skip", ".space", ".string", ".ascii", ".asciz", ".base64", ".ident", ".weak",
    ".hidden", ".protected", ".internal", ".uleb128", ".sleb128", ".float", ".single",
    ".double", ".loc", ".addrsig", ".addrsig_sym", NULL
};

/* The call-frame directives compilers write (the unwinding tables). */
static const char *const allowed_cfi[] = {
    ".cfi_startproc", ".cfi_endproc", ".cfi_def_cfa", ".cfi_def_cfa_offset",
    ".cfi_def_cfa_register", ".cfi_offset", ".cfi_rel_offset", ".cfi_restore",
    ".cfi_remember_state", ".cfi_restore_state", ".cfi_adjust_cfa_offset", ".cfi_escape",
    ".cfi_register", ".cfi_undefined", ".cfi_same_value", NULL
};

/* Section switches compilers write bare (an argument would pick a subsection). */
static const char *const plain_switches[] = { ".text", ".data", ".bss", NULL };

/* Symbol types of .type: functions and data, never an ifunc or a unique object. */
static const char *const allowed_types[] = {
    "@function", "@object", "@tls_object", "@notype", NULL
};

/* Section types of .section. */
static const char *const allowed_section_types[] = {
    "@progbits", "@nobits", "@note", "@init_array", "@fini_array", NULL
};

/* Sections plain C code and data live in (and what the assembler adds). */
static const char *const section_prefixes[] = {
    ".text", ".data", ".bss", ".rodata", ".tdata", ".tbss", ".init_array", ".fini_array",
    ".rela.text", ".rela.data", ".rela.rodata", ".rela.init_array", ".rela.fini_array",
    ".rela.tdata", ".rela.eh_frame", ".eh_frame", NULL
};
static const char *const section_names[] = {
    "", ".note.GNU-stack", ".note.gnu.property", ".comment", ".symtab", ".strtab",
    ".shstrtab", ".llvm_addrsig", ".group", NULL
};

int gr_scan_section_allowed(const char *name)
{
    for (int i = 0; section_names[i]; i++)
        if (strcmp(name, section_names[i]) == 0)
            return 1;
    for (int i = 0; section_prefixes[i]; i++) {
        size_t n = strlen(section_prefixes[i]);
        if (strncmp(name, section_prefixes[i], n) == 0 && (name[n] == '\0' || name[n] == '.'))
            return 1;
    }
    return 0;
}

static int in_list(const char *w, size_t n, const char *const *words)
{
    for (int i = 0; words[i]; i++)
        if (strlen(words[i]) == n && memcmp(words[i], w, n) == 0)
            return 1;
    return 0;
}

/* A character of a symbol name as the assembler reads one (UTF-8 included). */
static int name_char(unsigned char c)
{
    return isalnum(c) || c == '_' || c == '.' || c == '$' || c >= 0x80;
}

/* ---- one statement ---------------------------------------------------------------------- */

/* A statement: its text (comments gone, strings whole), where it starts. */
typedef struct stmt {
    const char *s;
    size_t n;
    char *why;
    size_t whylen;
} stmt;

/* Say why the statement is refused (what, then the word w[0..n) it is about). */
static int refuse(stmt *st, const char *what, const char *w, size_t n)
{
    snprintf(st->why, st->whylen, "%s%.*s", what, (int)(n < 40 ? n : 40), w);
    return -1;
}

static size_t skip_space(const stmt *st, size_t k)
{
    while (k < st->n && (st->s[k] == ' ' || st->s[k] == '\t'))
        k++;
    return k;
}

/* The end of the quoted string or name opening at k (just past its closing
   quote); the splitter has made sure every one is closed. */
static size_t quoted_end(const stmt *st, size_t k)
{
    for (k++; k < st->n && st->s[k] != '"'; k++)
        if (st->s[k] == '\\')
            k++;
    return k + 1;
}

/* One item of a comma-separated operand list from k: a quoted string or a run
   up to the next comma; *w and *wn its text (quotes dropped), the index after it. */
static size_t item(const stmt *st, size_t k, const char **w, size_t *wn)
{
    k = skip_space(st, k);
    if (k < st->n && st->s[k] == '"') {
        size_t e = quoted_end(st, k);
        *w = st->s + k + 1;
        *wn = e - k - 2;
        return skip_space(st, e);
    }
    size_t e = k;
    while (e < st->n && st->s[e] != ',')
        e++;
    size_t t = e;
    while (t > k && (st->s[t - 1] == ' ' || st->s[t - 1] == '\t'))
        t--;
    *w = st->s + k;
    *wn = t - k;
    return e;
}

/* .section NAME[,"FLAGS"[,@TYPE[,ENTSIZE]]]: a section of plain C, flags
   among a w x M S T (never writable and executable at once), an ordinary type. */
static int check_section(stmt *st, size_t k)
{
    const char *w;
    size_t wn;
    k = item(st, k, &w, &wn);
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(wn < sizeof name - 1 ? wn : sizeof name - 1), w);
    if (wn >= sizeof name || memchr(w, '"', wn) || !gr_scan_section_allowed(name))
        return refuse(st, "a section named ", w, wn);
    for (int field = 0; k < st->n; field++) {
        if (st->s[k] != ',' || field > 2)
            return refuse(st, "a .section with more than plain C's fields: ", st->s, st->n);
        size_t q = skip_space(st, k + 1);
        int quoted = q < st->n && st->s[q] == '"';
        k = item(st, k + 1, &w, &wn);
        if (field == 0) {
            int wr = memchr(w, 'w', wn) != NULL, ex = memchr(w, 'x', wn) != NULL;
            if (!quoted || strspn(w, "awxMST") < wn || (wr && ex))
                return refuse(st, "a section with the flags ", w, wn);
        } else if (field == 1 && !in_list(w, wn, allowed_section_types)) {
            return refuse(st, "a section of type ", w, wn);
        } else if (field == 2 && (wn == 0 || strspn(w, "0123456789") < wn)) {
            return refuse(st, "a section entry size of ", w, wn);
        }
    }
    return 0;
}

/* .type NAME, TYPE: a function or data object. */
static int check_type(stmt *st, size_t k)
{
    const char *w;
    size_t wn;
    k = item(st, k, &w, &wn);
    if (k >= st->n || st->s[k] != ',')
        return refuse(st, "a .type without a type: ", w, wn);
    k = item(st, k + 1, &w, &wn);
    if (!in_list(w, wn, allowed_types) || k < st->n)
        return refuse(st, "a symbol of type ", w, wn);
    return 0;
}

/* A directive from k: allowed, with the arguments plain C gives it. */
static int check_directive(stmt *st, size_t k)
{
    size_t e = k + 1;
    while (e < st->n && name_char((unsigned char)st->s[e]))
        e++;
    const char *d = st->s + k;
    size_t dl = e - k;
    if (e < st->n && st->s[e] != ' ' && st->s[e] != '\t')
        return refuse(st, "the assembler directive ", d, e - k + 1);
    if (in_list(d, dl, allowed_cfi))
        return 0;
    if (!in_list(d, dl, allowed_directives))
        return refuse(st, "the assembler directive ", d, dl);
    if (dl == 8 && memcmp(d, ".section", 8) == 0)
        return check_section(st, e);
    if (in_list(d, dl, plain_switches) && skip_space(st, e) < st->n)
        return refuse(st, "a section switch with an argument: ", d, st->n - k);
    if (dl == 5 && memcmp(d, ".type", 5) == 0)
        return check_type(st, e);
    return 0;
}

/* One statement: labels, then nothing, a directive or an instruction. */
static int check_statement(stmt *st)
{
    size_t k = skip_space(st, 0);
    for (;;) {                        /* labels: name: or "quoted name": */
        size_t e = k;
        if (k < st->n && st->s[k] == '"')
            e = quoted_end(st, k);
        else
            while (e < st->n && name_char((unsigned char)st->s[e]))
                e++;
        if (e == k || e >= st->n || st->s[e] != ':')
            break;
        if (isdigit((unsigned char)st->s[k]))
            return refuse(st, "the numbered label ", st->s + k, e - k);
        k = skip_space(st, e + 1);
    }
    if (k >= st->n)
        return 0;
    unsigned char c = (unsigned char)st->s[k];
    if (c == '.')
        return check_directive(st, k);
    if (!isalpha(c))
        return refuse(st, "a statement the grader cannot read: ", st->s + k, st->n - k);
    size_t e = k;                     /* an instruction: a mnemonic, then operands */
    while (e < st->n && isalnum((unsigned char)st->s[e]))
        e++;
    size_t o = skip_space(st, e);
    if ((e < st->n && st->s[e] != ' ' && st->s[e] != '\t') ||
        (o < st->n && (st->s[o] == '=' || st->s[o] == ':')))
        return refuse(st, "a statement the grader cannot read: ", st->s + k, st->n - k);
    return 0;
}

/* ---- splitting the text into statements ---------------------------------------------- */

/* The index of the quote closing the string that opens at text[i], or len
   when it is not closed on its line or holds a control byte. */
static size_t string_close(const char *text, size_t len, size_t i)
{
    size_t j = i + 1;
    while (j < len && text[j] != '"' && text[j] != '\n' && (unsigned char)text[j] >= 0x20) {
        if (text[j] == '\\' && j + 1 < len && text[j + 1] != '\n')
            j++;
        j++;
    }
    return j < len && text[j] == '"' ? j : len;
}

/* The index of the '/' closing the block comment that opens at text[i] (its
   newlines added to *line), or len when it is not closed. */
static size_t comment_close(const char *text, size_t len, size_t i, int *line)
{
    size_t j = i + 2;
    while (j + 1 < len && !(text[j] == '*' && text[j + 1] == '/'))
        *line += text[j++] == '\n';
    return j + 1 < len ? j + 1 : len;
}

/* What a byte outside strings and comments that no compiler writes is, or NULL. */
static const char *stray(unsigned char c, char *buf, size_t n)
{
    if (c == '\'')
        return "a quote (') outside a string";
    if (c == '\\')
        return "a backslash outside a string";
    if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) {
        snprintf(buf, n, "the control byte 0x%02x", c);
        return buf;
    }
    return NULL;
}

int gr_scan_assembly(const char *text, size_t len, char *why, size_t whylen)
{
    int line = 1, start_line = 1, rc = 0;
    gr_strbuf cur = {0};                /* the statement so far: comments gone, strings whole */
    char buf[32];
    for (size_t i = 0; i <= len && rc == 0; i++) {
        unsigned char c = i < len ? (unsigned char)text[i] : '\n';
        const char *bad = c == '\n' ? NULL : stray(c, buf, sizeof buf);
        size_t j;
        if (bad) {
            snprintf(why, whylen, "%s", bad);
            rc = line;
        } else if (c == '"') {          /* a string or quoted name: nothing inside ends a statement */
            if ((j = string_close(text, len, i)) == len) {
                snprintf(why, whylen, "an unterminated string, or a control byte in one");
                rc = line;
            } else {
                start_line = cur.len == 0 ? line : start_line;
                gr_sb_appendn(&cur, text + i, j + 1 - i);
                i = j;
            }
        } else if (c == '#') {          /* a comment to the end of the line */
            for (j = i; j < len && text[j] != '\n'; j++)
                ;
            if ((j - i >= 4 && memcmp(text + i, "#APP", 4) == 0) ||
                (j - i >= 7 && memcmp(text + i, "#NO_APP", 7) == 0)) {
                snprintf(why, whylen, "inline assembly (%s)", text[i + 1] == 'A' ? "#APP" : "#NO_APP");
                rc = line;
            }
            i = j - 1;
        } else if (c == '/' && i + 1 < len && text[i + 1] == '*') {
            if ((i = comment_close(text, len, i, &line)) == len) {
                snprintf(why, whylen, "an unterminated /* comment");
                rc = line;
            }
            gr_sb_append(&cur, " ");    /* a block comment is one space */
        } else if (c == '\n' || c == ';') {
            stmt st = {cur.s ? cur.s : "", cur.len, why, whylen};
            if (check_statement(&st) != 0)
                rc = start_line;
            cur.len = 0;
            if (cur.s)
                cur.s[0] = '\0';
            line += c == '\n';
            start_line = line;
        } else {
            if (cur.len == 0 && c != ' ' && c != '\t')
                start_line = line;
            gr_sb_appendn(&cur, (const char *)&c, 1);
        }
    }
    free(cur.s);
    return rc;
}
