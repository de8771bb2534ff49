"""LossExplorer: losses shown equal evalteach.stats; expected loss is smallest at the truth."""
import numpy as np
from matplotlib.transforms import Bbox
import pytest
from scipy.optimize import minimize_scalar
from sklearn.metrics import brier_score_loss, log_loss

from evalteach.stats import informational_loss, quadratic_loss
from evalteach.widgets.loss import GRID, LossExplorer
from explorer_contract import check_contract


def test_contract_defaults():
    check_contract(LossExplorer, sweep=20)


def test_contract_custom_values():
    check_contract(LossExplorer, sweep=10, p_true=0.25, predicted=0.0)


def test_losses_shown_equal_the_stats_functions():
    e = LossExplorer(p_true=0.3, predicted=0.8)
    r = e.result
    assert r.quadratic[1] == quadratic_loss([0.8], [1]).mean == pytest.approx(2 * 0.2 ** 2)
    assert r.quadratic[0] == quadratic_loss([0.8], [0]).mean == pytest.approx(2 * 0.8 ** 2)
    assert r.informational[1] == informational_loss([0.8], [1]).mean == pytest.approx(-np.log2(0.8))
    assert r.informational[0] == informational_loss([0.8], [0]).mean == pytest.approx(-np.log2(0.2))
    assert r.expected_at_prediction("quadratic") == pytest.approx(0.3 * 0.08 + 0.7 * 1.28)
    assert "0.080" in e._summary(r) and "1.280" in e._summary(r)


def _expected_reference(p, p_true):
    """Expected losses from scikit-learn: a class-1 and a class-0 instance weighted p*, 1 - p*."""
    w = [p_true, 1 - p_true]
    quadratic = 2 * brier_score_loss([1, 0], [p, p], sample_weight=w)  # summed over both classes
    informational = log_loss([1, 0], [[1 - p, p], [1 - p, p]], sample_weight=w, labels=[0, 1]) / np.log(2)
    return quadratic, informational


@pytest.mark.parametrize("p_true", [0.05, 0.2, 0.5, 0.7, 0.95])
def test_expected_loss_is_smallest_at_the_true_probability(p_true):
    r = LossExplorer(p_true=p_true).result
    assert r.best_quadratic == pytest.approx(p_true) and r.best_informational == pytest.approx(p_true)
    inner = slice(1, -1)  # log_loss clips probabilities 0 and 1, so compare inside
    for i in np.linspace(1, len(GRID) - 2, 9).astype(int):
        q, info = _expected_reference(GRID[i], p_true)
        assert r.expected_quadratic[i] == pytest.approx(q)
        assert r.expected_informational[i] == pytest.approx(info)
    for k in range(2):
        best = minimize_scalar(lambda p: _expected_reference(p, p_true)[k], bounds=(1e-6, 1 - 1e-6),
                               method="bounded", options={"xatol": 1e-8})
        assert best.x == pytest.approx(p_true, abs=1e-4)
    assert np.all(np.isfinite(r.expected_informational[inner]))


def test_zero_frequency_makes_informational_loss_infinite_but_quadratic_bounded():
    r = LossExplorer(p_true=0.3, predicted=0.0).result
    assert np.isinf(r.informational[1]) and r.informational[0] == 0.0
    assert r.quadratic[1] == 2.0  # the largest quadratic loss there is
    assert np.isinf(r.expected_at_prediction("informational"))
    assert "∞" in LossExplorer(p_true=0.3, predicted=0.0)._summary(r)


@pytest.mark.parametrize("values", [{}, {"p_true": 0.3, "predicted": 0.05}, {"p_true": 0.95, "predicted": 1.0}])
def test_readout_table_stays_clear_of_the_curves(values):
    e = LossExplorer(**values)
    e.figure.canvas.draw()
    table = Bbox.union([t.get_window_extent() for t in e.figure.axes[2].texts if t.get_text()])
    for ax in e.figure.axes:
        if ax.axison:
            assert not table.overlaps(ax.get_window_extent())
    assert table.x1 <= e.figure.bbox.x1 and table.y0 >= e.figure.bbox.y0  # not cut off
    r = e.result
    assert _show_number(r.expected_at_prediction("quadratic")) in e.readout
    assert e.readout.splitlines()[3] == ("expected  " + _show_number(r.expected_at_prediction("quadratic")) + "  "
                                         + _show_number(r.expected_at_prediction("informational")))
    assert e._hidden(e.state) == set()


def _show_number(x):
    return "∞" if np.isinf(x) else f"{x:.3f}"


def test_the_slider_is_called_the_forecast_not_the_students_prediction():
    # a lesson reveals this explorer after the student locked in a guess; at 0.9 it must not
    # claim to show "your prediction" when the student may have predicted 0.7
    e = LossExplorer(p_true=0.7, predicted=0.9)
    texts = [e.controls["predicted"].description, *(ax.get_title() for ax in e.figure.axes),
             *(ax.get_xlabel() for ax in e.figure.axes),
             *(t.get_text() for ax in e.figure.axes if ax.get_legend() for t in ax.get_legend().get_texts())]
    assert not any("your prediction" in t.lower() for t in texts), texts
    assert e.controls["predicted"].description == "forecast P(class 1)"
    assert "The forecast" in texts and "the forecast" in texts


def _inked(line, ax):
    """Whether ``line`` has ink off the axes' edges (not only under a spine or beyond the edge)."""
    points = line.get_transform().transform(line.get_xydata())
    points = points[np.isfinite(points).all(axis=1)]
    spine = max(s.get_linewidth() for s in ax.spines.values() if s.get_visible())
    margin = (line.get_linewidth() + spine) / 2 * ax.figure.dpi / 72
    box = ax.bbox
    (x0, y0), (x1, y1) = points.min(axis=0), points.max(axis=0)  # lines here are straight or many points
    return bool(x1 > box.x0 + margin and x0 < box.x1 - margin and y1 > box.y0 + margin and y0 < box.y1 - margin)


@pytest.mark.parametrize("presenter", [False, True], ids=["laptop", "presenter"])
@pytest.mark.parametrize("values", [{"predicted": 0.0, "p_true": 0.05}, {"predicted": 1.0, "p_true": 0.95},
                                    {"predicted": 0.0, "p_true": 0.5}, {}])
def test_every_line_the_legends_name_is_drawn_also_at_the_edges(values, presenter, monkeypatch):
    """Issue 13: at a forecast of 0 or 1 "the forecast" lay under the y axis or at the right
    edge, invisible, while the legend listed it. Every line a legend names, and the
    forecast line and markers of the left panel, show ink inside their axes."""
    import evalteach
    from test_text_overlap import clutter

    evalteach.presenter(presenter)
    try:
        e = LossExplorer(**values)
        assert clutter(e.figure, monkeypatch) == []
        left, right = e.figure.axes[:2]
        for ax, legend in ((right, right.get_legend()), (left, e.figure.legends[0])):
            handles = legend.legend_handles
            named = {t.get_text() for t in legend.texts}
            drawn = [line for line in ax.lines if line.get_label() in named]
            if ax is right:  # one entry names the forecast's two dots (no label of their own)
                assert "its expected losses (▲ off scale)" in named
                drawn += e.expected_dots.values()
                assert len(drawn) == len(handles) + 1 == len(named) + 1
            else:
                assert len(drawn) == len(handles) == len(named)
            for line in drawn:
                assert line.get_visible() and _inked(line, ax), f"{line.get_label()!r} is not drawn"
        assert _inked(e.left_p, left)
        for marker in e.markers.values():
            (x, y), = marker.get_transform().transform(marker.get_xydata())
            assert left.bbox.x0 < x < left.bbox.x1
    finally:
        evalteach.presenter(False)


@pytest.mark.parametrize("predicted", [0.0, 1.0])
def test_an_infinite_loss_is_an_arrowhead_inside_the_top_not_a_dot_cut_in_half(predicted):
    from evalteach.widgets.loss import TOP

    e = LossExplorer(predicted=predicted)
    e.figure.canvas.draw()
    cls = 1 if predicted == 0.0 else 0
    marker = e.markers[("informational", cls)]
    assert marker.get_marker() == "^"
    (_, y), = marker.get_xydata()
    assert y < TOP
    ax = e.figure.axes[0]
    box = marker.get_window_extent(e.figure.canvas.get_renderer())
    assert box.y1 <= ax.bbox.y1  # whole, under the top edge
    assert e.infinity.get_text() == "∞"
    assert ax.bbox.contains(*e.infinity.get_window_extent().get_points().mean(axis=0))
    assert e.markers[("quadratic", 1)].get_marker() == "o"
    e.set(predicted=0.5)
    assert e.infinity.get_text() == "" and marker.get_marker() == "o"


def test_summary_says_the_minimum_is_at_the_true_probability_and_the_quadratic_loss_sums_both_classes():
    e = LossExplorer(predicted=0.0)
    summary = e._summary(e.result)
    assert ("both expected losses are smallest when the forecast equals the true probability, 0.70"
            in summary)
    assert "0.700 and 0.700" not in summary
    assert "sums the squared errors over both classes" in summary and "at most 1" in summary
    assert ("for two classes it equals 2(p - y)^2, y the class (0 or 1), so its largest value is 2. The Brier "
            "score usually reported is the mean of (p - y)^2 over instances, half of it, at most 1." in summary)


@pytest.mark.parametrize("predicted", [0.0, 0.3, 0.9, 1.0])
def test_the_forecast_is_marked_on_each_expected_loss_curve(predicted):
    from evalteach.widgets.loss import EXPECTED_TOP

    e = LossExplorer(p_true=0.7, predicted=predicted)
    for kind in ("quadratic", "informational"):
        dot = e.expected_dots[kind]
        ((x, y),) = dot.get_xydata()
        value = e.result.expected_at_prediction(kind)
        p_true = 0.7
        if kind == "quadratic":  # sum over both classes of (target - forecast)^2, weighted by p*
            reference = p_true * 2 * (1 - predicted) ** 2 + (1 - p_true) * 2 * predicted ** 2
            assert value == pytest.approx(reference)
        assert x == predicted
        if value <= EXPECTED_TOP:
            assert dot.get_marker() == "o" and y == pytest.approx(value)
        else:  # off the scale (infinite at 0 or 1): an arrowhead at the top
            assert dot.get_marker() == "^" and y == EXPECTED_TOP


@pytest.mark.parametrize("p_true", [0.3, 0.7])
def test_the_expected_informational_curve_reaches_the_top_where_the_loss_crosses_it(p_true):
    """The curve ends where the expected loss equals the panel's top, not a grid step short."""
    from scipy.optimize import brentq

    from evalteach.widgets.loss import EXPECTED_TOP

    e = LossExplorer(p_true=p_true)
    x, y = e.expected["informational"].get_data()
    assert y.max() == pytest.approx(EXPECTED_TOP) and np.all(y <= EXPECTED_TOP + 1e-12)

    def excess(q):  # expected informational loss in bits, minus the top
        return -(p_true * np.log2(q) + (1 - p_true) * np.log2(1 - q)) - EXPECTED_TOP

    left, right = brentq(excess, 1e-12, p_true), brentq(excess, p_true, 1 - 1e-12)
    assert x[0] == pytest.approx(left, abs=2e-3) and x[-1] == pytest.approx(right, abs=2e-3)
    assert y[0] == y[-1] == pytest.approx(EXPECTED_TOP)
