/*
 * base/input.c - the one way the library and the program open an input
 * file (robot files, descriptions, gait files, CSV tables, plugins).
 *
 * open(2) of a FIFO for reading blocks until a writer comes, and a device
 * such as /dev/zero or /dev/full never ends: a path given by a user must
 * not be able to hang the program.  So the file is opened with O_NONBLOCK
 * (which makes open(2) of a FIFO return at once), checked with fstat(2)
 * to be a regular file, and only then put back into blocking mode; its
 * size is bounded before it is read, and the read itself stops at the bound
 * (a file that grows while it is read is refused too).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef O_NOCTTY
#define O_NOCTTY 0
#endif

hes_status hes_input_open(const char *path, size_t max, int *fd, size_t *size, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (fd)
        *fd = -1;
    if (size)
        *size = 0;
    if (!path || !fd)
        return hes__say(msg, len, HES_EINVAL, "input file: needs a path and somewhere to put "
                        "its descriptor");
    if (!path[0])
        return hes__say(msg, len, HES_EINVAL, "input file: the path is empty");
    if (max == 0)
        max = HES_INPUT_MAX;
    int f = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (f < 0)
        return hes__say(msg, len, errno == ENOENT ? HES_ENOTFOUND : HES_EINVAL, "%s: %s", path,
                        strerror(errno));
    struct stat st;
    if (fstat(f, &st) != 0) {
        int e = errno;
        close(f);
        return hes__say(msg, len, HES_EIO, "%s: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(f);
        return hes__say(msg, len, HES_EINVAL, "%s is %s, not a regular file: give a file", path,
                        S_ISDIR(st.st_mode) ? "a directory"
                        : S_ISFIFO(st.st_mode) ? "a FIFO (named pipe)"
                        : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                        : S_ISSOCK(st.st_mode) ? "a socket" : "not a regular file");
    }
    if (st.st_size < 0 || (unsigned long long)st.st_size > (unsigned long long)max) {
        close(f);
        return hes__say(msg, len, HES_EINVAL, "%s is %lld bytes, more than the %zu bytes an "
                        "input file may have", path, (long long)st.st_size, max);
    }
    int flags = fcntl(f, F_GETFL);
    if (flags < 0 || fcntl(f, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        int e = errno;
        close(f);
        return hes__say(msg, len, HES_EIO, "%s: %s", path, strerror(e));
    }
    *fd = f;
    if (size)
        *size = (size_t)st.st_size;
    return HES_OK;
}

hes_status hes_input_read(const char *path, size_t max, char **data, size_t *size, hes_error *err)
{
    char *msg = hes__errbuf(err);
    size_t len = hes__errlen(err);
    if (data)
        *data = NULL;
    if (size)
        *size = 0;
    if (!data)
        return hes__say(msg, len, HES_EINVAL, "input file: needs somewhere to put the data");
    if (max == 0)
        max = HES_INPUT_MAX;
    int fd;
    size_t expect;
    hes_status st = hes_input_open(path, max, &fd, &expect, err);
    if (st != HES_OK)
        return st;
    /* room for the size fstat gave and one byte more: a file that grew
       past the bound is seen, never read without end */
    size_t cap = expect + 1, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf) {
        close(fd);
        return hes__say(msg, len, HES_ENOMEM, "%s: out of memory for %zu bytes", path, expect);
    }
    for (;;) {
        if (n == cap) {
            if (cap > max) {
                free(buf);
                close(fd);
                return hes__say(msg, len, HES_EINVAL, "%s grew past the %zu bytes an input "
                                "file may have while it was read", path, max);
            }
            size_t grow = cap < max / 2 ? 2 * cap : max + 1;
            char *nb = realloc(buf, grow + 1);
            if (!nb) {
                free(buf);
                close(fd);
                return hes__say(msg, len, HES_ENOMEM, "%s: out of memory", path);
            }
            buf = nb;
            cap = grow;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            close(fd);
            return hes__say(msg, len, HES_EIO, "%s: %s", path, strerror(e));
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    close(fd);
    if (n > max) {
        free(buf);
        return hes__say(msg, len, HES_EINVAL, "%s grew past the %zu bytes an input file may "
                        "have while it was read", path, max);
    }
    buf[n] = '\0';
    *data = buf;
    if (size)
        *size = n;
    return HES_OK;
}
