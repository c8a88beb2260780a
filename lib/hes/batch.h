/**
 * \file
 * hes/batch.h - plugins and sweeps (part of <hes.h>, which includes every
 * area's header).
 */
#ifndef HES_H_BATCH
#define HES_H_BATCH

#include <stdio.h>

#include <hes/trajopt.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ==================================================== batch: many systems */

/* ----------------------------------------------------------------- plugins */

/**
 * A user model compiled as a shared module (lib/batch/plugin.c, libltdl) exports
 *
 *     const hes_model *hes_plugin_model(void);
 *
 * returning its description, whose abi field is HES_MODEL_ABI of the hes.h
 * it was compiled with (share/examples/rimless_wheel.c builds as one with
 * -DHES_PLUGIN; share/examples/Makefile shows the pkg-config build).
 * hes_plugin_open refuses a module without that function, with another ABI
 * or with an invalid model, with a message in err.  path is a file: a name
 * without '/' is the file of that name in the current directory (never a
 * library of the loader's search path).  Load and destroy plugins
 * from one thread (libltdl's own state); the model then serves any number
 * of systems on any threads. @{
 */
#define HES_PLUGIN_ENTRY "hes_plugin_model"
/** A loaded plugin module (hes_plugin_open, hes_plugin_destroy). */
typedef struct hes_plugin hes_plugin;
hes_status hes_plugin_open(const char *path, hes_plugin **plugin, const hes_model **model,
                           hes_error *err);
/** @} */
/** An event-selected system as a plugin exports instead
 *
 *     const hes_ess_model *hes_plugin_ess_model(int *abi);
 *
 * which sets *abi = HES_ESS_MODEL_ABI (share/examples/ball_walls.c); the
 * loader refuses another ABI or a model hes_ess_validate refuses. @{ */
#define HES_PLUGIN_ESS_ENTRY "hes_plugin_ess_model"
hes_status hes_plugin_open_ess(const char *path, hes_plugin **plugin,
                               const hes_ess_model **model, hes_error *err);
/** @} */
/** Either kind: exactly one of *model and *ess is set on success (`hes
 * --model PATH.so`). */
hes_status hes_plugin_open_any(const char *path, hes_plugin **plugin, const hes_model **model,
                               const hes_ess_model **ess, hes_error *err);
/** Unloads the module: its model must not be used afterwards. */
void hes_plugin_destroy(hes_plugin *plugin);

/* ------------------------------------- a system from a name, the catalog */
/**
 * One way from a name to a system (lib/batch/open.c): a built-in model of
 * either kind by its name, or a plugin file of either kind (a name with a
 * '/' or ending in ".so"; *plugin is then the loaded module, which must
 * outlive the system: destroy the system first, then hes_plugin_destroy;
 * NULL for a built-in).  HES_ENOTFOUND for an unknown name or a missing
 * plugin file, HES_EINVAL for an impact problem (not a system) or a plugin
 * the loader refuses, with err saying which.
 */
hes_status hes_system_open(const char *name, hes_system **out, hes_plugin **plugin, hes_error *err);
/** Everything built in, in one list: the hybrid models, then the
 * event-selected systems ("hybrid", "ess": hes_kind_name), then the impact
 * problems ("impact").  Entry i's name, kind and one-line description
 * (each may be NULL); HES_EINVAL for i outside [0, hes_catalog_count()). @{ */
int hes_catalog_count(void);
hes_status hes_catalog_entry(int i, const char **name, const char **kind,
                             const char **description);
/** @} */

/* ------------------------------------------------------------------ sweeps */

/**
 * \file
 *
 * Batch stability analysis (lib/batch/sweep.c): the orbit, multipliers and psi at
 * every point of a list of parameter values, on `jobs` threads, each with
 * its own system.  Consecutive points warm-start from each other's orbit;
 * a point that fails is reported with its status and message.
 */
#define HES_SWEEP_MAX_MULT 16   /**< the most multipliers a row keeps */
#define HES_SWEEP_MAX_PARAMS 64 /**< the most parameters a swept model has */
#define HES_SWEEP_MAX_STATE 32  /**< the most components of x0 a row keeps */

/** One point's outcome in a sweep (hes_sweep_options.row). */
typedef struct {
    int index;                   /**< of the point */
    hes_status status;           /**< HES_OK, or why the point failed */
    char message[320];           /**< when it failed */
    /** The analysis, when status is HES_OK.  A point that failed has psi and
     * period NaN, stable 0 and no verdict: read status first (its verdict
     * field is not a verdict, whatever its value). @{ */
    double psi, period;
    int stable;                  /**< verdict == HES_STABLE */
    hes_verdict verdict;
    /** @} */
    int n_mult;                  /**< nontrivial multipliers, by modulus (at most 16) */
    /** their real and imaginary parts @{ */
    double re[HES_SWEEP_MAX_MULT], im[HES_SWEEP_MAX_MULT];
    /** @} */
    /** every parameter after the analysis (solved ones solved, optimised ones
     * optimised): n_values of them @{ */
    int n_values;
    double values[HES_SWEEP_MAX_PARAMS];
    /** @} */
    /** @{ */
    int n_x0;                    /**< the orbit's section state (its first 32 components) */
    double x0[HES_SWEEP_MAX_STATE];
    /** @} */
    /** Nonzero when the orbit left the branch of its neighbours: see
     * hes_sweep_branch_jump (0 when the point has no two computed
     * predecessors on a line). */
    int branch_jump;
} hes_sweep_row;

/** What a sweep computes and where its rows go (hes_sweep_options_init, then the
 * parameters, the points and the row callback). */
typedef struct {
    /** @{ */
    int n_params;                /**< swept parameters (indices into the model's) */
    const int *params;
    /** @} */
    int n_points;                /**< the number of points */
    const double *values;        /**< n_points x n_params, point after point */
    int optimize;                /**< nonzero: hes_shape_optimize at each point (defaults) */
    int jobs;                    /**< threads, >= 1 */
    const unsigned char *skip;   /**< n_points flags (e.g.\ done before a resume), or NULL */
    /** Called once per point, serialised, in the order of the points' indices
     * (skipped points have no row), whatever the number of threads; nonzero
     * stops the sweep (points already running finish).  With next_block the
     * rows come in completion order and without branch_jump: the caller that
     * collects them orders them with a hes_sweep_order. */
    int (*row)(void *ctx, const hes_sweep_row *row);
    void *ctx;                   /**< ctx of row and next_block */
    /** Optional, for sweeps shared by several processes (hes sweep under
     * mpirun): returns the first index of the next block of `block`
     * consecutive points to compute (>= n_points: none left); called
     * serialised.  NULL: a counter within this process. */
    int (*next_block)(void *ctx, int block);
    /** The index strides of the lines along which neighbours are compared
     * (hes_sweep_branch_jump): for a tensor grid the product of the counts of
     * the axes after each axis; NULL (or 0 strides): stride 1 only. @{ */
    int n_strides;
    const int *strides;
    /** @} */
    const hes_settings *settings; /**< every point's solver settings (NULL: defaults) */
} hes_sweep_options;

/** No points, no callbacks, one job, default settings: the caller then sets
 * the parameters, the points and the row callback. */
void hes_sweep_options_init(hes_sweep_options *o);

/**
 * Branch jumps.  Three points a, b, c equally spaced on a line of parameter
 * space (p_c - p_b = p_b - p_a != 0, to 1e-9 of the values) whose orbits lie
 * on one smooth branch change each orbit quantity q (the period, each
 * section-state component) by nearly equal steps: q_c - q_b = (q_b - q_a) +
 * O(h^2).  The step from b to c is more than the spacing explains when
 * |q_c - q_b| > 3 |q_b - q_a| + 1e-6 max(1, |q_a|, |q_b|, |q_c|): the orbit at
 * c is then likely another orbit than the continuation of b's (a neighbouring
 * branch, a period-doubled orbit), or the branch turns in a fold between
 * them; follow a branch by continuation instead.  The point after a jump
 * is not flagged (its step is small beside the jump).  Returns 1 for a jump
 * at c, 0 otherwise (also when the points are not equally spaced or any
 * failed).  point_a, point_b, point_c: the n_params swept values.
 */
int hes_sweep_branch_jump(int n_params, const double *point_a, const double *point_b,
                          const double *point_c, const hes_sweep_row *a, const hes_sweep_row *b,
                          const hes_sweep_row *c);

/**
 * Delivery of sweep rows in index order (lib/batch/sweep_order.c): rows put
 * in any order are passed to emit in the order of their indices, skipped
 * points passed over, each with branch_jump set from its predecessors along
 * the strides (hes_sweep_branch_jump).  Rows that arrive early are held until
 * those before them arrive.  values: n_points x n_params, as in
 * hes_sweep_options, kept by the caller while the object lives; skip may be
 * NULL.  put returns emit's nonzero value (the row was not taken), -1 for
 * an index out of range or delivered before, or out of memory.
 */
typedef struct hes_sweep_order hes_sweep_order;
/** A delivery for n_points points (NULL for bad arguments or out of memory). */
hes_sweep_order *hes_sweep_order_new(int n_points, int n_params, const double *values,
                                     const unsigned char *skip, int n_strides, const int *strides);
/** Puts a row: emit(ctx, r) for it and every held row it releases, in index order. */
int hes_sweep_order_put(hes_sweep_order *order, const hes_sweep_row *row,
                        int (*emit)(void *ctx, const hes_sweep_row *row), void *ctx);
/** Frees a delivery and the rows it holds (NULL: nothing). */
void hes_sweep_order_destroy(hes_sweep_order *order);

/** params: the base parameter vector (NULL: the model's defaults).  Returns
 * HES_OK, or HES_EINVAL for an invalid model, bad options or when the
 * callback stopped it (HES_ENOMEM), with err (may be NULL) saying why; each
 * point's own failure is in its row. */
hes_status hes_sweep_run(const hes_model *model, const double *params, const hes_sweep_options *o,
                         hes_error *err);
/** The same for a system of any kind (hes_system_kind): every point is
 * analysed by hes_analyze on a copy of proto (its parameters are the base
 * point's, its settings and orbit options each point's), warm-started from
 * the previous point's section state and period.  optimize needs a hybrid
 * system (shape parameters). */
hes_status hes_sweep_run_system(const hes_system *proto, const hes_sweep_options *o, hes_error *err);

/* ------------------------------------------------ a sweep in a CSV file */
/**
 * A sweep's rows written to a CSV file as they come, resumable
 * (lib/batch/sweep_csv.c; the format, the lock and the resume scan are
 * lib/batch/sweep_file.c).  The file starts with '#' lines that say what
 * defines the sweep (format, version, problem, points, optimize, every
 * parameter that is not swept, what the last column is), then the header:
 * index, the swept values, status ("ok" or hes_strerror), psi, stable,
 * verdict, period, mult1_re, mult1_im, ... (one pair per state component
 * of the orbit, at most HES_SWEEP_MAX_MULT), p.NAME for every parameter
 * (solved ones solved), branch_jump, message, crc32.  Each row ends with
 * the CRC-32 of its text, so that a damaged row is recognised.  A path is
 * opened with an exclusive lock held until the close; each row is flushed
 * and a regular file synced at most a second behind.  With resume, a file
 * of the same sweep (its '#' lines and header identical) keeps its valid
 * rows (their points marked in skip) and drops the others (a damaged row,
 * a duplicate, a last row cut short: counted in the report); another
 * sweep's file is refused with the first difference named.  A stream
 * (instead of a path) gets the header and the rows only.
 */
typedef struct hes_sweep_file hes_sweep_file;

/** The shortest "%.*g" text of v that reads back as v, into buf (at most 24
 * bytes needed): how a sweep file writes the numbers that define it. */
void hes_format_double(char *buf, size_t len, double v);

/** Where a sweep's CSV file goes (hes_sweep_file_open). */
typedef struct {
    const char *path;        /**< the file, or NULL with stream */
    FILE *stream;            /**< or an open stream (stdout), not closed */
    const char *stream_name; /**< its name in messages ("standard output") */
    int resume;              /**< (path) keep the valid rows of this sweep's file */
    const char *points;      /**< what the points are, one line ("grid k=800:1200:5");
                                  NULL: the swept names and a hash of their values */
    const char *version;     /**< hes's version in the file (NULL: this library's) */
} hes_sweep_file_options;

/** No file, no resume, this library's version, the points described by
 * their names and hash. */
void hes_sweep_file_options_init(hes_sweep_file_options *o);

/** What opening a sweep's file found (hes_sweep_file_open). */
typedef struct {
    int kept;                /**< resume: rows kept, their points marked in skip */
    int corrupted;           /**< resume: rows dropped: checksum, index or values wrong */
    int duplicates;          /**< resume: rows dropped: a point that already had one */
    int cut;                 /**< resume: 1 when a last row without its newline was dropped */
    char warning[512];       /**< e.g.\ a file system without locks ("" if none) */
} hes_sweep_file_report;

/** Opens the file of the sweep of proto with the points of o (n_params,
 * params, n_points, values, optimize; values kept by the caller until the
 * close).  skip (n_points flags, zero on entry; may be NULL without
 * resume) receives the kept rows' points.  HES_EINVAL for another sweep's
 * file, a file another process writes, or bad arguments; HES_EIO when it
 * cannot be read or written (err says which). */
hes_status hes_sweep_file_open(const hes_system *proto, const hes_sweep_options *o,
                               const hes_sweep_file_options *fo, unsigned char *skip,
                               hes_sweep_file **out, hes_sweep_file_report *rep, hes_error *err);
/** Writes one row (the file keeps the order of the calls; the index
 * identifies the point).  HES_EIO when the write fails (and every later
 * call fails), the message in hes_sweep_file_errmsg. */
hes_status hes_sweep_file_put(hes_sweep_file *file, const hes_sweep_row *row);
/** The file's last failure ("" if none). */
const char *hes_sweep_file_errmsg(const hes_sweep_file *file);
/** Flushes, syncs and closes (a stream is flushed, not closed); HES_EIO
 * when that fails or a put failed before.  NULL: nothing. */
hes_status hes_sweep_file_close(hes_sweep_file *file, hes_error *err);

/** A whole sweep into a file: hes_sweep_file_open, hes_sweep_run_system
 * with the file's kept points skipped (besides o->skip) and every row
 * written in index order before it goes to o->row, and the close.
 * o->next_block must be NULL.  HES_EIO when a write fails (the sweep
 * stops), else as hes_sweep_run_system and hes_sweep_file_open. */
hes_status hes_sweep_run_file(const hes_system *proto, const hes_sweep_options *o,
                              const hes_sweep_file_options *fo, hes_sweep_file_report *rep,
                              hes_error *err);

/* ------------------------------------------------- a sweep over MPI ranks */
/**
 * A sweep shared by the ranks of MPI_COMM_WORLD (lib/batch/sweep_mpi.c, in
 * a build with OpenMPI): every rank calls it with the same arguments, after
 * MPI_Init_thread (MPI_THREAD_SERIALIZED when o->jobs > 1).  Points go out
 * in blocks from a counter on rank 0; every rank computes on its o->jobs
 * threads and sends its rows to rank 0, which writes them to fo's file
 * (fo may be NULL; with resume the file's kept points are skipped on every
 * rank) and passes them to o->row in index order (o->row is called on rank
 * 0 only).  rep and the rows are rank 0's.  o->next_block must be NULL.
 * With one rank, MPI not initialised, or a build without MPI: this process
 * alone (hes_sweep_run_file, or hes_sweep_run_system without fo).  The
 * status is the worst of every rank's, on every rank; err says what failed
 * where.  hes_sweep_mpi_rank: this process's rank and, in *size (may be
 * NULL), the number of ranks (0 and 1 without MPI). @{ */
hes_status hes_sweep_run_mpi(const hes_system *proto, const hes_sweep_options *o,
                             const hes_sweep_file_options *fo, hes_sweep_file_report *rep,
                             hes_error *err);
int hes_sweep_mpi_rank(int *size);
/** @} */

/** n Latin hypercube samples in the box [lo, hi] (dim dimensions): every
 * coordinate takes each of n equal strata once.  out: n x dim. */
hes_status hes_latin_hypercube(int n, int dim, const double *lo, const double *hi,
                               unsigned long seed, double *out);

/** n evenly spaced values in [lo, hi] (lib/batch/grid.c): out[k] = lo + k (hi -
 * lo) / (n - 1), computed from the nearer end so that out[0] = lo and
 * out[n-1] = hi exactly and a range symmetric about 0 gives symmetric values
 * (0 itself in the middle for n odd); n = 1 gives lo.  HES_EINVAL unless
 * n >= 1, lo <= hi, both and hi - lo finite, and out != NULL. */
hes_status hes_grid_linspace(double lo, double hi, int n, double *out);
/** The number of points of a tensor grid with count[j] values in dimension j
 * (dim >= 1): HES_EINVAL for a count < 1 or a product above INT_MAX. */
hes_status hes_grid_tensor_size(int dim, const int *count, long *n_points);
/** The tensor grid itself, point after point (out: n_points x dim), the first
 * dimension varying slowest and the last fastest; dimension j takes the
 * hes_grid_linspace values of [lo[j], hi[j]].  HES_EINVAL as those two. */
hes_status hes_grid_tensor(int dim, const double *lo, const double *hi, const int *count,
                           double *out);

/** A sweep of one component of an initial state (lib/batch/state_sweep.c;
 * `hes simulate --sweep`, decoupled-limbs paper Fig.\ 1): x0 (of `mode`) with
 * component `state` set to each of the n values hes_grid_linspace(lo, hi, n)
 * gives, simulated with every guard armed over [0, time] (hes_simulate with
 * t_end = time), one trajectory.  Works for any model, with or without a
 * periodic orbit.  The component is one of the ambient state: in a mode
 * with hes_mode.normalize each start is then projected back onto the
 * mode's manifold, as hes_simulate does with every start (a quaternion's
 * component set to a value is rescaled with the others). */
typedef struct {
    int mode;                    /**< the mode of x0 */
    int dim;                     /**< the number of values of x0: that mode's dim */
    const double *x0;            /**< the initial state (dim values) */
    int state;                   /**< the swept component, 0 <= state < dim */
    /** @{ */
    double lo, hi;               /**< finite, lo <= hi */
    /** @} */
    int n;                       /**< values, >= 1 (1: lo) */
    double time;                 /**< the time simulated, > 0 */
    /** Called before simulation k of n, of value `value` (may be NULL). */
    void (*progress)(void *ctx, int k, int n, double value);
    void *progress_ctx;          /**< ctx of progress */
} hes_state_sweep_options;

/** One value (n = 1), no progress callback: the caller sets the state, the
 * range and the time. */
void hes_state_sweep_options_init(hes_state_sweep_options *o);

/** One value's run in a state sweep. */
typedef struct {
    double value;                /**< of the swept component */
    hes_traj traj;               /**< the run, also up to where a failed one stopped */
    hes_status status;           /**< HES_OK, or why the run failed (a result too) */
    char message[512];           /**< hes_system_errmsg at the failure */
} hes_state_sweep_point;

/** A state sweep's runs (hes_state_sweep_run), with its options as given; free it
 * with hes_state_sweep_free. */
typedef struct {
    /** the mode of x0, the swept component and dim @{ */
    int mode, state, dim;
    /** @} */
    double *x0;                  /**< dim values, as given */
    /** the range and the time simulated @{ */
    double lo, hi, time;
    /** @} */
    int n;                       /**< the number of values */
    hes_state_sweep_point *points; /**< n of them */
} hes_state_sweep;

/** HES_OK when every value was simulated (some may have failed: see their
 * status); HES_EINVAL for bad options, HES_ENOMEM, with the message in the
 * system's.  Free the result with hes_state_sweep_free. */
hes_status hes_state_sweep_run(hes_system *sys, const hes_state_sweep_options *opts,
                               hes_state_sweep *out);
/** Frees a state sweep's runs and clears it (NULL: nothing). */
void hes_state_sweep_free(hes_state_sweep *sweep);

#ifdef __cplusplus
}
#endif

#endif /* HES_H_BATCH */
