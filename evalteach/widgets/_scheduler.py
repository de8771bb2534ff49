"""When an explorer draws: the one place that knows about event loops, threads and time.

A value set from Python is drawn at once, in full, before the assignment returns. A change
from the browser (a slider dragged, a button clicked) goes through the states below; the
explorer only says *what* to draw (:class:`evalteach.widgets._base.Explorer`), this object
says *when*. The rules and the reasons are in ``docs/explorers.md``.

States
------
``IDLE``
    Nothing is scheduled. Idle jobs (work done ahead of time: :meth:`Scheduler.idle`) run
    here only, one small step every ``IDLE_PAUSE`` seconds, in the order they were given.
``COALESCING``
    A change from the browser arrived; one render is scheduled ``COALESCE`` s later. Changes
    that arrive meanwhile only record their values: the render shows the latest state, and
    a drag never queues redraws.
``DRAGGING``
    The last render answered a change that followed another within ``REST`` s (the hand is
    moving). The text summary for screen readers waits: after ``REST`` s without a change
    the hand rests, the summary is announced and idle jobs are planned.
``REFINING``
    The last render was a first, partial answer (the explorer opted in with
    ``Explorer._preview``). Refinement steps run, each followed by a render, until the
    answer is complete; a change from the browser meanwhile goes back to ``COALESCING``.

Threads: JupyterLab (4.4 and later) may deliver widget messages on a kernel subshell, a
second thread, and matplotlib's text rendering (FreeType) breaks when two threads draw at
once; a change arriving on another thread is handed to the event loop of the thread that
built the explorer and drawn there. Without a running event loop (a plain script) every
change is drawn at once and nothing runs ahead of time.
"""
from __future__ import annotations

import asyncio
import threading
import time
from collections import OrderedDict
from contextlib import contextmanager

#: Seconds between a change from the browser and its render.
COALESCE = 0.004
#: Seconds without a change from the browser after which the hand rests; changes closer
#: together than this are a drag.
REST = 0.25
#: Seconds between two steps of idle work.
IDLE_PAUSE = 0.01

IDLE, COALESCING, DRAGGING, REFINING = "idle", "coalescing", "dragging", "refining"


def _running_loop():
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class Scheduler:
    """Schedules an explorer's renders, refinements and idle work (see the module).

    Parameters
    ----------
    explorer : Explorer
        Called back through ``_render_now()`` (a full update), ``_render_live()`` (an
        update answering the browser; returns True when the answer is partial),
        ``_refine_step()`` (completes a partial answer a step and redraws; returns True while
        it is still partial), ``_rested()`` (the hand rests: summary, plan idle jobs) and
        ``_alive()`` (False once the explorer's widget is closed).
    """

    def __init__(self, explorer):
        self.explorer = explorer
        self.state = IDLE
        self.home_loop = _running_loop()  # where the explorer draws: the loop of the thread that built it
        self.home_thread = threading.get_ident()
        self._timer = None   # the scheduled render, refinement or rest (one at a time)
        self._jobs = OrderedDict()  # name -> step, the idle work
        self._idle = None    # the scheduled idle step
        self._touched = -REST  # when the browser last changed a control (time.monotonic)
        self._dragging = False
        self._browser = threading.local()
        self._stopped = False

    # --- where a change comes from ----------------------------------------------------------

    @contextmanager
    def from_browser(self):
        """Changes made inside this block came from the browser (a widget message)."""
        self._browser.depth = getattr(self._browser, "depth", 0) + 1
        try:
            yield
        finally:
            self._browser.depth -= 1

    def watch(self, control):
        """Mark the changes ``control`` receives from the browser.

        A widget message from the front end arrives through the widget's public
        ``set_state(sync_data)``; wrapped, the value observers it triggers run inside
        :meth:`from_browser`.
        """
        receive = control.set_state

        def set_state(sync_data):
            with self.from_browser():
                receive(sync_data)

        control.set_state = set_state

    def changed(self, browser=None):
        """A control's value changed (``browser``: whether by hand; default: as marked).

        Returns what the explorer's update returned when it drew at once on this thread
        (True if drawn, False if it failed), else None (scheduled, or handed home)."""
        if browser is None:
            browser = getattr(self._browser, "depth", 0) > 0
        if browser:
            now = time.monotonic()
            self._dragging = now - self._touched < REST
            self._touched = now
        if self.away_from_home():
            self.home_loop.call_soon_threadsafe(self._changed, browser)
            return None
        return self._changed(browser)

    def away_from_home(self):
        """Whether this thread is not the one that built the explorer, whose loop still runs."""
        loop = self.home_loop
        return loop is not None and threading.get_ident() != self.home_thread and loop.is_running()

    def _changed(self, browser):
        if self._stopped:  # the explorer closed while this change was handed home
            return None
        loop = _running_loop()
        if not browser or loop is None:  # from Python, or no loop to wait on: draw now, in full
            self._cancel()
            return self.explorer._render_now()
        if self.state != COALESCING:
            self._cancel()
            self.state = COALESCING
            self._timer = loop.call_later(COALESCE, self._render)
        return None

    # --- the states -------------------------------------------------------------------------

    def _cancel(self):
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.state = IDLE

    def _render(self):
        self._timer, self.state = None, IDLE
        self._after(self.explorer._render_live(), self._dragging, self.explorer.refine_after)

    def _refine(self):
        self._timer, self.state = None, IDLE
        self._after(self.explorer._refine_step(), False, COALESCE)

    def _after(self, partial, dragging, delay):
        loop = _running_loop()
        if partial and loop is not None:
            self.state, self._timer = REFINING, loop.call_later(delay, self._refine)
        elif dragging and loop is not None:
            self.state, self._timer = DRAGGING, loop.call_later(REST, self._rest)
        else:
            self.explorer._rested()

    def _rest(self):
        self._timer, self.state = None, IDLE
        self.explorer._rested()

    # --- work while idle --------------------------------------------------------------------

    def idle(self, name, step):
        """Run ``step()`` in small steps while the kernel is idle, until it returns False.

        ``step`` replaces earlier work of the same ``name`` only: jobs of other names keep
        their place and run in turn. Each step should take a few milliseconds (a change by
        hand waits for it). Nothing runs without a running event loop, or once the explorer
        is closed; an exception ends the job quietly (it was only ahead of time).
        """
        self._jobs[name] = step
        self._wake()

    def stop(self):
        """Cancel every scheduled render, refinement, rest and idle step, for good: the
        explorer closes."""
        self._stopped = True
        self._cancel()
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        self._jobs.clear()

    def cancel_idle(self, name):
        """Drop the idle job ``name`` (if any)."""
        self._jobs.pop(name, None)

    @property
    def idle_jobs(self):
        """The names of the idle jobs not yet done, in the order they run."""
        return list(self._jobs)

    def _wake(self):
        loop = self.home_loop if self.home_loop is not None and self.home_loop.is_running() else _running_loop()
        if self._idle is None and self._jobs and loop is not None:
            self._idle = loop.call_later(IDLE_PAUSE, self._idle_step)

    def _idle_step(self):
        self._idle = None
        if not self.explorer._alive():  # closed: nobody will ask
            self._jobs.clear()
            return
        if self.state == IDLE and self._jobs:
            name, step = next(iter(self._jobs.items()))
            try:
                more = step()
            except Exception:  # noqa: BLE001 - work ahead of time never breaks the kernel
                more = False
            if not more and self._jobs.get(name) is step:
                del self._jobs[name]
        self._wake()
