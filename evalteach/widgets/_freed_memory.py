"""Memory the allocator keeps after large arrays are freed, given back to the system.

numpy returns a large temporary array to the C allocator when it is freed, and on Linux
(glibc) the allocator keeps much of it for later: after a few new settings of a heavy
explorer (the algorithm comparison makes and drops tens of megabytes of scores) a kernel
held 20-50 MB that nothing used (``benchmarks/memory.py``; the same kernel after
``malloc_trim``). On a shared server that memory is another student's. glibc's
``malloc_trim(0)`` gives it back, in about a millisecond; where there is no glibc (macOS,
Windows, pyodide) nothing is done.

References
----------
The GNU C Library manual, "Memory Allocation Tunables" and ``malloc_trim(3)``.
"""
from __future__ import annotations

import time

#: Seconds between two trims at most: a loop of changes from code trims once a second.
EVERY = 1.0

_trim = None  # glibc's malloc_trim once looked up; False where there is none
_last = -EVERY


def _lookup():
    try:
        import ctypes

        trim = ctypes.CDLL("libc.so.6").malloc_trim
        trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
        return trim
    except (ImportError, OSError, AttributeError):  # not glibc
        return False


def give_back_freed_memory():
    """Give freed memory that the C allocator keeps back to the system, at most once every
    :data:`EVERY` seconds. True if it was done now."""
    global _trim, _last
    now = time.monotonic()
    if now - _last < EVERY:
        return False
    _last = now
    if _trim is None:
        _trim = _lookup()
    if not _trim:
        return False
    _trim(0)
    return True
