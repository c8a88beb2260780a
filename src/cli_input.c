/*
 * cli_input.c - an input file given on the command line, read whole by the
 * library (regular files only, bounded size) and offered as a stream.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

FILE *cli_input_open(const char *cmd, const char *what, const char *path, char **data, int *rc)
{
    hes_error msg;
    size_t n;
    *data = NULL;
    hes_status st = hes_input_read(path, 0, data, &n, &msg);
    if (st != HES_OK) {
        fprintf(stderr, "%s: %s%s%s\n", cmd, what ? what : "", what ? ": " : "", msg.message);
        *rc = st == HES_ENOMEM || st == HES_EIO ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
        return NULL;
    }
    FILE *f = fmemopen(*data, n, "r");
    if (!f) {
        fprintf(stderr, "%s: %s: %s\n", cmd, path, strerror(errno));
        free(*data);
        *data = NULL;
        *rc = CLI_EXIT_FAILURE;
    }
    return f;
}

void cli_input_close(FILE *f, char *data)
{
    if (f)
        fclose(f);
    free(data);
}
