"""Freed memory is given back to the system when an explorer's hand rests (issue 25)."""
import platform

import pytest

from evalteach.widgets import _base, _freed_memory
from evalteach.widgets import SamplingErrorExplorer


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="malloc_trim is glibc's")
def test_it_trims_at_most_once_every_interval(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(_freed_memory.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(_freed_memory, "_last", -_freed_memory.EVERY)
    assert _freed_memory.give_back_freed_memory() is True
    clock[0] += _freed_memory.EVERY / 2
    assert _freed_memory.give_back_freed_memory() is False  # too soon
    clock[0] += _freed_memory.EVERY
    assert _freed_memory.give_back_freed_memory() is True


def test_without_glibc_nothing_is_done(monkeypatch):
    monkeypatch.setattr(_freed_memory, "_trim", False)
    monkeypatch.setattr(_freed_memory, "_last", -_freed_memory.EVERY)
    assert _freed_memory.give_back_freed_memory() is False


def test_an_explorer_gives_memory_back_when_the_hand_rests(monkeypatch):
    calls = []
    monkeypatch.setattr(_base, "give_back_freed_memory", lambda: calls.append(1))
    e = SamplingErrorExplorer()
    opened = len(calls)
    e.controls["n"].value = 50  # from Python: drawn at once, then rests
    assert opened == 1 and len(calls) == 2
