# errors.pxi - the library's statuses as exceptions.
#
# Every failure of a call is hes.Error, or the subclass of its status (the
# library's hes_status), with the library's message as its text.  Bad input
# (the program's exit status 2) is also a ValueError or a LookupError, so
# that ordinary Python code catches it as it would any other.

class Error(Exception):
    """A failure of libhes.

    status: the library's short name of it (hes_strerror, e.g. "no periodic
    orbit"); code: its hes_status value; exit_code: the program's exit
    status for it (2 bad input, 1 a numerical failure); the text is the
    library's message.
    """
    code = HES_EINVAL

    def __init__(self, message, code=None):
        super().__init__(message)
        if code is not None:
            self.code = int(code)

    @property
    def status(self):
        return hes_strerror(<hes_status>self.code).decode()

    @property
    def exit_code(self):
        return hes_status_exit_code(<hes_status>self.code)


class InvalidArgument(Error, ValueError):
    """An invalid argument, model or parameter value (HES_EINVAL)."""
    code = HES_EINVAL

class NotFoundError(Error, LookupError):
    """An unknown problem, parameter, mode or transition (HES_ENOTFOUND)."""
    code = HES_ENOTFOUND

class OutOfMemory(Error, MemoryError):
    """An allocation failed (HES_ENOMEM)."""
    code = HES_ENOMEM

class SolverError(Error):
    """The integrator or LAPACK failed, or a budget ran out (HES_ESOLVER)."""
    code = HES_ESOLVER

class GrazingError(Error):
    """A guard reached tangentially (HES_EGRAZING)."""
    code = HES_EGRAZING

class ZenoError(Error):
    """Too many events in too short a time (HES_EZENO)."""
    code = HES_EZENO

class NoEventError(Error):
    """No event before the time limit (HES_ENOEVENT)."""
    code = HES_ENOEVENT

class NonFiniteError(Error):
    """The state or a model output became NaN or infinite (HES_ENONFINITE)."""
    code = HES_ENONFINITE

class ModelError(Error):
    """A model callback reported failure (HES_EMODEL)."""
    code = HES_EMODEL

class NoOrbitError(Error):
    """No periodic orbit found, or not one of the full system (HES_ENOORBIT)."""
    code = HES_ENOORBIT

class MaxIterError(Error):
    """An iteration limit was reached (HES_EMAXITER)."""
    code = HES_EMAXITER

class DefectiveError(Error):
    """The eigen-decomposition is unusable (HES_EDEFECTIVE)."""
    code = HES_EDEFECTIVE

class DivergedError(Error):
    """A perturbed trajectory left every neighbourhood of the orbit (HES_EDIVERGED)."""
    code = HES_EDIVERGED

class FileError(Error, OSError):
    """A file or stream could not be written (HES_EIO)."""
    code = HES_EIO

class LCPError(Error):
    """A complementarity problem has no solution the solver finds (HES_ELCP)."""
    code = HES_ELCP

class InfeasibleError(Error):
    """A requested motion cannot be produced within the constraints (HES_EINFEASIBLE)."""
    code = HES_EINFEASIBLE

_error_classes = {cls.code: cls for cls in (
    InvalidArgument, NotFoundError, OutOfMemory, SolverError, GrazingError, ZenoError,
    NoEventError, NonFiniteError, ModelError, NoOrbitError, MaxIterError, DefectiveError,
    DivergedError, FileError, LCPError, InfeasibleError)}


def _error(int code, message):
    """The exception of a status and a message."""
    cls = _error_classes.get(code, Error)
    if isinstance(message, bytes):
        message = message.decode("utf-8", "replace")
    if not message:
        message = hes_strerror(<hes_status>code).decode()
    return cls(message, code)


cdef int _check(hes_status st, message) except -1:
    """Raises the status's exception (message: str, bytes or a hes_error)."""
    if st == HES_OK:
        return 0
    raise _error(<int>st, message)


cdef str _text(const char *s):
    """A C string of the library as str ("" for NULL)."""
    if s == NULL:
        return ""
    return s.decode("utf-8", "replace")


cdef bytes _name(obj, what):
    """A name given from Python as bytes for the library: str only."""
    if isinstance(obj, bytes):
        obj = obj.decode("utf-8", "replace")
    if not isinstance(obj, str):
        raise InvalidArgument(f"{what} must be a string, not {type(obj).__name__}")
    if "\0" in obj:
        raise InvalidArgument(f"{what} {obj!r} contains a NUL character")
    return obj.encode("utf-8")


cdef str _take_json(char *doc):
    """A document the library made (malloc'd) as str; frees it."""
    if doc == NULL:
        raise OutOfMemory("out of memory writing the JSON document", HES_ENOMEM)
    try:
        return doc.decode("utf-8")
    finally:
        free(doc)
