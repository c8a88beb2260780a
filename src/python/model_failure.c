/*
 * model_failure.c - this thread's hes.ModelFailure message
 * (model_failure.h).
 */
#include <string.h>

#include "model_failure.h"

static _Thread_local char message[256];

void hes_py_failure_set(const char *text, size_t len)
{
    if (len > sizeof message - 1)
        len = sizeof message - 1;
    memcpy(message, text, len);
    message[len] = 0;
}

const char *hes_py_failure_get(void)
{
    return message;
}
