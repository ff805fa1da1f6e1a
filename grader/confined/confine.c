/* confine.c: the kernel's walls around the toolchain (see confine.h).
 *
 * The parent prepares everything that allocates or may fail for its own
 * reasons (the view's paths, the Landlock ruleset, the seccomp program, a
 * root-owned mount point); the child, between fork and exec, only makes
 * system calls, in this order:
 *
 *   namespace   unshare, a tmpfs root holding the view (bind mounts, read-only
 *               but for the work folder), pivot_root into it, old root gone
 *   identity    no groups, gid and uid nobody (after the mounts: they need root)
 *   landlock    no_new_privs, then the ruleset
 *   seccomp     the deny-list
 *   cwd         the work folder, as the new root names it
 */
#include "confined/confine.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#define NOBODY 65534
#define MAX_VIEW 24
#define MAX_FILTER 512

/* ---- Landlock's ABI, spelled out: the installed header may predate it ---------- */

struct ll_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;   /* ABI 4 */
    uint64_t scoped;               /* ABI 6 */
};

struct ll_path_beneath {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

#define LL_RULE_PATH_BENEATH 1
#define LL_VERSION (1U << 0)
#define LL_EXECUTE     (1ULL << 0)
#define LL_WRITE_FILE  (1ULL << 1)
#define LL_READ_FILE   (1ULL << 2)
#define LL_READ_DIR    (1ULL << 3)
#define LL_REMOVE_DIR  (1ULL << 4)
#define LL_REMOVE_FILE (1ULL << 5)
#define LL_MAKE_DIR    (1ULL << 7)
#define LL_MAKE_REG    (1ULL << 8)
#define LL_REFER       (1ULL << 13)  /* ABI 2 */
#define LL_TRUNCATE    (1ULL << 14)  /* ABI 3 */
#define LL_IOCTL_DEV   (1ULL << 15)  /* ABI 5 */
#define LL_NET_BIND_TCP    (1ULL << 0)
#define LL_NET_CONNECT_TCP (1ULL << 1)
#define LL_SCOPE_ABSTRACT_UNIX (1ULL << 0)
#define LL_SCOPE_SIGNAL        (1ULL << 1)

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

/* Every filesystem right the given ABI knows: all of them are denied unless a rule allows. */
static uint64_t ll_all_fs(int abi)
{
    uint64_t all = (1ULL << 13) - 1;
    if (abi >= 2)
        all |= LL_REFER;
    if (abi >= 3)
        all |= LL_TRUNCATE;
    if (abi >= 5)
        all |= LL_IOCTL_DEV;
    return all;
}

static int landlock_abi(void)
{
    long v = syscall(SYS_landlock_create_ruleset, NULL, 0, LL_VERSION);
    return v > 0 ? (int)v : 0;
}

/* ---- the view: what a tool may see ---------------------------------------------- */

typedef enum view_kind { VIEW_DIR, VIEW_FILE, VIEW_LINK } view_kind;

typedef struct view_entry {
    char *path;            /* absolute, as the tool sees it */
    view_kind kind;
    char *link_to;         /* VIEW_LINK: the symlink's text (/bin -> usr/bin) */
    uint64_t access;       /* Landlock rights beneath it */
    unsigned long locked;  /* mount flags a read-only remount must keep */
    int writable;          /* the work folder */
} view_entry;

/* The toolchain's folders and the few files it opens. /usr/local is left out on
   purpose: it is where an installed attnlab and other local software live. */
static const char *const ro_dirs[] = {
    "/usr/bin", "/usr/lib", "/usr/lib64", "/usr/libexec", "/usr/include", "/etc/alternatives", NULL
};
static const char *const ro_files[] = { "/etc/ld.so.cache", "/dev/null", "/dev/urandom", NULL };
static const char *const root_links[] = { "/bin", "/lib", "/lib64", "/sbin", NULL };

struct gr_confine {
    gr_confine_layers layers;
    view_entry view[MAX_VIEW];
    int n_view;
    char *work;            /* the work folder, same path inside and out */
    char *mount_point;     /* root-owned empty folder the tmpfs root is mounted on */
    int ruleset_fd;        /* Landlock, or -1 */
    struct sock_filter *filter;
    unsigned short filter_len;
    uid_t uid;             /* the grader's ids, for the user namespace's maps */
    gid_t gid;
};

static unsigned long locked_flags(const char *path)
{
    struct statvfs sv;
    unsigned long f = 0;
    if (statvfs(path, &sv) != 0)
        return 0;
    if (sv.f_flag & ST_NOSUID) f |= MS_NOSUID;
    if (sv.f_flag & ST_NODEV) f |= MS_NODEV;
    if (sv.f_flag & ST_NOEXEC) f |= MS_NOEXEC;
    if (sv.f_flag & ST_NOATIME) f |= MS_NOATIME;
    if (sv.f_flag & ST_NODIRATIME) f |= MS_NODIRATIME;
    if (sv.f_flag & ST_RELATIME) f |= MS_RELATIME;
    return f;
}

static void add_view(gr_confine *c, const char *path, view_kind kind, uint64_t access, int writable)
{
    if (c->n_view == MAX_VIEW)
        return;
    view_entry *v = &c->view[c->n_view++];
    v->path = gr_xstrdup(path);
    v->kind = kind;
    v->access = access;
    v->writable = writable;
    v->locked = kind == VIEW_LINK ? 0 : locked_flags(path);
}

/* The entries of this machine: what exists of the lists above, root symlinks kept
   as symlinks (merged /usr), or as folders where they are real folders. */
static void make_view(gr_confine *c, const char *const *extra_ro)
{
    int abi = c->layers.landlock_abi;
    uint64_t ro = LL_EXECUTE | LL_READ_FILE | LL_READ_DIR;
    uint64_t dev = LL_READ_FILE | LL_WRITE_FILE | (abi >= 5 ? LL_IOCTL_DEV : 0);
    uint64_t rw = LL_READ_FILE | LL_READ_DIR | LL_WRITE_FILE | LL_REMOVE_FILE | LL_REMOVE_DIR |
                  LL_MAKE_REG | LL_MAKE_DIR | (abi >= 2 ? LL_REFER : 0) | (abi >= 3 ? LL_TRUNCATE : 0);
    struct stat st;
    for (int i = 0; root_links[i]; i++) {
        char target[PATH_MAX];
        ssize_t n = readlink(root_links[i], target, sizeof target - 1);
        if (n > 0) {
            target[n] = '\0';
            add_view(c, root_links[i], VIEW_LINK, 0, 0);
            c->view[c->n_view - 1].link_to = gr_xstrdup(target);
        } else if (lstat(root_links[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            add_view(c, root_links[i], VIEW_DIR, ro, 0);
        }
    }
    for (int i = 0; ro_dirs[i]; i++)
        if (lstat(ro_dirs[i], &st) == 0 && S_ISDIR(st.st_mode))
            add_view(c, ro_dirs[i], VIEW_DIR, ro, 0);
    for (int i = 0; extra_ro && extra_ro[i]; i++)
        if (stat(extra_ro[i], &st) == 0 && S_ISDIR(st.st_mode))
            add_view(c, extra_ro[i], VIEW_DIR, ro, 0);
    for (int i = 0; ro_files[i]; i++)
        if (stat(ro_files[i], &st) == 0 && !S_ISDIR(st.st_mode))
            add_view(c, ro_files[i], VIEW_FILE, strncmp(ro_files[i], "/dev/", 5) == 0 ? dev : LL_READ_FILE, 0);
    add_view(c, c->work, VIEW_DIR, rw, 1);
}

/* ---- parent: Landlock ruleset ---------------------------------------------------- */

/* A ruleset denying every right of this ABI (files, TCP, outside signals): fd or -1. */
static int ruleset_deny_all(int abi)
{
    struct ll_ruleset_attr attr = {ll_all_fs(abi), 0, 0};
    size_t size = sizeof attr.handled_access_fs;
    if (abi >= 4) {
        attr.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
        size = offsetof(struct ll_ruleset_attr, scoped);
    }
    if (abi >= 6) {
        attr.scoped = LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL;
        size = sizeof attr;
    }
    return (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
}

/* Allow rights beneath path in ruleset fd: 0 or -1 (errno set). */
static int allow_beneath(int fd, const char *path, uint64_t rights)
{
    struct ll_path_beneath pb = {rights, open(path, O_PATH | O_CLOEXEC)};
    if (pb.parent_fd < 0)
        return -1;
    int rc = (int)syscall(SYS_landlock_add_rule, fd, LL_RULE_PATH_BENEATH, &pb, 0);
    int e = errno;
    close(pb.parent_fd);
    errno = e;
    return rc == 0 ? 0 : -1;
}

int gr_confine_landlock_only_exec(const char *exe)
{
    const gr_confine_layers *l = gr_confine_probe();
    if (!l->landlock_abi)
        return -1;
    int fd = ruleset_deny_all(l->landlock_abi);
    if (fd >= 0 && allow_beneath(fd, exe, LL_EXECUTE | LL_READ_FILE) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

int gr_confine_landlock_enforce(int ruleset_fd)
{
    return syscall(SYS_landlock_restrict_self, ruleset_fd, 0) == 0 ? 0 : -1;
}

static int make_ruleset(gr_confine *c, char *err, size_t errlen)
{
    c->ruleset_fd = ruleset_deny_all(c->layers.landlock_abi);
    if (c->ruleset_fd < 0) {
        gr_set_err(err, errlen, "confine: cannot create a Landlock ruleset: %s", strerror(errno));
        return -1;
    }
    for (int i = 0; i < c->n_view; i++) {
        const view_entry *v = &c->view[i];
        if (v->kind == VIEW_LINK)
            continue;
        if (allow_beneath(c->ruleset_fd, v->path, v->access) != 0) {
            gr_set_err(err, errlen, "confine: cannot add a Landlock rule for %s: %s", v->path,
                       strerror(errno));
            return -1;
        }
    }
    return 0;
}

/* ---- parent: the seccomp deny-list ------------------------------------------------- */

/* System calls a compiler never needs and an escape would: each fails with EPERM. */
static const char *const denied_calls[] = {
    "ptrace", "process_vm_readv", "process_vm_writev", "socket", "socketpair", "mount",
    "umount2", "pivot_root", "chroot", "unshare", "setns", "keyctl", "add_key", "request_key",
    "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter",
    "io_uring_register", "kexec_load", "kexec_file_load", "init_module", "finit_module",
    "delete_module", "open_by_handle_at", "name_to_handle_at", "fanotify_init",
    "mknod", "mknodat", "swapon", "swapoff", "reboot", "syslog", "acct", "quotactl",
    "move_mount", "open_tree", "fsopen", "fsmount", "fspick", "mount_setattr", NULL
};

static int make_filter(gr_confine *c, char *err, size_t errlen)
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    int bad = !ctx;
    if (ctx) {
        bad |= seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS) != 0;
        for (int i = 0; denied_calls[i]; i++) {
            int nr = seccomp_syscall_resolve_name(denied_calls[i]);
            if (nr >= 0)
                bad |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0) != 0;
        }
        /* clone into a new namespace: refused; clone3 hides its flags, so glibc is
           told it does not exist and falls back to clone */
        static const unsigned long ns_flags[] = {CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID,
                                                 CLONE_NEWNET, CLONE_NEWIPC, CLONE_NEWUTS,
                                                 CLONE_NEWCGROUP};
        for (size_t i = 0; i < sizeof ns_flags / sizeof ns_flags[0]; i++)
            bad |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                                    SCMP_A0(SCMP_CMP_MASKED_EQ, ns_flags[i], ns_flags[i])) != 0;
        int nr3 = seccomp_syscall_resolve_name("clone3");
        if (nr3 >= 0)
            bad |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), nr3, 0) != 0;
    }
    int p[2] = {-1, -1};
    if (!bad && pipe2(p, O_CLOEXEC) == 0) {
        bad = seccomp_export_bpf(ctx, p[1]) != 0;
        close(p[1]);
        c->filter = gr_xmalloc(MAX_FILTER * sizeof *c->filter);
        ssize_t n = bad ? -1 : read(p[0], c->filter, MAX_FILTER * sizeof *c->filter);
        bad |= n <= 0 || n % (ssize_t)sizeof *c->filter != 0 ||
               (size_t)n == MAX_FILTER * sizeof *c->filter;
        c->filter_len = bad ? 0 : (unsigned short)((size_t)n / sizeof *c->filter);
        close(p[0]);
    } else {
        bad = 1;
    }
    if (ctx)
        seccomp_release(ctx);
    if (bad)
        gr_set_err(err, errlen, "confine: libseccomp could not compile the toolchain's deny-list");
    return bad ? -1 : 0;
}

/* ---- child: the steps (system calls only) ------------------------------------------- */

/* dst = a + b, bounded; 0 or -1 (ENAMETOOLONG). */
static int join(char *dst, size_t n, const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la + lb + 1 > n) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(dst, a, la);
    memcpy(dst + la, b, lb + 1);
    return 0;
}

/* mkdir -p path (every component; existing ones are fine). */
static int mkdir_p(char *path)
{
    for (char *s = path + 1;; s++) {
        if (*s == '/' || *s == '\0') {
            char keep = *s;
            *s = '\0';
            int rc = mkdir(path, 0755);
            *s = keep;
            if (rc != 0 && errno != EEXIST)
                return -1;
            if (keep == '\0')
                return 0;
        }
    }
}

static int write_text(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, strlen(text));
    close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* "N N 1": map our own id, the one line an unprivileged user namespace may have. */
static void id_map_line(char *buf, unsigned id)
{
    char num[12];
    int at = (int)sizeof num;
    num[--at] = '\0';
    do
        num[--at] = (char)('0' + id % 10);
    while ((id /= 10) != 0);
    size_t n = strlen(num + at);
    memcpy(buf, num + at, n);
    buf[n] = ' ';
    memcpy(buf + n + 1, num + at, n);
    memcpy(buf + 2 * n + 1, " 1\n", 4);
}

static const char *enter_user_namespace(const gr_confine *c)
{
    char line[40];
    if (unshare(CLONE_NEWUSER) != 0)
        return "enter a user namespace";
    if (write_text("/proc/self/setgroups", "deny") != 0)
        return "deny setgroups in the user namespace";
    id_map_line(line, (unsigned)c->uid);
    if (write_text("/proc/self/uid_map", line) != 0)
        return "map its uid";
    id_map_line(line, (unsigned)c->gid);
    if (write_text("/proc/self/gid_map", line) != 0)
        return "map its gid";
    return NULL;
}

/* Bind one view entry into the new root at root + its path. */
static const char *bind_entry(const char *root, const view_entry *v)
{
    char at[PATH_MAX];
    if (join(at, sizeof at, root, v->path) != 0)
        return "name a mount point";
    if (v->kind == VIEW_LINK)
        return symlink(v->link_to, at) == 0 ? NULL : "make a symlink in the new root";
    if (v->kind == VIEW_DIR) {
        if (mkdir_p(at) != 0)
            return "make a folder in the new root";
    } else {
        char *slash = strrchr(at, '/');
        *slash = '\0';
        int ok = mkdir_p(at) == 0;
        *slash = '/';
        int fd = ok ? open(at, O_WRONLY | O_CREAT | O_CLOEXEC, 0644) : -1;
        if (fd < 0)
            return "make a file in the new root";
        close(fd);
    }
    if (mount(v->path, at, NULL, MS_BIND, NULL) != 0)
        return "bind a folder into the new root";
    unsigned long fl = MS_REMOUNT | MS_BIND | MS_NOSUID | MS_NODEV | v->locked;
    fl |= v->writable ? MS_NOEXEC : MS_RDONLY;
    if (v->kind == VIEW_FILE && strncmp(v->path, "/dev/", 5) == 0)
        fl &= ~(unsigned long)MS_NODEV;  /* /dev/null must stay a device */
    if (mount(NULL, at, NULL, fl, NULL) != 0)
        return "make a bind mount read-only";
    return NULL;
}

static const char *enter_namespace(const gr_confine *c)
{
    if (c->uid != 0) {
        const char *why = enter_user_namespace(c);
        if (why)
            return why;
    }
    if (unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC) != 0)
        return "enter a mount namespace";
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        return "make its mounts private";
    const char *root = c->mount_point;
    if (mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=256k") != 0)
        return "mount its new root";
    for (int i = 0; i < c->n_view; i++) {
        const char *why = bind_entry(root, &c->view[i]);
        if (why)
            return why;
    }
    char old[PATH_MAX];
    if (join(old, sizeof old, root, "/.old") != 0 || mkdir(old, 0700) != 0)
        return "make a place for the old root";
    if (syscall(SYS_pivot_root, root, old) != 0 || chdir("/") != 0)
        return "pivot into the new root";
    if (umount2("/.old", MNT_DETACH) != 0 || rmdir("/.old") != 0)
        return "let go of the old root";
    if (mount(NULL, "/", NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) != 0)
        return "make the new root read-only";
    return NULL;
}

static const char *become_nobody(void)
{
    if (setgroups(0, NULL) != 0)
        return "drop supplementary groups";
    if (setgid(NOBODY) != 0 || setuid(NOBODY) != 0)
        return "switch to user nobody";
    if (getuid() == 0 || geteuid() == 0 || setuid(0) == 0) {
        errno = EPERM;
        return "stop being root";
    }
    return NULL;
}

const char *gr_confine_enter(const gr_confine *c)
{
    /* The new root's folders and the files tools write must be readable by
       user nobody whatever umask the grader was started with (077 is common
       on lab servers); this process is the tool's alone. */
    umask(022);
    const char *why = NULL;
    if (c->layers.namespace && (why = enter_namespace(c)) != NULL)
        return why;
    if (c->layers.identity && (why = become_nobody()) != NULL)
        return why;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return "set no_new_privs";
    if (c->layers.landlock_abi) {
        if (gr_confine_landlock_enforce(c->ruleset_fd) != 0)
            return "enforce its Landlock ruleset";
        close(c->ruleset_fd);
    }
    if (c->layers.seccomp) {
        struct sock_fprog prog = {c->filter_len, c->filter};
        if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0)
            return "install its seccomp filter";
    }
    if (chdir(c->work) != 0)
        return "enter its work folder";
    return NULL;
}

/* ---- probing and describing ------------------------------------------------------- */

static int disabled(const char *layer)
{
    const char *s = getenv("ATTNLAB_CONFINE_DISABLE");
    size_t n = strlen(layer);
    for (const char *p = s; p && (p = strstr(p, layer)) != NULL; p += n)
        if ((p == s || p[-1] == ',') && (p[n] == '\0' || p[n] == ','))
            return 1;
    return 0;
}

static int seccomp_works(void)
{
    return prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 && seccomp_arch_native() != 0;
}

/* Try the namespace step in a throwaway child that runs /bin/true's way: the
   view of this machine, a scratch work folder. */
static int namespace_works(void)
{
    gr_confine_layers only = {0, 1, 0, 0};
    char *dir = gr_xstrdup("/tmp/attnlab-probe-XXXXXX");
    const char *tmp = getenv("TMPDIR");
    if (tmp && *tmp) {
        free(dir);
        dir = gr_xasprintf("%s/attnlab-probe-XXXXXX", tmp);
    }
    if (!mkdtemp(dir)) {
        free(dir);
        return 0;
    }
    char *work = gr_xasprintf("%s/work", dir);
    char *mp = gr_xasprintf("%s/root", dir);
    int ok = mkdir(work, 0700) == 0 && mkdir(mp, 0700) == 0;
    gr_confine c;
    memset(&c, 0, sizeof c);
    c.layers = only;
    c.work = work;
    c.mount_point = mp;
    c.ruleset_fd = -1;
    c.uid = getuid();
    c.gid = getgid();
    make_view(&c, NULL);
    pid_t pid = ok ? fork() : -1;
    if (pid == 0)
        _exit(gr_confine_enter(&c) == NULL && access("/usr/include", R_OK) == 0 &&
              access("/proc/self", F_OK) != 0 ? 0 : 1);
    int st = 1;
    if (pid > 0)
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
            ;
    for (int i = 0; i < c.n_view; i++) {
        free(c.view[i].path);
        free(c.view[i].link_to);
    }
    rmdir(work);
    rmdir(mp);
    rmdir(dir);
    free(work);
    free(mp);
    free(dir);
    return pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

const gr_confine_layers *gr_confine_probe(void)
{
    static gr_confine_layers known;
    static int probed;
    if (!probed) {
        known.identity = geteuid() == 0 && !disabled("identity");
        known.landlock_abi = disabled("landlock") ? 0 : landlock_abi();
        known.seccomp = !disabled("seccomp") && seccomp_works();
        known.namespace = !disabled("namespace") && namespace_works();
        probed = 1;
    }
    return &known;
}

void gr_confine_describe(const gr_confine_layers *l, gr_strbuf *out)
{
    if (l->identity)
        gr_sb_append(out, "user nobody, ");
    if (l->namespace)
        gr_sb_append(out, "mount+network namespace, ");
    if (l->landlock_abi)
        gr_sb_printf(out, "Landlock ABI %d, ", l->landlock_abi);
    if (l->seccomp)
        gr_sb_append(out, "seccomp, ");
    gr_sb_append(out, "rlimits");
}

/* ---- the plan ------------------------------------------------------------------- */

gr_confine *gr_confine_new(const char *work_dir, const gr_confine_layers *want, char *err,
                           size_t errlen)
{
    gr_confine *c = gr_xcalloc(1, sizeof *c);
    c->layers = *gr_confine_probe();
    if (want) {
        c->layers.identity &= want->identity;
        c->layers.namespace &= want->namespace;
        c->layers.seccomp &= want->seccomp;
        if (!want->landlock_abi)
            c->layers.landlock_abi = 0;
    }
    c->ruleset_fd = -1;
    c->uid = getuid();
    c->gid = getgid();
    char real[PATH_MAX];
    if (!realpath(work_dir, real)) {
        gr_set_err(err, errlen, "confine: cannot resolve the work folder %s: %s", work_dir,
                   strerror(errno));
        gr_confine_free(c);
        return NULL;
    }
    c->work = gr_xstrdup(real);
    /* the tmpfs root's mount point: beside the work folder, owned by the grader,
       so nothing a tool does in its folder can move it */
    char *slash = strrchr(real, '/');
    *slash = '\0';
    c->mount_point = gr_xasprintf("%s/ns-XXXXXX", *real ? real : "/");
    if (!mkdtemp(c->mount_point)) {
        gr_set_err(err, errlen, "confine: cannot make a mount point beside %s: %s", work_dir,
                   strerror(errno));
        free(c->mount_point);
        c->mount_point = NULL;
        gr_confine_free(c);
        return NULL;
    }
    /* the compiler may live elsewhere (ATTNLAB_CC=/opt/gcc-14/bin/gcc): its prefix */
    const char *extra[2] = {NULL, NULL};
    char prefix[PATH_MAX];
    const char *cc = getenv("ATTNLAB_CC");
    if (cc && cc[0] == '/' && realpath(cc, prefix) && strncmp(prefix, "/usr/", 5) != 0) {
        for (int up = 0; up < 2; up++)
            if ((slash = strrchr(prefix, '/')) != NULL && slash != prefix)
                *slash = '\0';
        extra[0] = prefix;
    }
    make_view(c, extra);
    if (c->layers.identity && chown(c->work, NOBODY, NOBODY) != 0) {
        gr_set_err(err, errlen, "confine: cannot give the work folder %s to user nobody: %s",
                   c->work, strerror(errno));
        gr_confine_free(c);
        return NULL;
    }
    if ((c->layers.landlock_abi && make_ruleset(c, err, errlen) != 0) ||
        (c->layers.seccomp && make_filter(c, err, errlen) != 0)) {
        gr_confine_free(c);
        return NULL;
    }
    return c;
}

const gr_confine_layers *gr_confine_layers_of(const gr_confine *c)
{
    return &c->layers;
}

void gr_confine_free(gr_confine *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->n_view; i++) {
        free(c->view[i].path);
        free(c->view[i].link_to);
    }
    if (c->ruleset_fd >= 0)
        close(c->ruleset_fd);
    if (c->mount_point)
        rmdir(c->mount_point);
    free(c->mount_point);
    free(c->work);
    free(c->filter);
    free(c);
}
