"""The contract every explorer keeps (``docs/explorers.md``), as reusable checks.

Each explorer's test module calls :func:`check_contract`; explorer-specific tests
then check that the numbers shown equal what ``evalteach.stats`` computes.
"""
from __future__ import annotations

import asyncio
import base64
import threading

import ipywidgets as W
import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure

from evalteach import widgets
from evalteach.widgets._base import _option_values
from evalteach.widgets._cached_layer import CachedLayer

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def other_value(control, rng=None):
    """A valid value for ``control`` different from its current one (None if there is none)."""
    if isinstance(control, (W.Checkbox, W.ToggleButton)):
        return not control.value
    if isinstance(control, (W.Dropdown, W.ToggleButtons, W.RadioButtons, W.Select)):
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


#: Explorers that do not yet keep issue 10's rule "each visible, enabled control changes
#: the picture" in every mode, and why. ``tests/test_explorer_controls.py`` marks them
#: xfail(strict=True); whoever fixes one (with the ``Explorer._hidden`` hook) removes it here.
CONTROLS_TODO = {}

_CHOICES = (W.Dropdown, W.ToggleButtons, W.RadioButtons, W.Select)


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


def check_visible_controls_act(cls, *, unchanged_ok=(), **kwargs):
    """Issue 10's rule, over the default state and every mode: each visible, enabled
    control changes the picture (controls a mode does not use must be hidden by the
    explorer's ``_hidden`` hook). ``unchanged_ok`` lists justified exceptions."""
    e = cls(seed=0, **kwargs)
    start = {name: control.value for name, control in e.controls.items()}
    failures = []
    for mode in [None] + modes(e):
        e.set(**start)
        if mode is not None:
            e.set(**{mode[0]: mode[1]})
        where = "default state" if mode is None else f"mode {mode[0]}={mode[1]!r}"
        if e.error is not None:
            failures.append(f"{where}: {e.error}")
            continue
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
                    failures.append(f"{where}: {name} is visible but setting it to "
                                    f"{' or '.join(map(repr, tried))} left the picture unchanged")
    assert not failures, f"{cls.__name__}:\n" + "\n".join(failures)


def checked_by_controls_test(cls, kwargs):
    """Whether ``tests/test_explorer_controls.py`` already runs :func:`check_visible_controls_act`
    on ``cls`` opened with ``kwargs`` (the default opening of a listed explorer)."""
    return not kwargs and cls.__name__ in widgets.EXPLORERS and getattr(widgets, cls.__name__) is cls


def check_contract(cls, *, sweep=100, unchanged_ok=(), every_mode=True, **kwargs):
    """Run the framework contract on explorer class ``cls`` opened with ``kwargs``.

    ``unchanged_ok`` names controls allowed to leave the picture unchanged from the
    default state (each must be justified in the calling test). ``every_mode=False``
    leaves out the visible-controls check over every mode, for a slow explorer whose
    default opening ``tests/test_explorer_controls.py`` already checks that way. That
    test checks the default opening of every explorer in ``widgets.EXPLORERS`` (with no
    ``unchanged_ok`` exceptions), so opened with no ``kwargs`` such an explorer is not
    checked here a second time.
    """
    figures_before = plt.get_fignums()
    e = cls(seed=0, **kwargs)
    assert e.image.startswith(PNG_MAGIC)
    assert isinstance(e.figure, Figure)
    assert e.result is not None and e.error is None
    assert set(e.controls) | {"seed"} == set(e.state)

    # Same seed, same picture.
    assert cls(seed=0, **kwargs).image == e.image

    # Every control changes the picture and the result (a control the current mode hides
    # is exempt here; the visible-controls check below covers it in the modes that show it).
    for name, control in e.controls.items():
        value = other_value(control)
        if value is None or name in unchanged_ok or name in e._hidden(e.state):
            continue
        before_image, before_result = e.image, e.result
        control.value = value
        assert e.error is None, f"{name}={value!r}: {e.error}"
        assert e.image != before_image, f"changing {name} to {value!r} left the picture unchanged"
        assert e.result is not before_result

    # In every mode, every visible, enabled control changes the picture (issue 10).
    if every_mode and cls.__name__ not in CONTROLS_TODO and not checked_by_controls_test(cls, kwargs):
        check_visible_controls_act(cls, unchanged_ok=unchanged_ok, **kwargs)

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


def redrawn_afresh(explorer, monkeypatch):
    """The PNG of ``explorer``'s state drawn afresh in the same layout: no cached background
    and no cached layers. Compare it with ``explorer.image`` to check that what an update
    pasted from its caches is what drawing would have drawn."""
    for artist in explorer._dynamic:
        if isinstance(artist, CachedLayer):
            artist.clear()
    explorer._background = None
    with monkeypatch.context() as m:
        m.setattr(explorer, "_text_grew", lambda: False)  # keep the layout: compare like with like
        explorer._update()
    return explorer.image


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
