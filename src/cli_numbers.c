/*
 * cli_numbers.c - strict parsing of the numbers and lists on a command
 * line: the whole text must be the number (no blanks, no trailing
 * characters, no NaN or infinity), lists are comma-separated.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* strtod/strtol skip leading blanks and accept an empty string as 0; a
 * command-line number must be exactly a number. */
static int number_text_plausible(const char *text)
{
    return text && text[0] != '\0' && !isspace((unsigned char)text[0]);
}

int cli_parse_double(const char *text, double *value)
{
    char *end;
    double v;

    if (!number_text_plausible(text))
        return -1;
    errno = 0;
    v = strtod(text, &end);
    if (end == text || *end != '\0')
        return -1;
    if (!isfinite(v))
        return -2; /* "nan", "inf", or an overflow to HUGE_VAL */
    *value = v;
    return 0;
}

int cli_parse_int(const char *text, int *value)
{
    char *end;
    long v;

    if (!number_text_plausible(text))
        return -1;
    errno = 0;
    v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || v < INT_MIN || v > INT_MAX)
        return -1;
    *value = (int)v;
    return 0;
}

int cli_parse_ulong(const char *text, unsigned long *value)
{
    char *end;
    unsigned long v;

    /* strtoul accepts "-1" and wraps it around; a seed is never negative. */
    if (!number_text_plausible(text) || text[0] == '-')
        return -1;
    errno = 0;
    v = strtoul(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE)
        return -1;
    *value = v;
    return 0;
}

int cli_parse_vector(const char *text, double **v, int *n)
{
    int count = 1, i = 0;
    const char *s;
    char item[128];

    *v = NULL;
    *n = 0;
    for (s = text; *s; s++)
        count += *s == ',';
    double *out = malloc(sizeof(double) * (size_t)count);
    if (!out)
        return -2;
    for (s = text; i < count; i++) {
        const char *end = strchr(s, ',');
        size_t len = end ? (size_t)(end - s) : strlen(s);

        if (len >= sizeof item)
            break;
        memcpy(item, s, len);
        item[len] = '\0';
        if (cli_parse_double(item, &out[i]) != 0)
            break;
        s += len + 1;
    }
    if (i < count) {
        free(out);
        return -1;
    }
    *v = out;
    *n = count;
    return 0;
}

int cli_parse_contacts(const char *cmd, const char *text, hes_robot_contact **out, char **buf)
{
    *out = NULL;
    *buf = strdup(text);
    size_t commas = 1;
    for (const char *p = text; *p; p++)
        commas += *p == ',';
    hes_robot_contact *c = malloc(sizeof *c * commas);
    if (!*buf || !c) {
        free(*buf), free(c);
        *buf = NULL;
        fprintf(stderr, "%s: out of memory\n", cmd);
        return -2;
    }
    int n = 0;
    for (char *tok = strtok(*buf, ","); tok; tok = strtok(NULL, ",")) {
        char *colon = strrchr(tok, ':');
        double mu;
        if (!colon || colon == tok || cli_parse_double(colon + 1, &mu) || !(mu >= 0)) {
            fprintf(stderr, "%s: --contacts expects NAME:MU,... (mu >= 0), got '%s'\n", cmd,
                    text);
            free(*buf), free(c);
            *buf = NULL;
            return -1;
        }
        *colon = '\0';
        for (int i = 0; i < n; i++)
            if (strcmp(c[i].site, tok) == 0) {
                fprintf(stderr, "%s: --contacts names '%s' twice: give each contact once\n",
                        cmd, tok);
                free(*buf), free(c);
                *buf = NULL;
                return -1;
            }
        c[n].site = tok;
        c[n].mu = mu;
        n++;
    }
    if (n == 0) {
        fprintf(stderr, "%s: --contacts expects NAME:MU,... , got '%s'\n", cmd, text);
        free(*buf), free(c);
        *buf = NULL;
        return -1;
    }
    *out = c;
    return n;
}
