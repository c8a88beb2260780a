/*
 * test_abi.c - a program checks the library's binary interface the way a
 * binding would (hes_abi_check with the HES_ABI_VERSION of the headers it
 * was built against), using only the public header.  Built twice: as
 * test_abi, against these headers (the check passes and the library's
 * version is the headers'), and as test_abi_other with
 * -DTEST_ABI_BUILT_WITH=(a version the library does not have), standing
 * for a program built against another release: the check must refuse it
 * with HES_EINVAL and a message naming both versions.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <string.h>

#include <hes.h>

#ifndef TEST_ABI_BUILT_WITH
#define TEST_ABI_BUILT_WITH HES_ABI_VERSION
#endif

int main(void)
{
    char want[64];
    hes_error msg = {""};
    hes_status st = hes_abi_check(TEST_ABI_BUILT_WITH, &msg);
    if (TEST_ABI_BUILT_WITH == HES_ABI_VERSION) {
        if (st != HES_OK || hes_abi_version() != HES_ABI_VERSION) {
            fprintf(stderr, "test_abi: the headers' own version is refused: %s\n", msg.message);
            return 1;
        }
        printf("test_abi: ABI version %d accepted\n", hes_abi_version());
        return 0;
    }
    snprintf(want, sizeof want, "ABI version %d", TEST_ABI_BUILT_WITH);
    if (st != HES_EINVAL || !strstr(msg.message, want)) {
        fprintf(stderr, "test_abi: a program built against ABI version %d was not refused "
                "(status %s, message '%s')\n", TEST_ABI_BUILT_WITH, hes_strerror(st), msg.message);
        return 1;
    }
    printf("test_abi: built against version %d, refused: %s\n", TEST_ABI_BUILT_WITH, msg.message);
    return 0;
}
