"""The explorer base class: update loop, blitting, inline errors, fallback, presenter mode."""
import asyncio
import gc
import io
import threading
import time
import weakref
import zlib

import ipywidgets as W
import numpy as np
import pytest

import evalteach
from evalteach import plotting, widgets
from evalteach.widgets import _base
from evalteach.widgets._base import COALESCE, REST, Explorer, buttons, checkbox, png_bytes, slider
from evalteach.widgets._cached_layer import PAD, CachedLayer
from explorer_contract import (PNG_MAGIC, built_without_an_event_loop, check_contract,
                               check_visible_controls_act, run_on_a_fresh_event_loop, walk)


class Demo(Explorer):
    """A minimal explorer: the histogram of binomial draws."""

    title = "demo"
    resample_button = True
    play = {"n": 200}

    def _controls(self):
        return {"n": slider("n", 10, 1, 100), "p": slider("p", 0.3, 0.0, 1.0, 0.01),
                "grid": checkbox("grid", False)}

    def _compute(self, state):
        if state["p"] > 0.95:
            raise ValueError("p is too large for this demo")
        rng = np.random.default_rng(state["seed"])
        return rng.binomial(state["n"], state["p"], 500)

    def _build(self, figure):
        self.ax = figure.subplots()
        self.ax.set_xlim(0, 100)
        self.ax.set_ylim(0, 0.6)
        (self.line,) = self.ax.plot([], [])
        self.dynamic(self.line)
        self.grid_on = False

    def _draw(self, result):
        values, counts = np.unique(result, return_counts=True)
        self.line.set_data(values, counts / counts.sum())
        if self.state["grid"] != self.grid_on:  # a static part changed: full redraw
            self.grid_on = self.state["grid"]
            self.ax.grid(self.grid_on)
            self.relayout()

    def _summary(self, result):
        return f"mean of the draws {result.mean():.3f}"


def test_demo_keeps_the_contract():
    check_contract(Demo, sweep=30, same_result_ok=("grid",))  # grid lines: the draws stay


def test_the_contract_catches_a_control_that_leaves_the_numbers_as_they_were():
    with pytest.raises(AssertionError, match="changing grid to True left the result unchanged"):
        check_contract(Demo, sweep=0)


def test_the_contract_catches_a_result_that_is_not_the_models():
    class Counting(Demo):
        calls = 0

        def _compute(self, state):  # impure: each call draws with another seed
            self.calls += 1
            return np.random.default_rng(self.calls).binomial(state["n"], state["p"], 500)

    with pytest.raises(AssertionError, match="the result shown is not the model's"):
        check_contract(Counting, sweep=0)
    with pytest.raises(AssertionError, match="twice gave different results"):
        walk(Counting, checks=("pure compute",))


class Layered(Demo):
    """Demo with its title in a cached layer keyed by what the title says."""

    def _controls(self):
        return dict(super()._controls(), p=slider("p", 0.3, 0.0, 0.9, 0.01))  # no error at its ends

    def _build(self, figure):
        super()._build(figure)
        self.heading = self.ax.set_title(" ")
        # padded: anti-aliased glyph edges reach past the text's box
        self.layer = CachedLayer([self.heading], region=lambda renderer: self.heading.get_window_extent(renderer),
                                 pad=PAD)
        self.dynamic(self.layer)

    def _draw(self, result):
        super()._draw(result)
        self.heading.set_text(f"{self.state['n']} trials, p = {self.state['p']:.2f}")
        self.layer.show(self._key())

    def _key(self):
        return self.state["n"], self.state["p"]


def test_the_walk_finds_a_layer_key_that_misses_what_its_pixels_show():
    class Forgetful(Layered):
        def _key(self):
            return self.state["n"]  # the title shows p too

    walk(Layered, checks=("pasted = fresh", "layer order"))
    with pytest.raises(AssertionError, match="differs from the one drawn afresh.*in the box of .*Text"):
        walk(Forgetful, checks=("controls act", "pasted = fresh"))


def test_the_walk_finds_an_artist_drawn_before_the_layer_that_covers_it():
    class Late(Layered):
        def _draw(self, result):
            super()._draw(result)
            self.layer.region = lambda renderer: self.ax.bbox  # over the line, which is drawn first

    with pytest.raises(AssertionError, match="Line2D is drawn before the layer"):
        walk(Late, checks=("layer order",))


def test_assignment_updates_before_returning():
    d = Demo(n=20)
    d.controls["n"].value = 40
    assert d.result.size == 500 and d.state["n"] == 40
    expected = np.random.default_rng(0).binomial(40, 0.3, 500)
    np.testing.assert_array_equal(d.result, expected)
    assert "mean of the draws" in d._summary_html.value
    assert d._image.tooltip == f"demo. {d._summary(d.result)}"  # the picture's accessible name


def test_error_is_shown_inline_and_last_picture_stays():
    d = Demo()
    good_image, good_result = d.image, d.result
    d.controls["p"].value = 0.99  # the model raises; nothing may escape
    assert d.error == "ValueError: p is too large for this demo"
    assert d.image == good_image and d.result is good_result
    assert d._error.layout.display == "block" and "last valid" in d._error.value
    d.controls["p"].value = 0.5
    assert d.error is None and d._error.layout.display == "none" and d.image != good_image


def test_set_changes_several_controls_with_one_update():
    d = Demo()
    calls = []
    original = d._compute
    d._compute = lambda state: calls.append(state) or original(state)
    assert d.set(n=50, p=0.5)
    assert len(calls) == 1 and calls[0]["n"] == 50 and calls[0]["p"] == 0.5


def test_blitting_matches_a_full_redraw():
    d = Demo()
    d.controls["n"].value = 70
    blitted = d.image
    d.rebuild()
    assert d.image == blitted


def test_changes_from_the_browser_render_once_latest_wins_summary_at_rest():
    # Built on a thread with no event loop, so that it draws wherever a change arrives (the
    # browser tests keep Playwright's loop "running" on this thread, where nothing would
    # ever run a change handed to it).
    d = built_without_an_event_loop(lambda: Demo(n=20))
    calls = []
    original = d._compute
    d._compute = lambda state: calls.append(state["n"]) or original(state)
    fresh = Demo(n=24)  # the state the drag ends on, drawn from Python

    async def drag():
        d.controls["n"].set_state({"value": 21})  # what the comm does with a slider message
        await asyncio.sleep(COALESCE * 5)
        assert calls == [21]
        shown = d._summary_html.value
        assert shown == Demo(n=21)._summary_html.value  # a single change: summary at once
        for n in (22, 23, 24):  # the hand goes on: a drag
            d.controls["n"].set_state({"value": n})
        assert calls == [21] and d.state["n"] == 24  # values set, nothing drawn yet
        await asyncio.sleep(COALESCE * 5)
        assert calls == [21, 24]  # one render, of the latest state
        assert d.image == fresh.image
        assert fresh._summary_text in d._image.tooltip  # the picture's name is up to date,
        assert d._summary_html.value == shown != fresh._summary_html.value  # the live region waits
        await asyncio.sleep(REST * 2)
        assert calls == [21, 24]  # the hand rests: no redraw, the summary is announced
        assert d._summary_html.value == fresh._summary_html.value

    run_on_a_fresh_event_loop(drag())

    async def press():  # a key press after a rest: picture and summary at once
        d.controls["n"].set_state({"value": 25})
        await asyncio.sleep(COALESCE * 5)
        assert d._summary_html.value == Demo(n=25)._summary_html.value

    run_on_a_fresh_event_loop(press())
    assert calls[2:] == [25]
    d.controls["n"].value = 30  # from Python: at once
    assert calls[-1] == 30 and d._summary_html.value == Demo(n=30)._summary_html.value


class Stepwise(Demo):
    """A model that, answering the browser, shows a first part and completes it in steps."""

    steps = 3
    done = 0

    def _compute(self, state):
        return np.random.default_rng(state["seed"]).binomial(state["n"], state["p"], 500)

    def _preview(self, state):
        if self.done >= self.steps:
            return None
        return self._compute(state)[: 500 * self.done // self.steps]

    def _refine(self, state):
        self.done += 1


def test_a_live_update_may_answer_in_parts_and_complete_itself():
    d = built_without_an_event_loop(lambda: Stepwise(n=20))
    assert d.result.size == 500 and not d._partial  # from Python: in full
    sizes = []
    draw = d._draw
    d._draw = lambda result: sizes.append(result.size) or draw(result)

    async def press():
        d.done = 1
        d.controls["n"].set_state({"value": 21})  # a slider message
        for _ in range(20):
            await asyncio.sleep(COALESCE * 5)

    run_on_a_fresh_event_loop(press())
    assert sizes == [166, 333, 500] and not d._partial  # a first part, then completed in steps
    expected = Stepwise(n=21)
    assert d.image == expected.image  # the completed picture is the one Python gets at once
    d.done = 0
    d._resample_clicked(None)  # no event loop now: the button draws at once, in full
    assert d.seed == 1 and d.result.size == 500


def test_compute_stays_pure_while_a_partial_answer_is_refined():
    """The parts come from _preview and _refine; _compute is the full answer whatever they did."""
    d = Stepwise(n=30)
    d.done = 1
    first = d._compute(d.state)
    d._refine(d.state)
    np.testing.assert_array_equal(d._compute(d.state), first)
    assert d._preview(d.state).size == 333


class HomeKernel:
    """A kernel's main thread in miniature: an event loop running on its own thread."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, function):
        """Run ``function`` on the home thread, as a cell would, and return its value."""
        async def call():
            return function()
        return asyncio.run_coroutine_threadsafe(call(), self.loop).result(timeout=60)

    def settle(self):
        """Wait until the callbacks queued on the home loop so far (and those they queue) ran."""
        for _ in range(3):
            self.run(lambda: None)
        time.sleep(COALESCE * 5)
        self.run(lambda: None)

    def stop(self):
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()


def test_changes_from_another_thread_are_drawn_on_the_thread_that_built_the_explorer():
    # JupyterLab 4.4+ handles widget messages on a kernel subshell: a second thread. Two
    # threads drawing at once break FreeType ("FT_Load_Glyph ... invalid outline", seen in
    # the browser tests), so the explorer draws every change at home.
    home = HomeKernel()
    try:
        d = home.run(lambda: Demo(n=20))
        drawn_on = []
        original = d._compute
        d._compute = lambda state: drawn_on.append(threading.get_ident()) or original(state)
        d.controls["n"].set_state({"value": 33})  # a slider message, on this (the subshell's) thread
        d.controls["grid"].value = True            # a value set from code on this thread
        d._buttons[-1].click()                     # the Resample button
        home.settle()
        assert drawn_on and set(drawn_on) == {home.thread.ident}
        assert d.state["n"] == 33 and d.state["grid"] and d.seed == 1
        assert d.result is not None and d.error is None
    finally:
        home.stop()
    d.controls["n"].value = 40  # the home loop has stopped: draw here, at once
    assert d.state["n"] == 40 and d.image.startswith(PNG_MAGIC)


def test_drawing_holds_one_lock_for_all_threads():
    d = Demo()
    held = []
    original = d._draw
    d._draw = lambda result: held.append(plotting.DRAWING._is_owned()) or original(result)
    d.controls["n"].value = 50
    assert held == [True]


def test_pictures_have_twice_the_pixels_of_their_size_on_screen():
    d = Demo()
    width, height = d.figure.canvas.get_width_height(physical=True)
    t = plotting.theme()
    assert width == round(Demo.figsize[0] * t.dpi * 2) and height == round(Demo.figsize[1] * t.dpi * 2)
    assert d._image.layout.width == f"{round(Demo.figsize[0] * t.dpi)}px"
    assert d._image.layout.max_width == "100%"
    assert d._repr_mimebundle_()["image/png"]  # the static fallback is the same crisp PNG


@pytest.mark.parametrize("deflate", [None, zlib.compress], ids=["isal", "zlib"])
def test_png_holds_exactly_the_canvas_pixels(deflate):
    from PIL import Image

    d = Demo()
    png = png_bytes(d.figure.canvas, deflate=deflate)
    width, height = d.figure.canvas.get_width_height(physical=True)
    expected = np.asarray(d.figure.canvas.buffer_rgba()).reshape(height, width, 4)
    decoded = np.asarray(Image.open(io.BytesIO(png)))
    assert decoded.shape == expected.shape and np.array_equal(decoded, expected)
    assert len(set(np.unique(expected[..., 0]))) > 2  # a real picture, not a blank canvas


def test_layout_makes_room_when_tick_labels_grow():
    class Wide(Demo):
        def _draw(self, result):
            super()._draw(result)
            if self.state["n"] > 50:  # six-digit tick labels, wider than "0.6"
                self.ax.set_ylim(0, 500000.0)
                self.relayout()

    d = Wide()
    left = d.ax.get_position().x0
    d.controls["n"].value = 60
    assert d.ax.get_position().x0 > left
    assert d.ax.get_tightbbox(d.figure.canvas.get_renderer()).x0 >= 0


def test_presenter_mode_redraws_open_explorers_larger():
    d = Demo()
    small = d.figure.get_size_inches()
    try:
        evalteach.presenter()
        # fonts and figure grow together, so the layout is the classroom one, larger
        np.testing.assert_allclose(d.figure.get_size_inches(), small * 1.5)
        assert d.image.startswith(PNG_MAGIC)
        assert d.controls["n"].layout.width.startswith(f"max({plotting.PRESENTER.control_width}, calc(")
        evalteach.presenter(contrast="high")
        assert plotting.theme().contrast == "high" and d.image.startswith(PNG_MAGIC)
        assert plotting.PALETTE["yellow"] not in plotting.theme().cycle
    finally:
        evalteach.presenter(False)
    np.testing.assert_allclose(d.figure.get_size_inches(), small)
    with pytest.raises(TypeError, match="on"):
        evalteach.presenter("yes")
    with pytest.raises(ValueError, match="contrast"):
        evalteach.presenter(contrast="loud")


def _contrast_with_white(color):
    """WCAG 2.1 contrast ratio, computed here from the standard's formula."""
    from matplotlib.colors import to_rgb

    channels = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in to_rgb(color)]
    luminance = 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    return 1.05 / (luminance + 0.05)


def test_legible_darkens_pale_text_and_keeps_its_hue():
    from matplotlib.colors import rgb_to_hsv, to_rgb
    from matplotlib.text import Text

    assert plotting.legible(plotting.PALETTE["grey"]) == "#595959"  # 7.0:1, the published AAA grey
    orange = plotting.legible(plotting.PALETTE["orange"])
    assert 7.0 <= _contrast_with_white(orange) < 7.1
    assert rgb_to_hsv(to_rgb(orange))[0] == pytest.approx(rgb_to_hsv(to_rgb(plotting.PALETTE["orange"]))[0], abs=0.01)
    assert plotting.legible("black") == "black"
    laptop = evalteach.widgets.ZTableExplorer(seed=0)  # grey notes: what high contrast must fix
    assert any(_contrast_with_white(t.get_color()) < 7.0 for t in laptop.figure.findobj(Text) if t.get_text().strip())


@pytest.mark.parametrize("name", list(evalteach.widgets.EXPLORERS))
def test_high_contrast_text_is_dark_enough_for_a_projector(name):
    """Every text drawn in high contrast reaches 7:1 against white (WCAG AAA), also the grey
    notes and coloured labels the explorers set themselves; hues are kept, only darkened."""
    from matplotlib.text import Text

    try:
        evalteach.presenter(contrast="high")
        e = getattr(evalteach.widgets, name)(seed=0)
        texts = [t for t in e.figure.findobj(Text) if t.get_visible() and t.get_text().strip()]
        assert texts and all(_contrast_with_white(t.get_color()) >= 7.0 for t in texts)
    finally:
        evalteach.presenter(False)


def test_palette_is_okabe_ito():
    assert plotting.PALETTE["blue"] == "#0072B2" and len(plotting.CYCLE) == 8


def test_png_encoder_round_trips_the_canvas_pixels():
    from io import BytesIO

    from PIL import Image

    d = Demo(n=33)
    decoded = np.asarray(Image.open(BytesIO(d.image)).convert("RGB"))
    canvas_pixels = np.asarray(d.figure.canvas.buffer_rgba())[:, :, :3]
    np.testing.assert_array_equal(decoded, canvas_pixels)


class ModeDemo(Demo):
    """Demo with a mode that does not use ``p``: the draws spread evenly over 0..n."""

    play = {"p": 100}

    def _controls(self):
        return dict(super()._controls(), mode=buttons("mode", ["binomial", "half"]))

    def _compute(self, state):
        if state["mode"] == "half":
            return np.arange(500) % (state["n"] + 1)
        return super()._compute(state)

    def _hidden(self, state):
        return {"p"} if state["mode"] == "half" else set()


def test_controls_a_mode_does_not_use_are_hidden_with_their_play_button():
    d = ModeDemo()
    assert d.controls["p"].layout.display is None and "p" in d.visible_controls()
    d.controls["mode"].value = "half"
    assert d.controls["p"].layout.display == "none" and "p" not in d.visible_controls()
    assert d._players["p"].layout.display == "none"
    d.controls["mode"].value = "binomial"
    assert d.controls["p"].layout.display is None and d._players["p"].layout.display is None


def test_a_choice_from_the_browser_takes_the_browser_path():
    # ipywidgets 8 syncs a choice by its "index": the message sets index, and value follows
    d = built_without_an_event_loop(ModeDemo)
    calls = []
    original = d._compute
    d._compute = lambda state: calls.append(state["mode"]) or original(state)

    async def click():
        d.controls["mode"].set_state({"index": 1})
        assert calls == [] and d.state["mode"] == "half"  # recorded, not drawn inside the message
        await asyncio.sleep(COALESCE * 5)

    run_on_a_fresh_event_loop(click())
    assert calls == ["half"]


def test_contract_catches_a_visible_control_that_does_nothing():
    class Lazy(ModeDemo):
        def _hidden(self, state):
            return set()

    check_visible_controls_act(ModeDemo)
    with pytest.raises(AssertionError, match="mode mode='half': p is visible"):
        check_visible_controls_act(Lazy)


def test_hidden_must_name_real_controls():
    class Typo(ModeDemo):
        def _hidden(self, state):
            return {"q"}

    with pytest.raises(ValueError, match="unknown controls"):
        Typo()


class RecordingComm:
    """A comm that keeps what the widget sends (as a kernel's would send it to the browser)."""

    kernel = object()
    comm_id = "recording"

    def __init__(self):
        self.sent = []

    def send(self, data=None, buffers=None, **kwargs):
        self.sent.append(data)

    def on_msg(self, callback):
        pass

    def close(self, *args, **kwargs):
        pass


def test_a_picture_and_its_accessible_name_travel_in_one_message():
    d = Demo()
    comm = d._image.comm = RecordingComm()
    d.controls["n"].value = 50
    # the picture's bytes travel as a binary buffer, named in buffer_paths
    updates = [sorted([*m["state"], *(path[0] for path in m.get("buffer_paths", []))])
               for m in comm.sent if m.get("method") == "update"]
    assert updates == [["tooltip", "value"]]


def test_idle_work_runs_in_steps_until_done_and_never_raises():
    steps = []

    def work(limit, fail_at=None):
        def step():
            steps.append(len(steps))
            if len(steps) == fail_at:
                raise RuntimeError("ahead of time only")
            return len(steps) < limit
        return step

    async def idle():
        d = Demo()  # built on this loop: its idle work runs here
        d.scheduler.idle("demo", work(3))
        d.scheduler.idle("demo", work(4))  # replaces the first: the same name
        for _ in range(50):
            await asyncio.sleep(_base.IDLE_PAUSE)
        assert steps == [0, 1, 2, 3] and d.scheduler.idle_jobs == []
        d.scheduler.idle("demo", work(10, fail_at=6))  # an exception ends the work quietly
        for _ in range(50):
            await asyncio.sleep(_base.IDLE_PAUSE)
        assert steps == list(range(6)) and d.error is None
        d.widget.close()  # closed: nobody will ask for the work
        d.scheduler.idle("demo", work(20))
        for _ in range(10):
            await asyncio.sleep(_base.IDLE_PAUSE)
        assert len(steps) == 6

    run_on_a_fresh_event_loop(idle())


def test_two_idle_jobs_both_run_to_their_end():
    """Issue 26: one idle slot that warm-ups and other work shared lost one of them."""
    done = {"a": [], "b": []}

    def job(name, count):
        def step():
            done[name].append(len(done[name]))
            return len(done[name]) < count
        return step

    async def idle():
        d = Demo()
        d.scheduler.idle("a", job("a", 3))
        d.scheduler.idle("b", job("b", 2))
        assert d.scheduler.idle_jobs == ["a", "b"]
        for _ in range(60):
            await asyncio.sleep(_base.IDLE_PAUSE)
        assert done == {"a": [0, 1, 2], "b": [0, 1]} and d.scheduler.idle_jobs == []
        d.widget.close()

    run_on_a_fresh_event_loop(idle())


def test_idle_work_waits_while_the_hand_moves():
    ran = []

    async def idle():
        d = Demo()
        d.controls["n"].set_state({"value": 21})  # two slider messages in a row: a drag
        d.controls["n"].set_state({"value": 22})
        d.scheduler.idle("demo", lambda: ran.append(d.scheduler.state) and False)
        await asyncio.sleep(REST / 2)
        assert d.scheduler.state == "dragging" and d.state["n"] == 22 and ran == []
        await asyncio.sleep(REST * 2)
        assert ran == ["idle"]  # it ran once the hand rested, not before
        d.widget.close()

    run_on_a_fresh_event_loop(idle())


def test_explorers_that_do_no_work_ahead_plan_no_idle_job():
    async def idle():
        d = Demo()
        d.controls["n"].value = 30
        assert d.scheduler.idle_jobs == []
        d.widget.close()

    run_on_a_fresh_event_loop(idle())


def test_a_closed_explorer_holds_nothing_draws_nothing_and_says_so():
    """IPython's output history keeps a closed explorer for the session: it keeps no figure;
    a render a slider message had scheduled does not run; using it again names the reason."""
    async def closing():
        escaped = []  # what a callback on the loop raised (asyncio would only log it)
        asyncio.get_running_loop().set_exception_handler(lambda loop, context: escaped.append(context))
        d = Demo()
        figure = weakref.ref(d.figure)
        d.controls["n"].set_state({"value": 21})  # a change by hand: a render is scheduled
        assert d.scheduler.state == "coalescing"
        d.close()
        d.close()  # twice: nothing more happens
        await asyncio.sleep(COALESCE * 5 + REST)  # the render and the rest would have run by now
        gc.collect()
        assert escaped == [] and figure() is None and d.closed
        assert repr(d) == "<Demo closed>" and d._repr_mimebundle_() == {"text/plain": "<Demo closed>"}
        with pytest.raises(AttributeError, match="Demo was closed"):
            d.set(n=10)
        d.restyle()  # presenter mode's theme change passes a closed explorer by

    run_on_a_fresh_event_loop(closing())


def _marker_sizes(figure):
    """Every marker size, marker edge width and scatter area in ``figure``, in build order."""
    from matplotlib.axis import Tick
    from matplotlib.collections import PathCollection
    from matplotlib.lines import Line2D

    ticks = {id(line) for tick in figure.findobj(Tick) for line in (tick.tick1line, tick.tick2line, tick.gridline)}
    sizes = []
    for artist in figure.findobj(lambda a: isinstance(a, (Line2D, PathCollection))):
        if id(artist) in ticks:  # the axes' tick marks: their number depends on the scale
            continue
        if isinstance(artist, Line2D):
            if artist.get_linestyle() not in ("None", "", " ") and artist.get_linewidth() > 0:
                sizes.append(("lw", artist.get_linewidth()))
            if artist.get_marker() not in (None, "None", "", " "):
                sizes.append(("ms", artist.get_markersize()))
                sizes.append(("mew", artist.get_markeredgewidth()))
        elif len(artist.get_sizes()):
            sizes += [("area", float(s)) for s in artist.get_sizes()]
    return sizes


@pytest.mark.parametrize("name", list(evalteach.widgets.EXPLORERS))
def test_markers_grow_with_the_fonts_at_presenter_scale(name):
    """At presenter scale the figure and its fonts grow 1.5x; so do its dots, marks and thin
    reference lines, or they shrink against the picture (a 3-point dot stays 3 points in a
    larger figure). Lines of the default width grow with the theme's line width instead."""
    laptop = _marker_sizes(getattr(evalteach.widgets, name)(seed=0).figure)
    try:
        evalteach.presenter()
        scale = plotting.PRESENTER.font_size / plotting.CLASSROOM.font_size
        projector = _marker_sizes(getattr(evalteach.widgets, name)(seed=0).figure)
    finally:
        evalteach.presenter(False)
    assert [kind for kind, _ in laptop] == [kind for kind, _ in projector]
    for (kind, small), (_, large) in zip(laptop, projector):
        if kind == "lw" and large == pytest.approx(small * plotting.PRESENTER.line_width
                                                   / plotting.CLASSROOM.line_width):
            continue  # lines.linewidth: the theme's own, thicker line width
        assert large == pytest.approx(small * (scale ** 2 if kind == "area" else scale)), (kind, small, large)


@pytest.mark.parametrize("make", [Demo, lambda: widgets.IntervalCoverageExplorer(seed=0),
                                  lambda: widgets.RandomizationExplorer(seed=0)],
                         ids=["demo", "with Play", "with buttons of its own"])
def test_a_closed_explorer_leaves_no_widget_open_and_is_freed(make):
    """An explorer lives as long as one of its widgets is open (ipywidgets keeps every open
    widget): close() closes them all, layouts, styles and Play links included."""
    def open_widgets():
        return {id(o) for o in gc.get_objects() if isinstance(o, W.Widget) and o.comm is not None}

    before = open_widgets()
    explorer = make()
    assert open_widgets() - before  # its controls, view, layouts and styles
    explorer.close()
    assert not open_widgets() - before
    alive = weakref.ref(explorer)
    del explorer
    gc.collect()
    assert alive() is None
