/*
 * test_gp_quote.c - src/gp_quote.c against the real gnuplot: every byte,
 * random byte strings and strings written to break out of a gnuplot string
 * (quotes, backquotes, macros, backslashes, newlines, comments, ';') are
 * read back by gnuplot exactly as given, and none runs a command.  Skipped
 * (exit 77) without gnuplot.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gp_quote.h"
#include "testutil.h"

static char dir[] = "/tmp/hes-gp-quote-XXXXXX";

/* The n strings given to gnuplot one by one as `print <constant>` read
 * back from gnuplot's print file: what gnuplot made of the constants. */
static char *through_gnuplot(const char *const *s, int n, size_t *len)
{
    char out[128];
    snprintf(out, sizeof out, "%s/print.txt", dir);
    remove(out);
    FILE *g = popen("gnuplot 2>/dev/null", "w");
    ck_assert_ptr_nonnull(g);
    fputs("set print ", g);
    gp_quote(g, out);
    fputc('\n', g);
    for (int i = 0; i < n; i++) {
        fputs("print ", g);
        gp_quote(g, s[i]);
        fputc('\n', g);
    }
    fputs("unset print\n", g);
    ck_assert_int_eq(pclose(g), 0);
    FILE *f = fopen(out, "rb");
    ck_assert_ptr_nonnull(f);
    char *buf = NULL;
    size_t cap = 0;
    *len = 0;
    for (int c; (c = getc(f)) != EOF;) {
        if (*len + 1 >= cap) {
            cap = cap ? 2 * cap : 4096;
            buf = realloc(buf, cap);
            ck_assert_ptr_nonnull(buf);
        }
        buf[(*len)++] = (char)c;
    }
    fclose(f);
    return buf;
}

/* gnuplot printed each string followed by a newline, nothing else. */
static void assert_read_back(const char *const *s, int n)
{
    size_t len, want_len = 0;
    for (int i = 0; i < n; i++)
        want_len += strlen(s[i]) + 1;
    char *got = through_gnuplot(s, n, &len);
    char *want = malloc(want_len + 1), *w = want;
    ck_assert_ptr_nonnull(want);
    for (int i = 0; i < n; i++)
        w += sprintf(w, "%s\n", s[i]);
    ck_assert_uint_eq(len, want_len);
    ck_assert(memcmp(got, want, len) == 0);
    free(got);
    free(want);
}

START_TEST(test_every_byte_reads_back_as_itself)
{
    static char one[255][2], all[256];
    const char *s[256];
    for (int c = 1; c < 256; c++) {
        one[c - 1][0] = (char)c;
        one[c - 1][1] = '\0';
        s[c - 1] = one[c - 1];
        all[c - 1] = (char)c;
    }
    all[255] = '\0';
    s[255] = all;
    assert_read_back(s, 256);
}
END_TEST

START_TEST(test_random_byte_strings_read_back_as_themselves)
{
    enum { N = 2000 };
    static char buf[N][48];
    const char *s[N];
    unsigned long x = 12345;
    for (int i = 0; i < N; i++) {
        x = x * 6364136223846793005UL + 1442695040888963407UL;
        int n = 1 + (int)((x >> 33) % 47);
        for (int k = 0; k < n; k++) {
            x = x * 6364136223846793005UL + 1442695040888963407UL;
            int c = (int)((x >> 40) % 255) + 1;
            /* half of them from gnuplot's special characters */
            if (x >> 63)
                c = "'\"`@\\#;\n$%{}^&~!"[(x >> 20) % 16];
            buf[i][k] = (char)c;
        }
        buf[i][n] = '\0';
        s[i] = buf[i];
    }
    assert_read_back(s, N);
}
END_TEST

START_TEST(test_injection_strings_run_nothing)
{
    char pwned[128], s[16][256];
    const char *p[16];
    snprintf(pwned, sizeof pwned, "%s/pwned", dir);
    const char *fmt[] = {
        "x';system('touch %s');#",
        "x\";system(\"touch %s\");#",
        "x`touch %s`y",
        "x\\';system('touch %s');#\\",
        "x\\\";system(\"touch %s\");#",
        "x\nsystem(\"touch %s\")\n",
        "x'\nsystem('touch %s')\n'",
        "x\"\n! touch %s\n\"",
        "x\r! touch %s",
        "@z x'.@GPVAL_PWD.' ; print system('touch %s')",
        "x\"; c = \"system('touch %s')\"; @c; \"",
        "\\\\\\'\\\"`touch %s`",
    };
    int n = (int)(sizeof fmt / sizeof *fmt);
    for (int i = 0; i < n; i++) {
        snprintf(s[i], sizeof s[i], fmt[i], pwned);
        p[i] = s[i];
    }
    assert_read_back(p, n);
    ck_assert_msg(access(pwned, F_OK) != 0, "gnuplot ran a command from a string");
}
END_TEST

START_TEST(test_formatted_text_is_quoted_too)
{
    char out[128];
    snprintf(out, sizeof out, "%s/print.txt", dir);
    FILE *g = popen("gnuplot 2>/dev/null", "w");
    ck_assert_ptr_nonnull(g);
    fputs("set print ", g);
    gp_quote(g, out);
    fputs("\nprint ", g);
    gp_quotef(g, "psi over %s and %d", "a';system('id');#", 7);
    fputs("\nunset print\n", g);
    ck_assert_int_eq(pclose(g), 0);
    FILE *f = fopen(out, "r");
    char line[256];
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    fclose(f);
    ck_assert_str_eq(line, "psi over a';system('id');# and 7\n");
}
END_TEST

static Suite *gp_quote_suite(void)
{
    Suite *s = suite_create("gp_quote");
    TCase *tc = tcase_create("gp_quote");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_every_byte_reads_back_as_itself);
    tcase_add_test(tc, test_random_byte_strings_read_back_as_themselves);
    tcase_add_test(tc, test_injection_strings_run_nothing);
    tcase_add_test(tc, test_formatted_text_is_quoted_too);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        printf("test_gp_quote: gnuplot not found; skipped (install gnuplot-nox)\n");
        return 77;
    }
    if (!mkdtemp(dir))
        return 99;
    int rc = test_run_suite(gp_quote_suite());
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        rc = 1;
    return rc;
}
