"""What a cell showed is closed when that cell runs again and shows it no more.

JupyterLab clears a cell's output when the cell runs again, but the kernel keeps every
widget until it is closed (ipywidgets), and IPython keeps every object a cell showed in
its output history. A student who ran ``explorer = et.SamplingErrorExplorer(); explorer``
eight times would otherwise hold eight explorers, about 12 MB each (measured in a kernel).

So when a cell finishes, the explorers and predictions its previous run showed are closed,
unless this run showed them again or something else still holds them: a variable of the
notebook (it may show them later), a question that reveals them, a list. What a prediction
closed this way revealed is closed too, unless something else holds it (in most lessons a
prediction reveals an explorer made in the cell before it). Only in an IPython
kernel, and only for cells the front end names: JupyterLab and Notebook 7 send a cell id
with each run. Elsewhere (a script, a client without cell ids) nothing is closed.

What can be closed here has ``close()`` and a ``closed`` flag, and calls :func:`shown`
when it is displayed.
"""
from __future__ import annotations

import gc
import sys
import types
import weakref

import ipywidgets as W

#: cell id -> weak references to what its last finished run showed.
_shown = {}
#: cell id -> weak references to what the cell's current run has shown so far.
_showing = {}
_watching = []  # the shell whose cells are watched (at most one)


def shown(obj):
    """Note that the cell now running shows ``obj`` (called when it is displayed)."""
    shell = _shell()
    if shell is None:
        return
    if shell not in _watching:
        shell.events.register("post_run_cell", _cell_finished)
        _watching.append(shell)
    cell = _running_cell(shell)
    if cell is not None:
        _showing.setdefault(cell, []).append(weakref.ref(obj))


def close_widgets(widgets, keep=()):
    """Close each widget with its children, layout and style, except the widgets in ``keep``
    and what they hold (they belong to something else, e.g. what a prediction reveals)."""
    for widget in widgets:
        if any(widget is kept for kept in keep):
            continue
        close_widgets(getattr(widget, "children", ()), keep)
        for part in (getattr(widget, "layout", None), getattr(widget, "style", None)):
            if isinstance(part, W.Widget):  # a layout or style is a widget of its own
                part.close()
        widget.close()


def release(refs):
    """Close what each weak reference in ``refs`` still points to, if it is open and nothing
    holds it but its own parts and IPython's output history; then, on the same terms, what
    it revealed (a prediction's ``reveals``)."""
    shell = _shell()
    for ref in refs:
        obj = ref()
        if obj is None or obj.closed or _held_elsewhere(obj, shell):
            continue
        revealed = [weakref.ref(item) for item in getattr(obj, "reveals", ()) if hasattr(item, "closed")]
        try:
            obj.close()
        except Exception:  # noqa: BLE001 - tidying up never breaks the student's cell
            continue
        obj = None
        release(revealed)


def _shell():
    ipython = sys.modules.get("IPython")  # never imported here: outside IPython there is no cell
    return ipython.get_ipython() if ipython is not None else None


def _running_cell(shell):
    """The id of the cell whose run is in progress: the request's ``cellId`` (ipykernel)."""
    kernel = getattr(shell, "kernel", None)
    if kernel is None or not hasattr(kernel, "get_parent"):
        return None
    return (kernel.get_parent("shell").get("metadata") or {}).get("cellId")


def _cell_finished(result):
    cell = getattr(result.info, "cell_id", None)
    if cell is None:
        return
    now = _showing.pop(cell, [])
    release([ref for ref in _shown.pop(cell, []) if all(other() is not ref() for other in now)])
    if now:
        _shown[cell] = now


def _held_elsewhere(obj, shell):
    """Whether anything holds ``obj`` but its own parts (an explorer's scheduler, bound
    methods and closures) and IPython's output history: a variable of the notebook, a
    question that reveals it, a list."""
    history = [] if shell is None else [shell.user_ns.get("Out"), shell.user_ns_hidden, shell.displayhook,
                                        vars(shell.displayhook)]
    scheduler = getattr(obj, "scheduler", None)
    own = [] if scheduler is None else [scheduler, vars(scheduler)]
    gc.collect()  # garbage not yet collected (a finished call's frames, say) holds nothing
    for holder in gc.get_referrers(obj):
        if isinstance(holder, types.CellType) or (
                isinstance(holder, types.MethodType) and holder.__self__ is obj) or (
                isinstance(holder, types.FrameType) and holder.f_globals is globals()):  # this module's
            continue
        if any(holder is known for known in own + history):
            continue
        if shell is not None and holder is shell.user_ns:
            hidden = shell.user_ns_hidden  # IPython's own names: _, __, _12 (the output history)...
            if any(value is obj and (name not in hidden or hidden[name] is not value)
                   for name, value in holder.items()):
                return True
            continue
        return True
    return False
