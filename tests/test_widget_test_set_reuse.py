"""TestSetReuseExplorer: the best of m test scores is optimistic; a validation split is not."""
import numpy as np
import pytest

from evalteach.simulate import simulate_test_set_reuse
from evalteach.widgets.test_set_reuse import M_MAX, N_EXPERIMENTS, TestSetReuseExplorer
from explorer_contract import check_contract


def test_contract_with_defaults():
    check_contract(TestSetReuseExplorer)


def test_contract_with_custom_values():
    check_contract(TestSetReuseExplorer, sweep=30, m=50, error=0.3, spread=0.02, n_test=200)


def test_numbers_shown_are_the_simulation_at_m():
    e = TestSetReuseExplorer(m=35, error=0.25, n_test=150, n_validation=300, seed=4)
    ref = simulate_test_set_reuse(M_MAX, 0.25, 150, n_validation=300, spread=0.0,
                                  n_experiments=N_EXPERIMENTS, seed=4)
    r = e.result
    assert r.reused == ref.reused[34] and r.reused_true == ref.reused_true[34]
    assert r.validated == ref.validated[34]
    assert r.optimism == pytest.approx(ref.reused_true[34] - ref.reused[34])
    assert f"{r.reused:.3f}" in e._summary_html.value
    # the picture marks the best test score of the example experiment
    x, y = e.pick_test.get_data()
    assert y[0] == ref.example_test[:35].min() and x[0] == np.argmin(ref.example_test[:35]) + 1


def test_optimism_grows_with_m_and_validation_stays_unbiased():
    e = TestSetReuseExplorer()
    gaps = []
    for m in (1, 5, 20, 100):
        e.controls["m"].value = m
        r = e.result
        gaps.append(r.optimism)
        assert abs(r.validated_bias) < 3 * r.validated_se + 1e-12
    assert gaps[0] == pytest.approx(0, abs=0.003)
    assert gaps == sorted(gaps) and gaps[-1] > 0.08


def test_larger_test_sets_shrink_the_optimism():
    small = TestSetReuseExplorer(n_test=50).result.optimism
    large = TestSetReuseExplorer(n_test=1000).result.optimism
    assert large < small / 3


@pytest.mark.parametrize("m", [1, 50, 100])
def test_legend_and_optimism_label_stay_clear_and_inside(m):
    e = TestSetReuseExplorer(m=m, spread=0.03)
    e.figure.canvas.draw()
    legend = e.figure.legends[0].get_window_extent()
    for ax in (e.ax_one, e.ax_curve):
        assert not legend.overlaps(ax.get_window_extent())
    label = e.gap_text.get_window_extent()
    assert e.figure.bbox.x0 <= label.x0 and label.x1 <= e.figure.bbox.x1
    assert (f"{e.result.optimism:.3f}" in e.gap_text.get_text() if m > 1
            else e.gap_text.get_text() == "one model, no choice: no optimism")
    assert e._hidden(e.state) == set()


@pytest.mark.parametrize("presenter", [False, True], ids=["laptop", "presenter"])
def test_optimism_label_never_covers_a_curve(presenter, monkeypatch):
    """Issue 13: at m = 1 "optimism 0.001" sat on the validation and chosen-model curves,
    its arrow a cross. The label goes where the curves leave it room (between them, else
    above or below), and the arrow shows only when it is long enough to read."""
    import evalteach
    from test_text_overlap import clutter

    evalteach.presenter(presenter)
    try:
        e = TestSetReuseExplorer(seed=0)
        settings = [{}, {"error": 0.05, "spread": 0.05, "n_test": 20},
                    {"error": 0.5, "spread": 0.05, "n_test": 1000, "n_validation": 20}]
        for values in settings:
            for m in (1, 2, 3, 5, 12, 69, 71, 100):
                e.set(m=m, **values)
                assert clutter(e.figure, monkeypatch) == [], (m, values)
                e._background = None
                renderer = e.figure.canvas.get_renderer()
                if e.gap.get_visible():
                    arrow = e.gap.arrow_patch.get_window_extent(renderer)
                    assert not arrow.overlaps(e.gap_text.get_window_extent(renderer)), (m, values)
        e.set(m=1, error=0.2, spread=0.0, n_test=100)
        assert not e.gap.get_visible()  # a gap of about 0: no arrow shrunk to a cross
        assert e.gap_text.get_text() == "one model, no choice: no optimism"  # not noise as "optimism 0.001"
        e.set(m=20)
        assert e.gap_text.get_text() == f"optimism {e.result.optimism:.3f}"
        assert e.gap.get_visible()
    finally:
        evalteach.presenter(False)


def test_models_axis_follows_m_without_a_full_redraw(monkeypatch):
    """A few models fill the left panel (its axis ends at 5, 10, 20, 50 or 100 models, the
    tick labels pasted per end); moving m never redraws the whole figure, and the kept
    pixels equal a fresh draw."""
    e = TestSetReuseExplorer(seed=0)
    full = []
    draw = e.figure.canvas.draw
    monkeypatch.setattr(e.figure.canvas, "draw", lambda *a, **k: (full.append(1), draw(*a, **k)))
    for m in (1, 2, 4, 5, 6, 10, 11, 20, 21, 50, 51, 100, 3):
        e.set(m=m)
        low, high = e.ax_one.get_xlim()
        assert low < 1 and m < high
        if m > 1:  # the models fill a good part of the axis (at least 2 of 5, 11 of 20, ...)
            assert m >= 0.4 * (high - 0.5), f"m = {m}: the models fill {m / high:.0%} of the axis"
        kept = e.image
        e.axis_layer.clear()
        e.models_axis.clear()
        e._update()
        assert e.image == kept, f"m = {m}: the kept axis differs from a fresh draw"
    assert not full


def test_one_sign_convention_and_the_standard_error_explained():
    """Optimism = true - reported everywhere: positive for the lowest test error, and the
    validation route's number uses the same sign (it was a 'bias' = reported - true)."""
    e = TestSetReuseExplorer(seed=0)
    r = e.result
    assert r.optimism > 0 and r.optimism == pytest.approx(r.reused_true - r.reused)
    assert r.validated_optimism == pytest.approx(r.validated_true - r.validated)
    assert r.validated_bias == -r.validated_optimism  # reported - true, as in evalteach.simulate
    summary = e._summary_html.value
    assert "bias" not in summary and summary.count("optimism (true - reported)") == 2
    assert f"{r.validated_optimism:+.4f}" in summary
    assert "Monte Carlo standard error over the 1000 experiments" in summary
    assert "Every model has the same true error, 0.20." in summary
    assert "lowest test error" in summary and "best test score" not in summary
    e.set(spread=0.02)
    assert "same true error" not in e._summary_html.value


def test_one_model_is_no_choice_and_no_optimism():
    e = TestSetReuseExplorer(m=1, seed=0)
    assert e.gap_text.get_text() == "one model, no choice: no optimism"
    assert "one model and no choice: no optimism" in e._summary_html.value
    assert "an optimism of" not in e._summary_html.value


def test_legend_matches_the_lines_and_the_true_error_stays_visible():
    e = TestSetReuseExplorer(seed=0)
    legend = e.figure.legends[0]
    labels = [t.get_text() for t in legend.texts]
    assert not any("best test score" in t or "test score" in t for t in labels), labels
    assert "lowest test error (reported)" in labels and "reported: lowest test error" in labels
    handles = dict(zip(labels, legend.legend_handles))
    # the models' true errors are a row of dashes: the legend shows a dashed line
    assert handles["true error (one dash a model)"].get_linestyle() not in ("-", "None")
    assert handles["true error of the chosen model"].get_linestyle() == e.c_true.get_linestyle() != "-"
    # the black line is drawn after (over) the green one, with gaps that let the green show
    order = e._dynamic
    assert order.index(e.c_true) > order.index(e.c_valid)
    offset, dashes = e.c_true._unscaled_dash_pattern
    assert dashes and dashes[1] >= 3


def test_the_star_and_square_mark_a_test_error_dot_without_hiding_it():
    # at m = 1 the one model is both the lowest on test and the one chosen on validation:
    # its dot lies under both markers and must be drawn after (over) them
    e = TestSetReuseExplorer(m=1, seed=0)
    (dot,) = e.test_pts.get_xydata()
    assert np.allclose(e.pick_test.get_xydata()[0], dot) and np.allclose(e.pick_val.get_xydata()[0], dot)
    order = e._dynamic
    assert order.index(e.test_pts) > max(order.index(e.pick_test), order.index(e.pick_val))
    colour = np.array(e.figure.canvas.buffer_rgba())[..., :3]
    x, y = e.test_pts.get_transform().transform(dot)
    height = colour.shape[0]
    pixel = colour[int(round(height - y)), int(round(x))] / 255
    from matplotlib.colors import to_rgb
    from evalteach.plotting import COLORS
    assert np.allclose(pixel, to_rgb(COLORS["data"]), atol=0.08), pixel


def test_at_one_model_the_validation_route_is_the_same_model_and_said_once():
    e = TestSetReuseExplorer(m=1, seed=0)
    r = e.result
    assert r.validated == r.reused and r.validated_optimism == r.optimism
    summary = e._summary_text
    assert "A validation set would choose the same model" in summary
    assert summary.count(f"{r.optimism:+.4f}") == 1
