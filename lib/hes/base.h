/**
 * \file
 * hes/base.h - status, feature flags, bounded reading of input files (part
 * of <hes.h>, which includes every area's header).
 */
#ifndef HES_H_BASE
#define HES_H_BASE

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* =========================================================== base: status */

/* ------------------------------------------------------------------ status */

/** What a fallible call returns: HES_OK, or why it failed (hes_strerror names
 * it; the object's or the hes_error's message gives the detail). */
typedef enum {
    HES_OK = 0,     /**< success */
    HES_EINVAL,     /**< invalid argument, model or parameter value */
    HES_ENOMEM,     /**< allocation failed */
    HES_ESOLVER,    /**< the integrator (CVODES) or LAPACK failed */
    HES_EGRAZING,   /**< guard reached tangentially: |Dtg + Dxg F_I| tiny */
    HES_EZENO,      /**< too many events in too short a time */
    HES_ENOEVENT,   /**< no event before the time limit */
    HES_ENONFINITE, /**< the state or a model output became NaN or infinite */
    HES_EMODEL,     /**< a model callback reported failure */
    HES_ENOORBIT,   /**< no periodic orbit found (or it is not an orbit of the full system) */
    HES_EMAXITER,   /**< iteration limit reached */
    HES_EDEFECTIVE, /**< eigen-decomposition unusable (defective or repeated eigenvalue) */
    HES_ENOTFOUND,  /**< unknown problem, parameter, mode or transition name */
    HES_EDIVERGED,  /**< a perturbed trajectory left every neighbourhood of the orbit */
    HES_EIO,        /**< a file or stream could not be written */
    HES_ELCP,       /**< a complementarity problem has no solution the solver finds, or its
                         solution fails the complementarity check */
    HES_EINFEASIBLE /**< a requested motion cannot be produced within the constraints
                         (friction cone, torque limits, unilateral contact) */
} hes_status;

/** Short, stable name of a status, e.g.\ "grazing event". */
const char *hes_strerror(hes_status status);

/** Exit status the program uses for a library status: 0 OK, 2 bad input
 * (HES_EINVAL, HES_ENOTFOUND), 1 any numerical failure. */
int hes_status_exit_code(hes_status status);

/* ------------------------------------------------------------------ errors */

/** \struct hes_error
 * Why a call failed, for the calls that have no object of their own to
 * keep it (constructors, loaders, solvers of plain arrays): the message,
 * "" after a success.  Such a call takes a hes_error * as its last
 * argument (NULL: the caller does not want the message) and returns the
 * status; objects keep their own last message (hes_system_errmsg, ...).
 * The struct is its message buffer and nothing else, so a binding can
 * allocate sizeof(hes_error) bytes or read it with hes_error_message. */
#define HES_ERROR_LEN 512 /**< the size of hes_error.message, its NUL included */
typedef struct hes_error {
    char message[HES_ERROR_LEN]; /**< the message, NUL-terminated ("" after a success) */
} hes_error;

/** The message of e ("" for NULL). */
const char *hes_error_message(const hes_error *e);

/* --------------------------------------------------------------------- ABI */

/** The version of the library's binary interface: the layout of every
 * public struct and the meaning of every call.  It changes whenever one of
 * them does.  A program or a language binding built against these headers
 * checks once that the library it runs with has the same:
 *
 *     if (hes_abi_check(HES_ABI_VERSION, &err) != HES_OK) ...
 *
 * hes_abi_check returns HES_EINVAL, with both versions in err, when they
 * differ; hes_abi_version gives the library's. @{ */
#define HES_ABI_VERSION 6
int hes_abi_version(void);
hes_status hes_abi_check(int built_with, hes_error *err);
/** @} */

/* ---------------------------------------------------------------- features */

/** What this libhes was built with, as words separated by single spaces:
 * "base", then "mujoco" (robot files, lib/model/robot.c), "siconos" and
 * "gsl" (impact laws and post-impact sets), "ipopt" (collocation's
 * default solver) for each that configure found.  `hes --version` prints
 * it on its second line, "features: ...". */
const char *hes_features(void);

/* ------------------------------------------------------------- input files */

/** Every file the library or the program reads (robot files, descriptions,
 * gait files, CSV tables, plugins) is opened by hes_input_open
 * (lib/base/input.c): without blocking (O_NONBLOCK, so that a FIFO does not
 * hang open(2)), checked by fstat(2) to be a regular file (a directory,
 * FIFO, device or socket is refused: /dev/zero would never end), at most
 * `max` bytes (0: HES_INPUT_MAX), then put back into blocking mode.  *fd
 * (and *size, may be NULL) on success; HES_ENOTFOUND for a missing file,
 * HES_EINVAL (err naming the path and why) for any other refusal, HES_EIO
 * for a failed fstat.  hes_input_read reads the whole file into *data
 * (NUL-terminated, free() it; *size bytes, may be NULL), never more than
 * max bytes even if the file grows while it is read. @{ */
#define HES_INPUT_MAX ((size_t)256 << 20)
hes_status hes_input_open(const char *path, size_t max, int *fd, size_t *size, hes_error *err);
hes_status hes_input_read(const char *path, size_t max, char **data, size_t *size, hes_error *err);
/** @} */

#ifdef __cplusplus
}
#endif

#endif /* HES_H_BASE */
