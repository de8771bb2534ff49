"""The contract every explorer keeps (``docs/explorers.md``), as reusable checks.

Each explorer's test module calls :func:`check_contract` on the openings it tests;
``tests/test_explorer_walk.py`` runs :func:`walk` on the default opening of every
explorer, which visits every state of the walk once (the default state, every mode, each
slider at both ends) and runs every per-state check there:

* ``controls act``: each visible, enabled control changes the picture (issue 10; in the
  default state and every mode);
* ``pure compute``: ``_compute(state)`` twice gives equal results, equal to the result
  shown, and changes no attribute of the explorer;
* ``layer order``: nothing drawn before a cached layer lies in the layer's box (a paste
  would erase it);
* ``pasted = fresh``: the picture pasted from the caches is the picture drawn afresh, in
  the same layout; when it is not, the layers whose boxes hold the difference are named
  (their keys miss something their pixels depend on);
* ``no clutter``: no text overlaps other text, the figure's edge or the data (issue 13).

Explorer-specific tests then check that the numbers shown equal what ``evalteach.stats``
computes.
"""
from __future__ import annotations

import asyncio
import base64
import dataclasses
import itertools
import threading

import ipywidgets as W
import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.collections import Collection
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.text import Text
from matplotlib.transforms import Bbox

import evalteach
from evalteach import plotting, widgets
from evalteach.widgets._base import _option_values
from evalteach.widgets._cached_layer import CachedLayer

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_CHOICES = (W.Dropdown, W.ToggleButtons, W.RadioButtons, W.Select)
_SLIDERS = (W.IntSlider, W.FloatSlider, W.FloatLogSlider)

#: Explorer -> what it still breaks of the per-state rules, and why. The walk marks it
#: xfail(strict=True); whoever fixes one removes it here.
WALK_TODO = {}


# --- values and states --------------------------------------------------------------------

def other_value(control, rng=None):
    """A valid value for ``control`` different from its current one (None if there is none)."""
    if isinstance(control, (W.Checkbox, W.ToggleButton)):
        return not control.value
    if isinstance(control, _CHOICES):
        options = [o for o in _option_values(control) if o != control.value]
        if not options:
            return None
        return options[rng.integers(len(options))] if rng is not None else options[0]
    if isinstance(control, W.FloatLogSlider):
        steps = np.arange(control.min, control.max + 1e-9, control.step)
        exps = steps[~np.isclose(control.base ** steps, control.value)]
        e = exps[rng.integers(len(exps))] if rng is not None else exps[len(exps) // 2]
        return float(control.base ** e)
    if isinstance(control, (W.IntSlider, W.FloatSlider)):
        grid = np.arange(control.min, control.max + control.step / 2, control.step)
        grid = grid[~np.isclose(grid, control.value)]
        v = grid[rng.integers(len(grid))] if rng is not None else grid[len(grid) // 2]
        v = round(float(v), 10)
        return int(v) if isinstance(control, W.IntSlider) else v
    return None


def modes(explorer):
    """(name, value) pairs that put ``explorer`` in another mode: the other state of every
    check box; every option of a choice control that shows or hides other controls; and,
    of a choice that never does (a data set, a learner), one other option. Trying every
    option of those would refit real learners for every combination, and the rule is
    about what a mode shows."""
    found = []
    state = explorer.state
    for name, control in explorer.controls.items():
        if isinstance(control, _CHOICES):
            others = [v for v in _option_values(control) if v != control.value]
            hidden = set(explorer._hidden(state))
            shaping = [v for v in others if set(explorer._hidden({**state, name: v})) != hidden]
            found += [(name, v) for v in shaping] or [(name, v) for v in others[:1]]
        elif isinstance(control, (W.Checkbox, W.ToggleButton)):
            found.append((name, not control.value))
    return found


def _ends(control):
    """The smallest and the largest value of a slider."""
    if isinstance(control, W.FloatLogSlider):
        return [control.base ** control.min, control.base ** control.max]
    return [control.min, control.max]


def states(explorer):
    """(label, kind, values) of the walk: the default state, every mode, then each slider
    shown by default at both ends (the widest tick labels, the longest captions and the
    emptiest panels are found there). ``kind`` is "default", "mode" or "end"."""
    yield "default state", "default", {}
    for name, value in modes(explorer):
        yield f"mode {name}={value!r}", "mode", {name: value}
    for name, control in explorer.visible_controls().items():
        if isinstance(control, _SLIDERS):
            for end in _ends(control):
                if end != control.value:
                    yield f"{name}={end!r}", "end", {name: end}


def _trial_values(control):
    """Up to two values for ``control``: :func:`other_value` and the far end of a slider."""
    first = other_value(control)
    if first is None:
        return []
    if isinstance(control, (W.IntSlider, W.FloatSlider)):
        low, high = control.min, control.max
    elif isinstance(control, W.FloatLogSlider):
        low, high = control.base ** control.min, control.base ** control.max
    else:
        return [first]
    far = low if abs(control.value - low) > abs(high - control.value) else high
    return [first] if np.isclose(far, first) or np.isclose(far, control.value) else [first, far]


# --- comparing results ---------------------------------------------------------------------

def same(a, b, _depth=0):
    """Whether two results hold the same numbers: dataclasses field by field, mappings and
    sequences item by item, arrays element by element (NaN equal to NaN), other objects by
    their attributes or ``==``."""
    if a is b:
        return True
    if _depth > 12:
        return False
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return a.shape == b.shape and bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))
    if isinstance(a, float):
        return a == b or (np.isnan(a) and np.isnan(b))
    if isinstance(a, (str, bytes, int, bool, type(None), complex, np.generic)):
        return bool(a == b) or (isinstance(a, np.floating) and np.isnan(a) and np.isnan(b))
    if dataclasses.is_dataclass(a):
        return all(same(getattr(a, f.name), getattr(b, f.name), _depth + 1) for f in dataclasses.fields(a))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k], _depth + 1) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y, _depth + 1) for x, y in zip(a, b))
    if hasattr(a, "__dict__"):
        return same(vars(a), vars(b), _depth + 1)
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


# --- per-state checks ------------------------------------------------------------------------
#
# Each takes the explorer in the state to check and returns a list of problems (strings).

def controls_act(e, unchanged_ok=()):
    """Issue 10's rule: each visible, enabled control changes the picture (a control the
    state does not use must be hidden by ``_hidden``). The explorer ends where it started."""
    problems = []
    settled = e.state
    for name, control in e.visible_controls().items():
        if name in unchanged_ok:
            continue
        tried = []
        for value in _trial_values(control):
            before = e.image
            control.value = value
            tried.append(value)
            changed = e.error is None and e.image != before
            e.set(**{name: settled[name]})
            if changed:
                break
        else:
            if tried:
                problems.append(f"{name} is visible but setting it to "
                                f"{' or '.join(map(repr, tried))} left the picture unchanged")
    return problems


def compute_is_pure(e):
    """``_compute(state)`` twice gives equal results, equal to the result shown, and
    changes no attribute of the explorer (caches may fill, in place)."""
    state = e.state
    before = dict(vars(e))
    first, second = e._compute(state), e._compute(state)
    e._progress.layout.display = "none"  # a progress bar _compute showed
    problems = []
    if not same(first, second):
        problems.append("_compute(state) twice gave different results")
    if not same(first, e.result):
        problems.append("_compute(state) differs from the result shown for the same state")
    after = vars(e)
    changed = sorted(name for name in before.keys() | after.keys()
                     if name not in before or name not in after or before[name] is not after[name])
    if changed:
        problems.append(f"_compute(state) changed the explorer's attributes {changed}")
    return problems


def _extent(artist, renderer):
    """Where ``artist`` inks (display pixels), or None if nowhere."""
    if not artist.get_visible():
        return None
    if isinstance(artist, CachedLayer):
        return artist.box(renderer)
    box = artist.get_tightbbox(renderer) if hasattr(artist, "get_tightbbox") else artist.get_window_extent(renderer)
    if box is None or not np.all(np.isfinite(box.get_points())) or box.width <= 0 or box.height <= 0:
        return None
    return box


def layers_in_order(e):
    """Layers come before what is drawn over them: no dynamic artist drawn before a cached
    layer inks inside the layer's box, where a paste would erase it. (Layers may overlap
    when stacked or keyed by each other's keys; ``pasted = fresh`` checks those.)"""
    renderer = e.figure.canvas.get_renderer()
    order = e.dynamic_artists
    problems = []
    for i, layer in enumerate(order):
        if not isinstance(layer, CachedLayer) or not layer.artists:
            continue
        box = layer.box(renderer)
        if box is None:
            continue
        for artist in order[:i]:
            other = None if isinstance(artist, CachedLayer) else _extent(artist, renderer)
            if other is not None and min(box.x1, other.x1) - max(box.x0, other.x0) > 1 and \
                    min(box.y1, other.y1) - max(box.y0, other.y0) > 1:
                problems.append(f"{_describe(artist)} is drawn before the layer of {_describe(layer)} "
                                f"and inside its box: a paste erases it")
    return problems


def _describe(artist):
    if isinstance(artist, CachedLayer):
        return "[" + ", ".join(_describe(a) for a in artist.artists) + "]"
    text = artist.get_text()[:30] if isinstance(artist, Text) else artist.get_label()
    return f"{type(artist).__name__}({text!r})" if text and not str(text).startswith("_") else type(artist).__name__


def pasted_equals_fresh(e):
    """The picture pasted from the caches equals the picture drawn afresh in the same
    layout; where they differ, name the layers whose boxes hold the difference."""
    shown = np.asarray(e.figure.canvas.buffer_rgba()).copy()
    image = e.image
    e.forget_pixels()
    e._text_grew = lambda: False  # keep the layout: compare like with like
    try:
        e.set()
    finally:
        del e._text_grew
    if e.image == image:
        return []
    fresh = np.asarray(e.figure.canvas.buffer_rgba())
    rows, cols = np.nonzero(np.any(shown != fresh, axis=2))
    height = fresh.shape[0]
    renderer = e.figure.canvas.get_renderer()
    blamed = []
    for layer in e.dynamic_artists:
        box = layer.box(renderer) if isinstance(layer, CachedLayer) else None
        if box is not None and np.any((cols >= box.x0) & (cols < box.x1) &
                                      (height - 1 - rows >= box.y0) & (height - 1 - rows < box.y1)):
            blamed.append(_describe(layer))
    return [f"the pasted picture differs from the one drawn afresh in {rows.size} pixels"
            + (f", in the box of {', '.join(blamed)}: its key misses what they depend on" if blamed else "")]


# --- no clutter (issue 13) -------------------------------------------------------------------
#
# Boxes are compared in display coordinates. Two exemptions, both explicit: a text whose gid
# is ``plotting.ON_DATA`` labels the data it sits on (a count on a bar), and fills more than
# half transparent are backgrounds (shaded regions) that text may sit on.

#: Pixels two boxes may share before it counts as overlap (anti-aliased edges touch).
SLACK = 1.0


def drawn_texts(figure, monkeypatch=None):
    """Every non-empty text drawn in a full draw of ``figure`` (animated artists included),
    with its box in display coordinates."""
    drawn = []
    draw = Text.draw

    def record(self, renderer):
        draw(self, renderer)
        if self.get_visible() and self.get_text().strip():
            drawn.append((self, self.get_window_extent(renderer)))

    animated = [a for a in figure.findobj() if a.get_animated()]
    Text.draw = record
    try:
        for artist in animated:
            artist.set_animated(False)
        figure.canvas.draw()
    finally:
        Text.draw = draw
        for artist in animated:
            artist.set_animated(True)
    return drawn


def _name(text):
    return repr(text.get_text()[:40])


def _overlap(a, b):
    return (min(a.x1, b.x1) - max(a.x0, b.x0) > SLACK) and (min(a.y1, b.y1) - max(a.y0, b.y0) > SLACK)


def _data_artists(ax):
    for artist in itertools.chain(ax.lines, ax.patches, ax.collections):
        if not artist.get_visible():
            continue
        if isinstance(artist, (Patch, Collection)) and not isinstance(artist, Line2D):
            alpha = artist.get_alpha()
            face = artist.get_facecolor()
            face_alpha = face[-1] if getattr(face, "ndim", 1) == 1 else (face[:, -1].max() if len(face) else 0)
            edge = artist.get_edgecolor()
            edge_alpha = edge[-1] if getattr(edge, "ndim", 1) == 1 else (edge[:, -1].max() if len(edge) else 0)
            if max(face_alpha, edge_alpha) * (1.0 if alpha is None else alpha) <= 0.5:
                continue  # a translucent background fill
        yield artist


def _covers(artist, box):
    """Whether ``artist`` (a line, patch or collection) has ink inside ``box``."""
    if artist.get_clip_on() and artist.axes is not None:
        box = Bbox.intersection(box, artist.axes.bbox)
        if box is None or box.width <= SLACK or box.height <= SLACK:
            return False
    if isinstance(artist, Line2D):
        path = artist.get_transform().transform_path(artist.get_path())
        if artist.get_linestyle() in ("None", "", " ", "none"):
            return bool(box.count_contains(path.vertices))
        return path.intersects_bbox(box, filled=False)
    if isinstance(artist, Patch):
        path = artist.get_transform().transform_path(artist.get_path())
        return path.intersects_bbox(box, filled=artist.get_fill())
    if isinstance(artist, Collection):
        offsets = artist.get_offsets()
        if len(offsets) and len(artist.get_paths()) <= 1 and artist.get_offset_transform() is not None:
            points = artist.get_offset_transform().transform(offsets)  # a scatter
            return bool(box.count_contains(points))
        transform = artist.get_transform()
        return any(transform.transform_path(p).intersects_bbox(box, filled=True)
                   for p in artist.get_paths())
    return False


def _legends(ax):
    return [c for c in ax.get_children() if isinstance(c, Legend) and c.get_visible()]


def _in_legend(text):
    return any(text in legend.texts for legend in _legends(text.axes))


def _title(ax):
    return f"panel {ax.get_title()!r}" if ax.get_title() else "a panel"


def clutter(figure, monkeypatch=None):
    """Problems in ``figure``: text over text, text past the edge, text over data. The
    full draw it makes leaves animated artists in the canvas: redraw the background after."""
    texts = drawn_texts(figure)
    edge = figure.bbox
    problems = []
    for text, box in texts:
        if (box.x0 < edge.x0 - SLACK or box.y0 < edge.y0 - SLACK
                or box.x1 > edge.x1 + SLACK or box.y1 > edge.y1 + SLACK):
            problems.append(f"text {_name(text)} is cut off by the figure's edge")
    for (a, box_a), (b, box_b) in itertools.combinations(texts, 2):
        if _overlap(box_a, box_b):
            problems.append(f"text {_name(a)} overlaps text {_name(b)}")
    renderer = figure.canvas.get_renderer()
    for ax in figure.axes:
        if not ax.get_visible():
            continue
        boxes = [(f"text {_name(t)}", b) for t, b in texts
                 if t.axes is ax and t.get_gid() != plotting.ON_DATA and not _in_legend(t)]
        boxes += [(f"the legend of {_title(ax)}", legend.get_window_extent(renderer))
                  for legend in _legends(ax)]
        for label, box in boxes:
            for artist in _data_artists(ax):
                if _covers(artist, box):
                    problems.append(f"{label} covers {artist.__class__.__name__} "
                                    f"{artist.get_label()!r} in {_title(ax)}")
    return sorted(set(problems))


def no_clutter(e):
    """Issue 13: no text overlaps other text, the figure's edge or the data."""
    problems = clutter(e.figure)
    e.forget_pixels()  # the recording draw put animated artists in the background
    return problems


# --- the walk ------------------------------------------------------------------------------------

#: The per-state checks, by name: (check, the states it runs in, scale-dependent).
CHECKS = {
    "controls act": (controls_act, ("default", "mode"), False),
    "pure compute": (compute_is_pure, ("default", "mode", "end"), False),
    "layer order": (layers_in_order, ("default", "mode", "end"), True),
    "pasted = fresh": (pasted_equals_fresh, ("default", "mode", "end"), True),
    "no clutter": (no_clutter, ("default", "mode", "end"), True),
}


#: The checks :func:`check_contract` runs on an opening other than the default one.
OPENING_CHECKS = ("controls act", "pure compute", "layer order")


def walk(cls, *, scale="laptop", checks=tuple(CHECKS), kinds=("default", "mode", "end"), unchanged_ok=(),
         **kwargs):
    """Open ``cls`` with ``kwargs`` at ``scale`` ("laptop" or "presenter"), visit every state
    of :func:`states` of ``kinds`` once and run ``checks`` there (at presenter scale only the
    checks whose outcome depends on the scale). Fails with every problem found."""
    if scale == "presenter":
        evalteach.presenter()
    try:
        e = cls(seed=0, **kwargs)
        start = {name: control.value for name, control in e.controls.items()}
        failures = []
        for label, kind, values in [state for state in states(e) if state[1] in kinds]:
            e.set(**start)
            e.set(**values)
            if e.error is not None:
                failures.append(f"{label}: {e.error}")
                continue
            for name in checks:
                check, where, scaled = CHECKS[name]
                if kind not in where or (scale != "laptop" and not scaled):
                    continue
                found = check(e, unchanged_ok) if check is controls_act else check(e)
                failures += [f"{label}: {problem} [{name}]" for problem in found]
    finally:
        if scale == "presenter":
            evalteach.presenter(False)
    assert not failures, f"{cls.__name__} at {scale} scale:\n" + "\n".join(failures)


def check_visible_controls_act(cls, *, unchanged_ok=(), **kwargs):
    """Issue 10's rule over the default state and every mode (the walk's first check alone)."""
    walk(cls, checks=("controls act",), kinds=("default", "mode"), unchanged_ok=unchanged_ok, **kwargs)


def walked_by_the_walk_test(cls, kwargs):
    """Whether ``tests/test_explorer_walk.py`` already walks ``cls`` opened with ``kwargs``
    (the default opening of a listed explorer)."""
    return not kwargs and cls.__name__ in widgets.EXPLORERS and getattr(widgets, cls.__name__) is cls


# --- the contract of one opening -------------------------------------------------------------

def check_contract(cls, *, sweep=100, unchanged_ok=(), same_result_ok=(), every_mode=True, **kwargs):
    """Run the framework contract on explorer class ``cls`` opened with ``kwargs``.

    ``unchanged_ok`` names controls allowed to leave the picture unchanged, ``same_result_ok``
    controls that change only how the numbers are drawn, not the numbers (each must be
    justified in the calling test). ``every_mode=True`` also walks this opening through
    its default state and every mode (:func:`walk`) with the checks that depend on the
    numbers (:data:`OPENING_CHECKS`; the picture-only checks, which cost a full draw a
    state, run on the default opening in the walk test), unless the walk test already walks it (the
    default opening of an explorer in ``widgets.EXPLORERS``); ``every_mode=False`` leaves
    that out, for a slow explorer whose default opening the walk test covers.
    """
    figures_before = plt.get_fignums()
    e = cls(seed=0, **kwargs)
    assert e.image.startswith(PNG_MAGIC)
    assert isinstance(e.figure, Figure)
    assert e.result is not None and e.error is None
    assert set(e.controls) | {"seed"} == set(e.state)

    # Same seed, same picture.
    assert cls(seed=0, **kwargs).image == e.image

    # Every control changes the picture and the numbers, and the numbers shown are the
    # model's for the new state (a control the current mode hides is exempt here; the walk
    # covers it in the modes that show it).
    for name, control in e.controls.items():
        value = other_value(control)
        if value is None or name in unchanged_ok or name in e._hidden(e.state):
            continue
        before_image, before_result = e.image, e.result
        control.value = value
        assert e.error is None, f"{name}={value!r}: {e.error}"
        assert e.image != before_image, f"changing {name} to {value!r} left the picture unchanged"
        assert same(e.result, e._compute(e.state)), f"{name}={value!r}: the result shown is not the model's"
        if name not in same_result_ok:
            assert not same(e.result, before_result), f"changing {name} to {value!r} left the result unchanged"

    if every_mode and cls.__name__ not in WALK_TODO and not walked_by_the_walk_test(cls, kwargs):
        walk(cls, checks=OPENING_CHECKS, kinds=("default", "mode"), unchanged_ok=unchanged_ok, **kwargs)

    # A seeded random sweep: no exception escapes, a picture is always there.
    rng = np.random.default_rng(12345)
    names = list(e.controls)
    for _ in range(sweep):
        name = names[rng.integers(len(names))]
        value = other_value(e.controls[name], rng)
        if value is None:
            continue
        e.controls[name].value = value  # must not raise
        assert e.image.startswith(PNG_MAGIC)
        if e.error is None:
            assert e.state[name] == value or np.isclose(e.state[name], value)

    # Static fallback: the display bundle carries a PNG of the current figure.
    bundle = e._repr_mimebundle_()
    assert base64.b64decode(bundle["image/png"]) == e.image
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"]

    # Bad keyword values are refused with the parameter named.
    with pytest.raises(TypeError, match="no_such_control"):
        cls(no_such_control=1)
    with pytest.raises(ValueError, match="seed"):
        cls(seed=-1)
    for name, control in e.controls.items():
        if isinstance(control, (W.IntSlider, W.FloatSlider)):
            with pytest.raises(ValueError, match=name):
                cls(**{name: control.max + 100 * control.step})
            break

    # Resample draws new data where the explorer offers it.
    if e.resample_button:
        before = e.image
        e.resample()
        assert e.error is None and e.image != before

    assert plt.get_fignums() == figures_before, "an explorer left a pyplot figure open"
    return e


def redrawn_afresh(explorer, monkeypatch=None):
    """The PNG of ``explorer``'s state drawn afresh in the same layout: no cached background
    and no cached layers. Compare it with ``explorer.image`` to check that what an update
    pasted from its caches is what drawing would have drawn."""
    explorer.forget_pixels()
    explorer._text_grew = lambda: False  # keep the layout: compare like with like
    try:
        explorer.set()
    finally:
        del explorer._text_grew
    return explorer.image


# --- event loops and threads -------------------------------------------------------------------

def run_on_a_fresh_event_loop(coroutine):
    """Run ``coroutine`` as a kernel would, on its own thread's event loop.

    The browser tests keep Playwright's event loop running on the main thread for the
    whole session, so ``asyncio.run`` there would refuse; a fresh thread has none.
    """
    failure = []

    def run():
        try:
            asyncio.run(coroutine)
        except BaseException as error:  # re-raised on the test's thread
            failure.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=60)
    assert not thread.is_alive(), "the coroutine did not finish within 60 s"
    if failure:
        raise failure[0]


def built_without_an_event_loop(factory):
    """``factory()`` called on a fresh thread, which has no running event loop."""
    built = []
    thread = threading.Thread(target=lambda: built.append(factory()))
    thread.start()
    thread.join(timeout=60)
    assert built, "the factory failed or took over 60 s"
    return built[0]
