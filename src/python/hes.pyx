# cython: language_level=3, boundscheck=False, wraparound=False, embedsignature=True
"""hes - stability of periodic hybrid orbits and hybrid event shaping.

The library libhes from Python: built-in problems, plugins and robot
models, and models written in Python, analysed, simulated, shaped, swept
and continued.  Results are objects holding NumPy arrays, and each has
to_json(), the document the program `hes` prints for the same computation.

    >>> import hes
    >>> a = hes.problem("slip-hopper").analyze()
    >>> a.psi, a.verdict

Failures raise hes.Error (a subclass per status, e.g. hes.NoOrbitError),
with the library's message.  src/python/README.md says how the module is
built and why it is written in Cython.
"""

cimport cython
cimport numpy as cnp
import numpy as np

from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy, memset, strlen

from c_hes cimport *

cnp.import_array()

include "errors.pxi"
include "arrays.pxi"
include "interrupt.pxi"
include "system.pxi"
include "trajectory.pxi"
include "analysis.pxi"
include "pymodel.pxi"
include "cmodel.pxi"
include "model_spec.pxi"
include "continuation.pxi"
include "ess.pxi"
include "impact.pxi"
include "invdyn.pxi"
include "blas.pxi"
include "options.pxi"
include "sweep.pxi"
include "trials.pxi"
include "shape.pxi"
include "trajopt.pxi"

# The library this module runs with must have the binary interface of the
# headers it was compiled against.
cdef hes_error _abi_err
if hes_abi_check(HES_ABI_VERSION, &_abi_err) != HES_OK:
    raise ImportError(_abi_err.message.decode("utf-8", "replace"))

#: The library's binary-interface version (HES_ABI_VERSION).
abi_version = hes_abi_version()
#: What the library was built with, e.g. ["base", "mujoco", "ipopt"].
features = hes_features().decode().split()
