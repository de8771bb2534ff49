"""Drawing ahead: the states a click leads to next are drawn while the kernel is idle.

What is checked: the picture on screen does not change while a state is drawn ahead; the
click to a state drawn ahead shows exactly the picture it shows without drawing ahead;
its layers are pasted, not drawn (no cached layer misses); and in a kernel the work
happens by itself, in idle time, once per state.
"""
import asyncio

import numpy as np
import pytest

from evalteach import widgets
from evalteach.widgets import _base
from evalteach.widgets._cached_layer import PIXELS
from explorer_contract import run_on_a_fresh_event_loop

#: Explorers that draw ahead, and clicks that lead to states they draw ahead.
CLICKS = {
    "SamplingErrorExplorer": [("learner", True), ("learner", False)],
    "LearningCurveExplorer": [("dataset", "wine"), ("mode", "class"), ("k", 5), ("dataset", "digits")],
    "RandomizationExplorer": [("learner_b", "stump"), ("mode", "bootstrap"), ("dataset", "wine"),
                              ("mode", "permutation"), ("k", 5)],
}


def pixels(explorer):
    return np.asarray(explorer.figure.canvas.buffer_rgba()).copy()


def pictures_after(name, clicks, warm):
    explorer = getattr(widgets, name)(seed=0)
    shown = [explorer.image]
    for control, value in clicks:
        if warm:
            before, canvas = explorer.image, pixels(explorer)
            explorer.warm_up()
            assert explorer.image == before  # nothing on screen changes
            assert np.array_equal(pixels(explorer), canvas)  # the canvas holds it again
        explorer.controls[control].value = value
        shown.append(explorer.image)
    return shown


@pytest.mark.parametrize("name", sorted(CLICKS))
def test_a_state_drawn_ahead_shows_the_picture_it_shows_without(name):
    assert pictures_after(name, CLICKS[name], warm=True) == pictures_after(name, CLICKS[name], warm=False)


@pytest.mark.parametrize("name", sorted(CLICKS))
def test_the_click_to_a_state_drawn_ahead_draws_no_layer_afresh(name, monkeypatch):
    explorer = getattr(widgets, name)(seed=0)
    control, value = CLICKS[name][0]
    explorer.warm_up()
    drawn = []  # every layer that misses keeps a new copy
    put = PIXELS.put
    monkeypatch.setattr(PIXELS, "put", lambda owner, key, pixels: drawn.append(key) or put(owner, key, pixels))
    explorer.controls[control].value = value
    assert drawn == []


def test_drawing_ahead_draws_only_the_layers_and_keeps_what_the_picture_shown_remembers(monkeypatch):
    """A state drawn ahead draws only what its click will paste (no other dynamic artist, no
    PNG), and leaves what ``_draw`` remembers between pictures (the limits it keeps) as the
    picture shown left it."""
    explorer = widgets.RandomizationExplorer(seed=0)
    kept = {mode: dict(limits) for mode, limits in explorer._kept.items()}
    encoded, titles = [], []
    monkeypatch.setattr(_base, "png_bytes", lambda canvas: encoded.append(canvas) or b"")
    draw = explorer.hist_title.draw
    monkeypatch.setattr(explorer.hist_title, "draw", lambda renderer: titles.append(1) or draw(renderer))
    queued = len(explorer._warm_queue)
    explorer.warm_up()
    assert queued >= 10 and explorer._warm_queue == []
    assert encoded == [] and titles == []
    assert explorer._kept == kept


def test_explorers_that_name_no_states_draw_nothing_ahead():
    explorer = widgets.CLTExplorer(seed=0)
    assert explorer._warm_queue == [] and explorer._warm_step() is False
    assert explorer.scheduler.idle_jobs == []


def test_an_idle_kernel_draws_ahead_by_itself_once_per_state():
    drawn = []

    async def kernel():
        explorer = widgets.SamplingErrorExplorer(seed=0)  # built on this loop, as in a kernel
        compute = explorer._compute
        explorer._compute = lambda state: drawn.append(state["learner"]) or compute(state)
        explorer.controls["n"].value = 50  # a change, then the kernel is idle
        for _ in range(100):
            await asyncio.sleep(_base.IDLE_PAUSE)
        assert drawn == [False, True]  # the change itself, then the learner panel ahead
        assert explorer._warm_queue == []
        explorer.controls["n"].value = 60
        for _ in range(100):
            await asyncio.sleep(_base.IDLE_PAUSE)
        assert drawn == [False, True] * 2
        explorer.controls["n"].value = 50  # back: its next state was drawn ahead already
        for _ in range(30):
            await asyncio.sleep(_base.IDLE_PAUSE)
        assert drawn == [False, True] * 2 + [False]
        explorer.widget.close()

    run_on_a_fresh_event_loop(kernel())


def test_drawing_ahead_shows_no_progress_and_survives_a_failing_state():
    explorer = widgets.LearningCurveExplorer(seed=0)
    compute = explorer._compute

    def failing_on_wine(state):
        if state["dataset"] == "wine":
            raise RuntimeError("only ahead of time")
        explorer.report_progress(0.5)
        return compute(state)

    explorer._compute = failing_on_wine
    before = explorer.image
    explorer.warm_up()
    assert explorer.image == before and explorer.error is None
    assert explorer._progress.layout.display == "none"
