/*
 * model_failure.h - the message of the last hes.ModelFailure a Python
 * model's callback raised on this thread, which the model's describe_error
 * gives back to the library.  The library asks for it on the thread whose
 * callback failed, right after the callback returned, so one buffer per
 * thread keeps the messages of a sweep's threads apart.
 */
#ifndef HES_PY_MODEL_FAILURE_H
#define HES_PY_MODEL_FAILURE_H

#include <stddef.h>

/* Keeps text (len bytes, cut to 255) as this thread's message. */
void hes_py_failure_set(const char *text, size_t len);
/* This thread's message ("" if none). */
const char *hes_py_failure_get(void);

#endif
