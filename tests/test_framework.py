"""The explorer base class: update loop, blitting, inline errors, fallback, presenter mode."""
import numpy as np
import pytest

import evalteach
from evalteach import plotting
from evalteach.widgets._base import SLOW_UPDATE, Explorer, checkbox, slider
from explorer_contract import PNG_MAGIC, check_contract


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
    check_contract(Demo, sweep=30)


def test_assignment_updates_before_returning():
    d = Demo(n=20)
    d.controls["n"].value = 40
    assert d.result.size == 500 and d.state["n"] == 40
    expected = np.random.default_rng(0).binomial(40, 0.3, 500)
    np.testing.assert_array_equal(d.result, expected)
    assert "mean of the draws" in d._summary_html.value


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


def test_slow_updates_switch_sliders_to_release_only(monkeypatch):
    d = Demo()
    assert d.controls["n"].continuous_update
    clock = iter(np.arange(0, 100, SLOW_UPDATE * 2))  # every update "takes" 2 x SLOW_UPDATE
    monkeypatch.setattr("evalteach.widgets._base.time.perf_counter", lambda: next(clock))
    d.controls["n"].value = 30
    assert not d.controls["n"].continuous_update


def test_presenter_mode_redraws_open_explorers_larger():
    d = Demo()
    small = d.figure.dpi
    try:
        evalteach.presenter()
        assert d.figure.dpi > small and d.image.startswith(PNG_MAGIC)
        assert d.controls["n"].layout.width == plotting.PRESENTER.control_width
    finally:
        evalteach.presenter(False)
    assert d.figure.dpi == small
    with pytest.raises(TypeError, match="on"):
        evalteach.presenter("yes")


def test_palette_is_okabe_ito():
    assert plotting.PALETTE["blue"] == "#0072B2" and len(plotting.CYCLE) == 8


def test_png_encoder_round_trips_the_canvas_pixels():
    from io import BytesIO

    from PIL import Image

    d = Demo(n=33)
    decoded = np.asarray(Image.open(BytesIO(d.image)).convert("RGB"))
    canvas_pixels = np.asarray(d.figure.canvas.buffer_rgba())[:, :, :3]
    np.testing.assert_array_equal(decoded, canvas_pixels)
