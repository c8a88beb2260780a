/*
 * test_input.c - input files (lib/base/input.c): hes_input_read returns a
 * regular file's bytes exactly and refuses, at once and with a reason,
 * everything else: a FIFO (whose open(2) would block), a device that never
 * ends (/dev/zero), a directory, a missing file, a file over the bound.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hes.h"
#include "testutil.h"

static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/hes-test-input.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

START_TEST(test_a_regular_file_is_read_exactly_and_nul_terminated)
{
    make_dir();
    char path[128], *data;
    size_t n;
    snprintf(path, sizeof path, "%s/f", dir);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fwrite("a\0b\nc", 1, 5, f);
    fclose(f);
    ck_assert_int_eq(hes_input_read(path, 0, &data, &n, NULL), HES_OK);
    ck_assert_uint_eq(n, 5);
    ck_assert(memcmp(data, "a\0b\nc", 5) == 0 && data[5] == '\0');
    free(data);
    hes_error msg;
    ck_assert_int_eq(hes_input_read(path, 4, &data, &n, &msg), HES_EINVAL);
    ck_assert_ptr_null(data);
    ck_assert_msg(strstr(msg.message, "more than the 4 bytes"), "%s", msg.message);
    unlink(path);
    rmdir(dir);
}
END_TEST

START_TEST(test_a_fifo_a_device_and_a_directory_are_refused_at_once)
{
    make_dir();
    char path[128], *data;
    hes_error msg;
    snprintf(path, sizeof path, "%s/fifo", dir);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    /* no writer: a blocking open(2) would never return (the test's
       timeout would fail it) */
    ck_assert_int_eq(hes_input_read(path, 0, &data, NULL, &msg), HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "FIFO"), "%s", msg.message);
    ck_assert_int_eq(hes_input_read("/dev/zero", 0, &data, NULL, &msg), HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "device"), "%s", msg.message);
    ck_assert_int_eq(hes_input_read(dir, 0, &data, NULL, &msg), HES_EINVAL);
    ck_assert_msg(strstr(msg.message, "directory"), "%s", msg.message);
    snprintf(path, sizeof path, "%s/none", dir);
    ck_assert_int_eq(hes_input_read(path, 0, &data, NULL, &msg), HES_ENOTFOUND);
    ck_assert_msg(strstr(msg.message, "No such file"), "%s", msg.message);
    int fd;
    ck_assert_int_eq(hes_input_open("/dev/full", 0, &fd, NULL, &msg), HES_EINVAL);
    ck_assert_int_eq(fd, -1);
    snprintf(path, sizeof path, "%s/fifo", dir);
    unlink(path);
    rmdir(dir);
}
END_TEST

static Suite *input_suite(void)
{
    Suite *s = suite_create("input");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 10);
    tcase_add_test(tc, test_a_regular_file_is_read_exactly_and_nul_terminated);
    tcase_add_test(tc, test_a_fifo_a_device_and_a_directory_are_refused_at_once);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return test_run_suite(input_suite());
}
