"""Caches of computed results, each bounded in bytes, all cleared at once.

Fitting learners and drawing simulations is the slow part of an explorer, and students
come back to the same settings, so results are kept. Kept without a bound they grow as
long as a student moves controls; kept by count, one entry may be a few bytes or a hundred
megabytes. So every cache of computed results in :mod:`evalteach.simulate` is a
:class:`ResultCache`: least recently used entries go first once the bytes it holds pass
its bound. A kernel's caches together hold at most the sum of their bounds
(:func:`cache_bytes` says how much they hold now; :func:`clear_caches` empties them).

Only what saves more than a couple of milliseconds is cached; a cached value is the
caller's to read, never to change (arrays in it are made read-only).

Examples
--------
>>> cache = ResultCache("squares", max_bytes=2**20)
>>> cache.get(3, lambda: 3 * 3)
9
>>> cache.get(3, lambda: None)    # kept: not computed again
9
"""
from __future__ import annotations

import dataclasses
import sys
import threading
import weakref
from collections import OrderedDict
from functools import wraps

import numpy as np

from .. import _validate

__all__ = ["ResultCache", "cached", "clear_caches", "cache_bytes", "size_of"]

_CACHES = weakref.WeakSet()


def size_of(value, _seen=None):
    """Bytes a value holds, its parts included: an array's data (all of its base's when it
    is a view, since the view keeps that alive), containers and objects with what they hold.
    Each object is counted once.

    Examples
    --------
    >>> size_of(np.zeros(1000)) >= 8000
    True
    """
    seen = set() if _seen is None else _seen
    if id(value) in seen:
        return 0
    seen.add(id(value))
    if isinstance(value, np.ndarray):
        base = value
        while isinstance(base.base, np.ndarray):
            base = base.base
        if base is not value:
            return sys.getsizeof(value) + size_of(base, seen)
        return sys.getsizeof(value) if value.flags.owndata else sys.getsizeof(value) + value.nbytes
    size = sys.getsizeof(value)
    if isinstance(value, (str, bytes, int, float, complex, bool, type(None), np.generic)):
        return size
    if isinstance(value, dict):
        return size + sum(size_of(k, seen) + size_of(v, seen) for k, v in value.items())
    if isinstance(value, (tuple, list, set, frozenset)):
        return size + sum(size_of(item, seen) for item in value)
    if dataclasses.is_dataclass(value):
        return size + sum(size_of(getattr(value, f.name), seen) for f in dataclasses.fields(value))
    if hasattr(value, "__dict__"):
        return size + size_of(vars(value), seen)
    return size


def _read_only(value):
    """Make the arrays a cached value holds read-only (shallowly: its fields and items)."""
    parts = [value]
    if isinstance(value, (tuple, list)):
        parts = list(value)
    elif isinstance(value, dict):
        parts = list(value.values())
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        parts = [getattr(value, f.name) for f in dataclasses.fields(value)]
    for part in parts:
        if isinstance(part, np.ndarray) and part.flags.writeable and part.flags.owndata:
            part.setflags(write=False)


class ResultCache:
    """A least-recently-used cache of computed results, bounded by the bytes they hold.

    Parameters
    ----------
    name : str
        Shown by :func:`cache_bytes`.
    max_bytes : int
        The most the entries may hold together (measured by :func:`size_of`, keys
        included). A value larger than this on its own is returned, not kept.
    growing : bool
        Whether values grow after they are stored (a stream of resamples drawn further by
        its user): then every entry is measured again at each use of the cache, so the
        bound holds again after each use. Otherwise an entry is measured once, when it is
        stored (values are never changed: measuring a large one on every read cost more
        than the lookup it saved).
    """

    def __init__(self, name, max_bytes, growing=False):
        self.name = name
        self.max_bytes = _validate.integer("max_bytes", max_bytes, low=0)
        self.growing = growing
        self._entries = OrderedDict()  # key -> (value, bytes)
        self._bytes = 0
        self._lock = threading.RLock()
        _CACHES.add(self)

    @property
    def nbytes(self):
        """Bytes the entries hold now."""
        return self._bytes

    def __len__(self):
        return len(self._entries)

    def __contains__(self, key):
        return key in self._entries

    def get(self, key, compute):
        """The value kept for ``key``, or ``compute()`` (then kept, if it fits)."""
        with self._lock:
            if key in self._entries:
                return self._touch(key)
        value = compute()
        self.put(key, value)
        return value

    def lookup(self, key):
        """The value kept for ``key``, or None."""
        with self._lock:
            return self._touch(key) if key in self._entries else None

    def put(self, key, value):
        """Keep ``value`` for ``key`` (if it fits), its arrays made read-only."""
        with self._lock:
            _read_only(value)
            self._store(key, value)

    def _touch(self, key):
        """The value kept for ``key``, now the most recently used (measured again if growing)."""
        value, _ = self._entries[key]
        if self.growing:
            self._store(key, value)
        else:
            self._entries.move_to_end(key)
        return value

    def _store(self, key, value):
        if self.growing:
            self._entries = OrderedDict((k, (v, size_of(k) + size_of(v))) for k, (v, _) in self._entries.items())
            self._bytes = sum(size for _, size in self._entries.values())
        if key in self._entries:
            self._bytes -= self._entries.pop(key)[1]
        size = size_of(key) + size_of(value)
        if size > self.max_bytes:
            return
        self._entries[key] = (value, size)
        self._bytes += size
        while self._bytes > self.max_bytes:
            _, (_, dropped) = self._entries.popitem(last=False)
            self._bytes -= dropped

    def clear(self):
        """Forget every entry."""
        with self._lock:
            self._entries.clear()
            self._bytes = 0

    def __repr__(self):
        return f"<ResultCache {self.name!r}: {len(self)} entries, {self._bytes:,} of {self.max_bytes:,} bytes>"


def cached(max_bytes, name=None, growing=False):
    """Decorate a function of hashable arguments: its results go into a :class:`ResultCache`.

    The wrapper has the cache as ``.cache`` and ``.cache_clear()``. Arguments are the key
    as given (call it with the same spelling, positional or keyword, to hit); ``growing``
    as in :class:`ResultCache`.

    Examples
    --------
    >>> @cached(max_bytes=2**16)
    ... def slow_square(x):
    ...     return x * x
    >>> slow_square(4), len(slow_square.cache)
    (16, 1)
    """
    def decorate(function):
        cache = ResultCache(name or f"{function.__module__}.{function.__qualname__}", max_bytes, growing)

        @wraps(function)
        def wrapper(*args, **kwargs):
            key = (args, tuple(sorted(kwargs.items()))) if kwargs else args
            return cache.get(key, lambda: function(*args, **kwargs))

        wrapper.cache = cache
        wrapper.cache_clear = cache.clear
        return wrapper

    return decorate


def clear_caches():
    """Empty every cache of computed results in this kernel (memory back; the next request
    of each result computes it again)."""
    for cache in list(_CACHES):
        cache.clear()


def cache_bytes():
    """Bytes each cache of computed results holds now, by name (caches alive in this kernel)."""
    sizes = {}
    for cache in list(_CACHES):
        sizes[cache.name] = sizes.get(cache.name, 0) + cache.nbytes
    return dict(sorted(sizes.items()))
