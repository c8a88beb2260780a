/*
 * model/robot_xml.c - what hes checks of a robot file (MJCF or URDF)
 * before MuJoCo reads it.
 *
 * MuJoCo 2.2.2's URDF reader dereferences a null joint for any joint type
 * it does not know (type="free", "hinge", a typo: a segmentation fault
 * inside mj_loadXML), its compiler silently raises a negative mass or
 * inertia to the file's boundmass and boundinertia, and it opens the
 * files a robot file names (<include file>, meshes, textures) with a
 * blocking open(2), which a FIFO hangs.  So before MuJoCo sees a file, a
 * small scanner reads its elements and attributes (comments, processing
 * instructions, DOCTYPE and CDATA skipped; the five named entities and
 * character references decoded, as tinyxml2 does) and refuses:
 *   - a URDF <joint> (a child of <robot>) whose type is not one of URDF's
 *     revolute, continuous, prismatic, fixed, floating, planar;
 *   - a negative mass or principal inertia (MJCF <inertial mass
 *     diaginertia>, <geom mass>; URDF <mass value>, <inertia ixx iyy izz>);
 *   - a file attribute (file, filename) naming something that exists but
 *     is not a regular file, where MuJoCo would look for it (the robot
 *     file's folder, with <compiler meshdir texturedir assetdir>, the name
 *     alone as MuJoCo's URDF reader takes it); an MJCF <include>d file is
 *     checked the same way, eight levels deep at most.
 * A file the scanner cannot read as XML is refused with the line.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "model/model_internal.h"

#define XML_MAX_ATTRS 64
#define XML_MAX_INCLUDE_DEPTH 8

typedef struct {
    const char *name, *value;
} xml_attr;

typedef struct scan scan;
/* called for every start tag: its name, attributes, depth (the root 0) */
typedef int (*element_fn)(scan *s, const char *name, const xml_attr *a, int na, int depth,
                          int line);

struct scan {
    const char *path;        /* the file scanned, for messages */
    char *dir;               /* its folder, with a trailing '/' (or "") */
    char *msg;
    size_t len;
    char root[32];           /* the root element's name */
    char meshdir[512], texturedir[512], assetdir[512];
    int include_depth;
    hes_status status;
};

static int fail(scan *s, hes_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(scan *s, hes_status st, const char *fmt, ...)
{
    char buf[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    s->status = hes__say(s->msg, s->len, st, "robot %s: %s", s->path, buf);
    return 1;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int is_name_char(char c)
{
    return c && !is_space(c) && !strchr("<>/=\"'!?", c);
}

/* One UTF-8 encoding of code point u into out (at most 4 bytes); its length. */
static int utf8(unsigned long u, char *out)
{
    if (u < 0x80) {
        out[0] = (char)u;
        return 1;
    }
    if (u < 0x800) {
        out[0] = (char)(0xC0 | (u >> 6));
        out[1] = (char)(0x80 | (u & 0x3F));
        return 2;
    }
    if (u < 0x10000) {
        out[0] = (char)(0xE0 | (u >> 12));
        out[1] = (char)(0x80 | ((u >> 6) & 0x3F));
        out[2] = (char)(0x80 | (u & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (u >> 18));
    out[1] = (char)(0x80 | ((u >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((u >> 6) & 0x3F));
    out[3] = (char)(0x80 | (u & 0x3F));
    return 4;
}

/* Decode the entities of v in place (the result is never longer). */
static void decode(char *v)
{
    static const struct {
        const char *name;
        char c;
    } named[] = { { "lt;", '<' }, { "gt;", '>' }, { "amp;", '&' }, { "quot;", '"' },
                  { "apos;", '\'' } };
    char *w = v;
    while (*v) {
        if (*v != '&') {
            *w++ = *v++;
            continue;
        }
        size_t k;
        for (k = 0; k < sizeof named / sizeof named[0]; k++) {
            size_t l = strlen(named[k].name);
            if (strncmp(v + 1, named[k].name, l) == 0) {
                *w++ = named[k].c;
                v += 1 + l;
                break;
            }
        }
        if (k < sizeof named / sizeof named[0])
            continue;
        if (v[1] == '#') {
            int hex = v[2] == 'x' || v[2] == 'X';
            char *end;
            unsigned long u = strtoul(v + 2 + hex, &end, hex ? 16 : 10);
            if (end > v + 2 + hex && *end == ';' && u > 0 && u <= 0x10FFFF && end - v < 16) {
                char enc[4];
                int n = utf8(u, enc);
                /* "&#N;" has at least 4 characters, "&#xN;" 5: never longer */
                memcpy(w, enc, (size_t)n);
                w += n;
                v = end + 1;
                continue;
            }
        }
        *w++ = *v++;         /* not an entity: kept, as tinyxml2 keeps it */
    }
    *w = '\0';
}

/* The line of position at: counted on from the last position asked
 * (positions only move forwards), so that a scan costs O(n). */
typedef struct {
    const char *at;
    int line;
} line_counter;

static int line_of(line_counter *lc, const char *at)
{
    for (; lc->at < at; lc->at++)
        lc->line += *lc->at == '\n';
    return lc->line;
}

/* Markup that holds no element at *pp (a comment, a CDATA section, a
 * processing instruction, a declaration with its internal subset): 1 with
 * *pp past it, 0 when *pp is not such markup, -1 after saying why. */
static int skip_markup(scan *s, char **pp, line_counter *lc)
{
    static const struct { const char *open, *close, *what; } kinds[] = {
        { "<!--", "-->", "a comment that does not end" },
        { "<![CDATA[", "]]>", "a CDATA section that does not end" },
        { "<?", "?>", "a processing instruction that does not end" },
    };
    char *p = *pp;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        size_t n = strlen(kinds[k].open);
        if (strncmp(p, kinds[k].open, n) != 0)
            continue;
        char *e = strstr(p + n, kinds[k].close);
        if (!e)
            return fail(s, HES_EINVAL, "line %d: %s", line_of(lc, p), kinds[k].what), -1;
        *pp = e + strlen(kinds[k].close);
        return 1;
    }
    if (p[1] != '!')
        return 0;
    int br = 0;   /* DOCTYPE, with an internal subset in brackets */
    for (p += 2; *p && (br > 0 || *p != '>'); p++)
        br += (*p == '[') - (*p == ']');
    if (!*p)
        return fail(s, HES_EINVAL, "line %d: a declaration that does not end",
                    line_of(lc, *pp)), -1;
    *pp = p + 1;
    return 1;
}

/* The end tag at *pp, which must close the innermost open element: *pp
 * past it and *depth one less, 0; -1 after saying why. */
static int end_tag(scan *s, char **pp, line_counter *lc, const char **open_tags, int *depth)
{
    char *p = *pp, *e = strchr(p, '>');
    if (!e)
        return fail(s, HES_EINVAL, "line %d: an end tag that does not end", line_of(lc, p)), -1;
    if (*depth == 0)
        return fail(s, HES_EINVAL, "line %d: an end tag without its start tag",
                    line_of(lc, p)), -1;
    char *n = p + 2, *ne = n;
    while (is_name_char(*ne))
        ne++;
    const char *want = open_tags[*depth - 1];
    if ((size_t)(ne - n) != strlen(want) || strncmp(n, want, (size_t)(ne - n)) != 0)
        return fail(s, HES_EINVAL, "line %d: </%.*s> closes <%s>", line_of(lc, p),
                    (int)(ne - n > 40 ? 40 : ne - n), n, want), -1;
    --*depth;
    *pp = e + 1;
    return 0;
}

/* The attributes of the start tag <name (name .. name_end) at *pp up to
 * its > or />: into attrs (*na, values decoded in place), *empty for />;
 * *pp past the tag, 0; -1 after saying why. */
static int tag_attrs(scan *s, char **pp, line_counter *lc, const char *tag, const char *name,
                     const char *name_end, xml_attr *attrs, int *na, int *empty)
{
    char *p = *pp;
    int nl = (int)(name_end - name > 40 ? 40 : name_end - name);
    *na = *empty = 0;
    for (;;) {
        char *before = p;
        while (is_space(*p))
            p++;
        if (*p == '>') {
            p++;
            break;
        }
        if (p[0] == '/' && p[1] == '>') {
            p += 2;
            *empty = 1;
            break;
        }
        if (p == before || !is_name_char(*p))
            return fail(s, HES_EINVAL, "line %d: malformed tag <%.*s>", line_of(lc, tag), nl,
                        name), -1;
        char *an = p;
        while (is_name_char(*p))
            p++;
        char *an_end = p;
        while (is_space(*p))
            p++;
        if (*p != '=')
            return fail(s, HES_EINVAL, "line %d: attribute without a value in <%.*s>",
                        line_of(lc, tag), nl, name), -1;
        p++;
        while (is_space(*p))
            p++;
        char q = *p;
        if (q != '"' && q != '\'')
            return fail(s, HES_EINVAL, "line %d: attribute value not in quotes in <%.*s>",
                        line_of(lc, tag), nl, name), -1;
        char *v = ++p, *ve = strchr(p, q);
        if (!ve)
            return fail(s, HES_EINVAL, "line %d: an attribute value that does not end",
                        line_of(lc, tag)), -1;
        if (*na == XML_MAX_ATTRS)
            return fail(s, HES_EINVAL, "line %d: more than %d attributes in one element",
                        line_of(lc, tag), XML_MAX_ATTRS), -1;
        *an_end = '\0';
        *ve = '\0';
        p = ve + 1;
        decode(v);
        attrs[(*na)++] = (xml_attr){ an, v };
    }
    *pp = p;
    return 0;
}

/* Scan buf (NUL-terminated, modified in place): every start tag to fn. */
static int scan_xml(scan *s, char *buf, element_fn fn)
{
    char *p = buf;
    int depth = 0, seen_root = 0, cap = 0, rc = 1;
    const char **open_tags = NULL;   /* the names of the elements open at each depth */
    xml_attr attrs[XML_MAX_ATTRS];
    line_counter lc = { buf, 1 };
    while (*p) {
        if (*p != '<') {
            p++;
            continue;
        }
        int skipped = skip_markup(s, &p, &lc);
        if (skipped < 0)
            goto out;
        if (skipped)
            continue;
        if (p[1] == '/') {
            if (end_tag(s, &p, &lc, open_tags, &depth))
                goto out;
            continue;
        }
        /* a start tag: name, attributes, then > or /> */
        char *tag = p++, *name = p;
        while (is_name_char(*p))
            p++;
        if (p == name) {
            fail(s, HES_EINVAL, "line %d: '<' not followed by an element name",
                 line_of(&lc, tag));
            goto out;
        }
        char *name_end = p;
        int na, empty;
        if (tag_attrs(s, &p, &lc, tag, name, name_end, attrs, &na, &empty))
            goto out;
        *name_end = '\0';
        if (depth == 0) {
            if (seen_root) {
                fail(s, HES_EINVAL, "line %d: a second root element <%s>",
                     line_of(&lc, tag), name);
                goto out;
            }
            seen_root = 1;
            snprintf(s->root, sizeof s->root, "%s", name);
        }
        if (fn(s, name, attrs, na, depth, line_of(&lc, tag)))
            goto out;
        if (!empty) {
            if (depth == cap) {
                int nc = cap ? 2 * cap : 64;
                const char **nt = realloc(open_tags, sizeof *nt * (size_t)nc);
                if (!nt) {
                    s->status = hes__say(s->msg, s->len, HES_ENOMEM, "out of memory");
                    goto out;
                }
                open_tags = nt;
                cap = nc;
            }
            open_tags[depth++] = name;
        }
    }
    if (!seen_root)
        fail(s, HES_EINVAL, "no XML element in the file");
    else if (depth != 0)
        fail(s, HES_EINVAL, "<%s> not closed at the end of the file", open_tags[depth - 1]);
    else
        rc = 0;
out:
    free(open_tags);
    return rc;
}

static const char *attr(const xml_attr *a, int na, const char *name)
{
    for (int i = 0; i < na; i++)
        if (strcmp(a[i].name, name) == 0)
            return a[i].value;
    return NULL;
}

/* The numbers of a value: each must be finite and >= 0 (a mass, a
 * principal inertia).  1 after the refusal. */
static int nonnegative(scan *s, const char *elem, const char *an, const char *v, int line)
{
    if (!v)
        return 0;
    const char *p = v;
    for (;;) {
        while (is_space(*p))
            p++;
        if (!*p)
            return 0;
        char *end;
        double x = strtod(p, &end);
        if (end == p)
            return 0;        /* not a number: MuJoCo says so */
        if (!isfinite(x) || x < 0)
            return fail(s, HES_EINVAL, "line %d: <%s %s=\"%.60s\">: a mass or inertia must be "
                        "finite and >= 0", line, elem, an, v);
        p = end;
    }
}

static int check_file(scan *s, const char *path, int line, const char *elem);

/* A file attribute's value: where MuJoCo may look for it, each place that
 * exists must be a regular file; an included MJCF file is scanned too. */
static int file_attr(scan *s, const char *elem, const char *v, int line)
{
    if (!v[0])
        return 0;
    const char *base = strrchr(v, '/');
    base = base ? base + 1 : v;
    const char *dirs[] = { "", s->meshdir, s->texturedir, s->assetdir };
    char cand[2048];
    for (int d = 0; d < 4; d++)
        for (int b = 0; b < 2; b++) {
            const char *name = b ? base : v;
            if (d > 0 && !dirs[d][0])
                continue;
            if (name[0] == '/')
                snprintf(cand, sizeof cand, "%s", name);
            else if (dirs[d][0] == '/')
                snprintf(cand, sizeof cand, "%s/%s", dirs[d], name);
            else
                snprintf(cand, sizeof cand, "%s%s%s%s", s->dir, dirs[d], dirs[d][0] ? "/" : "",
                         name);
            struct stat st;
            if (stat(cand, &st) != 0)
                continue;
            if (!S_ISREG(st.st_mode))
                return fail(s, HES_EINVAL, "line %d: <%s> names %s, which is not a regular "
                            "file", line, elem, cand);
            if (strcmp(elem, "include") == 0 && d == 0 && b == 0 && check_file(s, cand, line,
                                                                             elem))
                return 1;
        }
    return 0;
}

/* The first pass: <compiler meshdir texturedir assetdir> only. */
static int compiler_dirs(scan *s, const char *name, const xml_attr *a, int na, int depth,
                         int line)
{
    (void)depth, (void)line;
    if (strcmp(name, "compiler") == 0) {
        const char *md = attr(a, na, "meshdir"), *td = attr(a, na, "texturedir"),
                   *ad = attr(a, na, "assetdir");
        if (md)
            snprintf(s->meshdir, sizeof s->meshdir, "%s", md);
        if (td)
            snprintf(s->texturedir, sizeof s->texturedir, "%s", td);
        if (ad)
            snprintf(s->assetdir, sizeof s->assetdir, "%s", ad);
    }
    return 0;
}

static int element(scan *s, const char *name, const xml_attr *a, int na, int depth, int line)
{
    int urdf = strcmp(s->root, "robot") == 0;
    if (urdf && depth == 1 && strcmp(name, "joint") == 0) {
        static const char *const types[] = { "revolute", "continuous", "prismatic", "fixed",
                                             "floating", "planar" };
        const char *jn = attr(a, na, "name"), *t = attr(a, na, "type");
        int ok = 0;
        for (size_t i = 0; t && i < sizeof types / sizeof types[0]; i++)
            ok |= strcmp(t, types[i]) == 0;
        if (!ok)
            return fail(s, HES_EINVAL, "line %d: joint '%.80s' has %s%.40s%s: URDF's joint "
                        "types are revolute, continuous, prismatic, fixed, floating and planar",
                        line, jn ? jn : "(unnamed)", t ? "type \"" : "no type", t ? t : "",
                        t ? "\"" : "");
    }
    if (urdf ? strcmp(name, "mass") == 0 : strcmp(name, "inertial") == 0 ||
                                                 strcmp(name, "geom") == 0) {
        if (nonnegative(s, name, urdf ? "value" : "mass", attr(a, na, urdf ? "value" : "mass"),
                        line))
            return 1;
    }
    if (!urdf && strcmp(name, "inertial") == 0 &&
        nonnegative(s, name, "diaginertia", attr(a, na, "diaginertia"), line))
        return 1;
    if (urdf && strcmp(name, "inertia") == 0)
        for (int i = 0; i < 3; i++) {
            static const char *const diag[] = { "ixx", "iyy", "izz" };
            if (nonnegative(s, name, diag[i], attr(a, na, diag[i]), line))
                return 1;
        }
    for (int i = 0; i < na; i++)
        if (strcmp(a[i].name, "file") == 0 || strcmp(a[i].name, "filename") == 0)
            if (file_attr(s, name, a[i].value, line))
                return 1;
    return 0;
}

/* An included file, read as any input and scanned with the same rules. */
static int check_file(scan *s, const char *path, int line, const char *elem)
{
    if (s->include_depth >= XML_MAX_INCLUDE_DEPTH)
        return fail(s, HES_EINVAL, "line %d: <%s> nested more than %d files deep", line, elem,
                    XML_MAX_INCLUDE_DEPTH);
    char *text;
    hes_error why;
    hes_status st = hes_input_read(path, 0, &text, NULL, &why);
    if (st != HES_OK)
        return fail(s, st == HES_ENOTFOUND ? HES_EINVAL : st, "line %d: <%s>: %s", line, elem,
                    why.message);
    scan inner = *s;
    inner.path = path;
    inner.include_depth++;
    inner.root[0] = '\0';
    /* an included file's root is <mujoco>: its elements are MJCF's */
    int rc = scan_xml(&inner, text, element);
    free(text);
    if (rc)
        s->status = inner.status;
    return rc;
}

hes_status hes__robot_xml_check(const char *path, const char *text, size_t n, char *msg,
                                size_t len)
{
    scan s;
    memset(&s, 0, sizeof s);
    s.path = path;
    s.msg = msg;
    s.len = len;
    s.status = HES_OK;
    if (memchr(text, '\0', n))
        return hes__say(msg, len, HES_EINVAL, "robot %s: a NUL byte in the file: not an XML "
                        "robot file", path);
    const char *slash = strrchr(path, '/');
    size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
    char *buf = malloc(n + 1), *dir = malloc(dl + 1);
    if (!buf || !dir) {
        free(buf), free(dir);
        return hes__say(msg, len, HES_ENOMEM, "out of memory");
    }
    memcpy(buf, text, n);
    buf[n] = '\0';
    memcpy(dir, path, dl);
    dir[dl] = '\0';
    s.dir = dir;
    /* <compiler meshdir> may come after the meshes that use it: a first
       pass for the folders */
    char *first = strdup(buf);
    if (!first) {
        free(buf), free(dir);
        return hes__say(msg, len, HES_ENOMEM, "out of memory");
    }
    scan dirs = s;
    int rc = scan_xml(&dirs, first, compiler_dirs);
    free(first);
    if (!rc) {
        memcpy(s.meshdir, dirs.meshdir, sizeof s.meshdir);
        memcpy(s.texturedir, dirs.texturedir, sizeof s.texturedir);
        memcpy(s.assetdir, dirs.assetdir, sizeof s.assetdir);
        rc = scan_xml(&s, buf, element);
    } else
        s.status = dirs.status;
    free(buf);
    free(dir);
    return rc ? s.status : HES_OK;
}
