/* json.h: every JSON file attnlab writes or reads, through one library.
 *
 * results.json is written by one student's grading and read back by batch,
 * merge, regrade and grade --test; a byte the writer lets through that a
 * reader refuses stops a whole class. So both sides are Jansson (Debian's
 * libjansson): strict RFC 8259 on the way out and the way in, the same
 * grammar, maintained outside attnlab. Jansson over json-c and cJSON: it
 * refuses invalid UTF-8 in both directions (never writes a file it would not
 * read), keeps an object's keys in insertion order (files diff and sign
 * stably), reports line and column of a parse error, and ships in Debian
 * with a static library.
 *
 * Bytes from a student (a folder name, a compiler's message, a program's
 * output) may be any bytes: gr_json_text turns them into valid UTF-8 first,
 * one U+FFFD per invalid byte, so every string is written and every string
 * read back.
 */
#ifndef GR_JSON_H
#define GR_JSON_H

#include <jansson.h>
#include <stddef.h>

/* A copy of s (NULL: "") as valid UTF-8: each byte that does not start a
   valid, shortest-form character becomes U+FFFD (malloc'd). */
char *gr_json_utf8_clean(const char *s);

/* A JSON string of s cleaned as gr_json_utf8_clean does (NULL: ""). Never NULL. */
json_t *gr_json_text(const char *s);

/* A JSON number for points or seconds: x snapped as every shown score is
   (cells.h's gr_points_snap: 12.999999999999996 is 13, 9.5999999999999908 is
   9.6), an integer when that is whole; 0 for NaN or infinity, which JSON
   cannot hold. Never NULL. */
json_t *gr_json_points(double x);

/* obj[key] = v, taking v (a grader bug aborts: jansson fails only without memory). */
void gr_json_put(json_t *obj, const char *key, json_t *v);

/* v as a file's text: two-space indent, a newline at the end (malloc'd). */
char *gr_json_dump(const json_t *v);

/* v in one canonical line (no spaces, keys in their order, numbers as
   gr_json_dump writes them): what a signature covers (malloc'd). */
char *gr_json_canonical(const json_t *v);

/* The JSON value in the regular file path (at most max bytes; a link, a pipe
   or a larger file is refused unread), or NULL with "path:line:column: what
   is wrong" in err. Free with json_decref. */
json_t *gr_json_load(const char *path, size_t max, char *err, size_t errlen);

/* The JSON value in text[0..len), or NULL with "name:line:column: what is
   wrong" in err. Free with json_decref. */
json_t *gr_json_parse(const char *name, const char *text, size_t len, char *err, size_t errlen);

#endif
