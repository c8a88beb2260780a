/*
 * impact_laws.c - the single-valued impact laws of `hes impact`: the law of
 * --law (anitescu-potra, or sequential:A,B,... with the contacts' order)
 * and the outcomes compared with the sampled set (Anitescu-Potra, the
 * contacts' order and its reverse).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_impact.h"

#define CMD "hes impact"

/* "sequential:A,B" into order (k names, each once; room for k);
 * CLI_EXIT_USAGE after a message */
static int parse_order(const hes_impact_problem *pb, const char *text, int *order)
{
    char *buf = strdup(text);
    int n = 0, *used = calloc((size_t)(pb->k > 0 ? pb->k : 1), sizeof *used);
    if (!buf || !used) {
        free(buf), free(used);
        fprintf(stderr, "%s: out of memory\n", CMD);
        return CLI_EXIT_FAILURE;
    }
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        int found = -1;
        for (int i = 0; i < pb->k; i++)
            if (strcmp(tok, impact_contact_name(pb, i)) == 0)
                found = i;
        if (found < 0 || used[found] || n >= pb->k) {
            fprintf(stderr, "%s: --law sequential: '%s' is not an unused contact of %s (", CMD,
                    tok, pb->name);
            for (int i = 0; i < pb->k; i++)
                fprintf(stderr, "%s%s", i ? ", " : "", impact_contact_name(pb, i));
            fprintf(stderr, ")\n");
            free(buf), free(used);
            return CLI_EXIT_USAGE;
        }
        used[found] = 1;
        order[n++] = found;
    }
    free(buf), free(used);
    if (n != pb->k) {
        fprintf(stderr, "%s: --law sequential needs all %d contacts of %s in order\n", CMD, pb->k,
                pb->name);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

int impact_choose_law(const hes_impact_problem *pb, const char *law, hes_impact_outcome *one,
                      int *single)
{
    int rc;

    *single = strcmp(law, "routh") != 0;
    int seq = strncmp(law, "sequential:", 11) == 0;
    if (hes_impact_outcome_init(one, seq ? HES_LAW_SEQUENTIAL : HES_LAW_ANITESCU_POTRA,
                                pb->mech->d, pb->k) != HES_OK) {
        fprintf(stderr, "%s: out of memory\n", CMD);
        return CLI_EXIT_FAILURE;
    }
    if (strcmp(law, "anitescu-potra") == 0) {
        one->law = HES_LAW_ANITESCU_POTRA;
    } else if (seq) {
        if ((rc = parse_order(pb, law + 11, one->order)))
            return rc;
    } else if (*single) {
        return cli_bad_value(CMD, "--law", law,
                             "routh, anitescu-potra or sequential:NAME,NAME,...");
    }
    return 0;
}

int impact_outcomes(const hes_impact_setup *s, const hes_impact_set *S,
                    const hes_impact_outcome *one, hes_impact_outcome *outs, int *n_outs)
{
    hes_error msg;
    int k = s->k;

    /* the one asked for, or Anitescu-Potra and the contacts' order and its
       reverse (each with its arrays: the caller frees them) */
    *n_outs = S ? 3 : 1;
    for (int j = 0; j < *n_outs; j++)
        if (hes_impact_outcome_init(&outs[j], S && j == 0 ? HES_LAW_ANITESCU_POTRA
                                              : S ? HES_LAW_SEQUENTIAL : one->law,
                                    s->d, k) != HES_OK) {
            *n_outs = j;
            fprintf(stderr, "%s: out of memory\n", CMD);
            return CLI_EXIT_FAILURE;
        }
    for (int i = 0; i < k; i++)
        if (S) {
            outs[1].order[i] = i;
            outs[2].order[i] = k - 1 - i;
        } else {
            outs[0].order[i] = one->order[i];
        }
    for (int j = 0; j < *n_outs; j++) {
        hes_status st = hes_impact_outcome_compute(&s->contacts, s->v, S, &outs[j], &msg);
        /* a sequence that does not end is an answer when comparing */
        if (st != HES_OK && !(st == HES_EMAXITER && S)) {
            fprintf(stderr, "%s: %s\n", CMD, msg.message);
            return st == HES_EMAXITER ? CLI_EXIT_FAILURE : hes_status_exit_code(st);
        }
    }
    return 0;
}
