/* buildcache.h: a lab's program kept by everything it was built from.
 *
 * The same bytes of a lab file build into the same program: a regrade, a
 * status or watch run over labs that did not change, a class where many hand
 * in the untouched stub or the same file. gr_buildcache_build is gr_build_lab with
 * a cache in front: a build that succeeded is kept under a key made of
 *   the student's file (its bytes, read as the build reads it: a regular file
 *   of a lab file's size, never through a link, a FIFO or a device),
 *   the rubric's bytes and the lab's folder name, the contract header's and
 *   labsup.h's bytes,
 *   the test child's objects and the toolchain (cc, as, ld, objcopy, the C
 *   library: path, size, modification time and inode), ATTNLAB_CC and
 *   ATTNLAB_OBJCOPY, and the grading program itself (so a rebuilt attnlab,
 *   with other checks or flags, starts afresh);
 * a later build with the same key gets a copy of that program, in its own work
 * folder, and the same static-data measure, without running a tool. The whole
 * key is stored with the entry and compared byte for byte, so a hash collision
 * is a miss, never another student's program. A build that fails is never
 * kept (a compile error is quick to find again, and a limit hit on a busy
 * machine must not outlive it).
 *
 * Where: $ATTNLAB_BUILD_CACHE, else $XDG_CACHE_HOME/attnlab/builds, else
 * ~/.cache/attnlab/builds; ATTNLAB_BUILD_CACHE=off keeps nothing. The folder
 * is the grading user's, mode 0700: the sandboxed tools and tests (user
 * nobody, Landlock) never reach it. At most GR_BUILDCACHE_ENTRIES programs are
 * kept, the oldest removed first.
 */
#ifndef GR_BUILDCACHE_H
#define GR_BUILDCACHE_H

#include <stddef.h>
#include "confined/build.h"

#define GR_BUILDCACHE_ENTRIES 256

/* gr_build_lab's contract, the cache in front of it. */
int gr_buildcache_build(const gr_rubric *r, const char *lab_dir_name, const char *src,
                        const gr_paths *paths, gr_build *out, char *err, size_t errlen);

/* The cache folder in use, or NULL when it is off (malloc'd). */
char *gr_buildcache_dir(void);

#endif
