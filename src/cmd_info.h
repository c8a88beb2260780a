/*
 * cmd_info.h - the parts of `hes info`: the command line and a robot file's
 * description (cmd_info.c), the text of a model (model_print.c) and of its
 * mechanical layer (mech_print.c).
 */
#ifndef HES_CMD_INFO_H
#define HES_CMD_INFO_H

#include "cli.h"

/* The text of a hybrid model: modes, transitions, the mechanical layer if
 * it has one, parameters, the orbit spec and the integrator. */
void model_print_text(const hes_model *m);
/* The text of an event-selected system: states, event functions,
 * parameters, the integrator and the orbit guess. */
void ess_model_print_text(const hes_ess_model *m, const char *problem);
/* For a model whose every mode is a mechanical system's (hes_mech_field):
 * the systems, what each mode holds and how each transition is derived;
 * nothing for any other model. */
void mech_print_model(const hes_model *m);

#endif
