"""AlgorithmComparisonExplorer: type-I error and power of the tests for comparing learners."""
import asyncio

import numpy as np
import pytest

from evalteach.simulate import ALGORITHM_TESTS, AlgorithmTestExperiments, simulate_algorithm_tests
from evalteach.widgets._scheduler import COALESCE
from evalteach.widgets.algorithm_comparison import (_NAMES, MAX_N, PREVIEW_EXPERIMENTS,
                                                    AlgorithmComparisonExplorer)
from explorer_contract import (built_without_an_event_loop, check_contract, redrawn_afresh,
                               run_on_a_fresh_event_loop)


def test_contract_with_defaults():
    check_contract(AlgorithmComparisonExplorer, sweep=100, n_experiments=200)


def test_contract_with_custom_values():
    check_contract(AlgorithmComparisonExplorer, sweep=10, n_experiments=200, difference=0.05, n=300,
                   alpha=0.1)


def test_rates_shown_are_the_share_of_small_p_values():
    e = AlgorithmComparisonExplorer(n_experiments=1000, seed=2)
    # the explorer draws once for its largest data set and transforms the draws per setting
    ref = AlgorithmTestExperiments(1000, max_n=MAX_N, seed=2).simulate(200, 0.2, 0.0, stability=0.9,
                                                                        training_noise=0.05)
    for alpha in (0.05, 0.01, 0.1):
        e.controls["alpha"].value = alpha
        r = e.result
        for name in ALGORITHM_TESTS:
            np.testing.assert_array_equal(r.p_values[name], ref.p_values[name])
            assert r.rejection_rates[name] == np.mean(ref.p_values[name] < alpha)
        widths = [bar.get_width() for bar in e.bars]
        assert widths == [r.rejection_rates[k] for k in _NAMES]
        assert e.alpha_line.get_xdata()[0] == alpha
    assert f"{100 * r.rejection_rates['mcnemar']:.1f}%" in e._summary_html.value


def test_under_h0_the_resampled_t_is_liberal_and_5x2cv_f_and_mcnemar_are_not():
    r = AlgorithmComparisonExplorer(n_experiments=1000, seed=0).result
    tolerance = 3 * np.sqrt(0.05 * 0.95 / 1000)
    assert r.rejection_rates["resampled_t"] > 0.25
    assert r.rejection_rates["5x2cv_f"] < 0.05 + tolerance
    assert abs(r.rejection_rates["mcnemar"] - 0.05) < tolerance
    # the liberal bar is drawn in the "bad" colour, McNemar's in the "good" one
    from evalteach.plotting import COLORS
    from matplotlib.colors import to_hex
    e = AlgorithmComparisonExplorer(n_experiments=1000, seed=0)
    colours = {k: to_hex(bar.get_facecolor()) for k, bar in zip(_NAMES, e.bars)}
    assert colours["resampled_t"] == COLORS["bad"].lower()
    assert COLORS["bad"].lower() not in (colours["mcnemar"], colours["5x2cv_f"])


def test_power_rises_with_the_difference():
    e = AlgorithmComparisonExplorer(n_experiments=200)
    low = e.result.rejection_rates
    e.controls["difference"].value = 0.1
    high = e.result.rejection_rates
    assert all(high[k] > low[k] for k in _NAMES)
    assert "Power" in e._summary_html.value


def test_alpha_change_reuses_the_simulation():
    e = AlgorithmComparisonExplorer(n_experiments=200)
    before = e.result.p_values
    e.controls["alpha"].value = 0.01
    assert e.result.p_values is before


def test_a_new_power_setting_costs_one_pass_for_it_and_h0(monkeypatch):
    e = AlgorithmComparisonExplorer(n_experiments=200, difference=0.05)
    passes = []
    counts = AlgorithmTestExperiments._counts
    monkeypatch.setattr(AlgorithmTestExperiments, "_counts", lambda self, *a: passes.append(a) or counts(self, *a))
    e.controls["n"].value = 240
    assert len(passes) == 1 and len(passes[0][2]) == 2  # B's errors under H0 and under the difference
    null = AlgorithmTestExperiments(200, max_n=MAX_N, seed=0).simulate(240, 0.2, 0.0, training_noise=0.05)
    assert e.result.null.rejection_rates == null.rejection_rates


def test_infeasible_error_is_shown_inline():
    e = AlgorithmComparisonExplorer(n_experiments=200)
    e.set(error=0.45, difference=0.15)  # fine: 0.60
    assert e.error is None
    with pytest.raises(ValueError, match="error"):
        AlgorithmComparisonExplorer(error=0.9)


def test_axis_is_linear_so_bar_lengths_compare():
    e = AlgorithmComparisonExplorer(n_experiments=200)
    assert e.ax.get_xscale() == "linear"
    bars = {k: bar for k, bar in zip(_NAMES, e.bars)}
    # a bar twice as long on screen is a rate twice as high
    to_px = e.ax.transData.transform
    length = lambda bar: to_px((bar.get_width(), 0))[0] - to_px((0, 0))[0]  # noqa: E731
    ratio = bars["resampled_t"].get_width() / bars["mcnemar"].get_width()
    assert length(bars["resampled_t"]) / length(bars["mcnemar"]) == pytest.approx(ratio)


def test_power_view_marks_tests_that_are_too_liberal_under_h0():
    from matplotlib.colors import to_hex
    e = AlgorithmComparisonExplorer(n_experiments=500, difference=0.05)
    r = e.result
    null = simulate_null = AlgorithmTestExperiments(500, max_n=MAX_N, seed=0).simulate(
        200, 0.2, 0.0, stability=0.9, training_noise=0.05)
    for k in _NAMES:
        assert r.null.rejection_rates[k] == null.rejection_rates[k]
    liberal = [k for k in _NAMES
               if simulate_null.rejection_rates[k] - 1.96 * simulate_null.mc_error[k] > 0.05]
    assert "resampled_t" in liberal and "mcnemar" not in liberal
    styles = {k: (to_hex(bar.get_facecolor()), bar.get_hatch()) for k, bar in zip(_NAMES, e.bars)}
    for k in _NAMES:
        assert bool(styles[k][1]) == (k in liberal), k  # hatched exactly when invalid
    assert styles["resampled_t"][0] != styles["mcnemar"][0]
    assert "(invalid)" in e.labels[_NAMES.index("resampled_t")].get_text()
    assert "too liberal under H0" in e._summary_html.value
    legend = [t.get_text() for t in e.legend.get_texts()]
    assert any("invalid" in t for t in legend) and not any(t.startswith("too liberal (") for t in legend)
    e.controls["difference"].value = 0.0
    legend = [t.get_text() for t in e.legend.get_texts()]
    assert "too liberal (above alpha)" in legend and not any("under H0" in t for t in legend)


def test_the_picture_says_it_is_a_simulated_model():
    e = AlgorithmComparisonExplorer(n_experiments=200)
    assert "model of two learners" in e.heading.get_text()
    assert "simulated model" in e.title
    assert "no real learners" in e._summary_html.value


def test_the_picture_states_the_training_set_noise_in_force():
    """A screenshot says under which training-set noise its rates were obtained: the heading
    over the bars and the summary state the noise of the simulation shown."""
    e = AlgorithmComparisonExplorer(n_experiments=200)
    assert e.result.training_noise == 0.05
    assert e.heading.get_text() == "200 experiments simulated from a model of two learners, training-set noise 0.05"
    assert "training-set noise 0.05" in e._summary(e.result)
    before = e.image
    e.set(training_noise=0.2, difference=0.05)
    r = e.result
    assert r.training_noise == 0.2
    ref = AlgorithmTestExperiments(200, max_n=MAX_N, seed=0).simulate(200, 0.2, 0.05, stability=0.9,
                                                                      training_noise=0.2)
    assert r.rejection_rates == ref.rejection_rates  # the rates shown are those of the noise stated
    assert e.heading.get_text().endswith(", training-set noise 0.20")
    assert "training-set noise 0.20" in e._summary(r) and e.image != before


def test_no_visible_control_is_idle():
    e = AlgorithmComparisonExplorer(n_experiments=200)
    assert e._hidden(e.state) == set()


def test_legend_lists_only_the_bar_styles_drawn_and_the_axis_stops_at_100_percent():
    e = AlgorithmComparisonExplorer(n=560, error=0.07, difference=0.03, n_experiments=500, seed=0)
    drawn = {(bar.get_facecolor(), bar.get_hatch()) for bar in e.bars}
    patches = [h for h in e.legend.legend_handles if h.get_label() not in ("alpha", "95% Monte Carlo error")]
    assert {(p.get_facecolor(), p.get_hatch()) for p in patches} == drawn
    assert "keeps alpha under H0" not in [t.get_text() for t in e.legend.get_texts()]  # every valid test is conservative
    assert e.ax.get_xlim() == (0, 1)
    # a bar near 100% keeps its label clear of it: every label sits right of the axes (issue 22)
    name = max(_NAMES, key=e.result.rejection_rates.get)
    assert e.result.rejection_rates[name] > 0.9
    e.figure.canvas.draw()
    right = e.ax.get_window_extent().x1
    assert all(t.get_window_extent().x0 > right for t in e.labels)
    assert all(t.get_window_extent().x1 <= e.figure.bbox.x1 for t in e.labels)
    e.set(difference=0.0)  # the legend follows the styles drawn
    drawn = {(bar.get_facecolor(), bar.get_hatch()) for bar in e.bars}
    patches = [h for h in e.legend.legend_handles if h.get_label() not in ("alpha", "95% Monte Carlo error")]
    assert {(p.get_facecolor(), p.get_hatch()) for p in patches} == drawn


def _segment_boxes(whiskers):
    from matplotlib.transforms import Bbox

    to_px = whiskers.axes.transData.transform
    return [Bbox(to_px(segment)) for segment in whiskers.get_segments()]


@pytest.mark.parametrize("settings", [
    dict(n=560, error=0.07, difference=0.03),   # two bars past 40%, one near 100%
    dict(n=200, difference=0.05),               # an invalid bar labelled "(invalid)"
    dict(n=300, difference=0.0, training_noise=0.15),
])
def test_no_rate_label_crosses_a_bar_or_a_whisker(settings):
    """Issue 22: '74.4% (invalid)' was written across its bar and whisker."""
    e = AlgorithmComparisonExplorer(n_experiments=500, seed=0, **settings)
    e.figure.canvas.draw()
    renderer = e.figure.canvas.get_renderer()
    ink = [bar.get_window_extent(renderer) for bar in e.bars] + _segment_boxes(e.whiskers)
    for label in e.labels:
        box = label.get_window_extent(renderer)
        assert label.get_text() and label.get_gid() is None
        assert not any(box.overlaps(other) for other in ink), label.get_text()


def test_one_colour_means_one_verdict_in_both_views():
    """A bar's style says how the test keeps alpha under H0, in the type-I view and the power
    view alike (issue 22: the power view used other colours for the same verdicts)."""
    from matplotlib.colors import to_hex

    from evalteach.plotting import COLORS

    expected = {"liberal": (COLORS["bad"].lower(), "///"), "near": (COLORS["good"].lower(), ""),
                "conservative": (COLORS["muted"].lower(), "")}
    seen = {}
    for difference in (0.0, 0.05, 0.1):
        e = AlgorithmComparisonExplorer(n_experiments=500, difference=difference, training_noise=0.1, seed=0)
        for name, bar in zip(_NAMES, e.bars):
            verdict = e.result.verdict(name)
            style = (to_hex(bar.get_facecolor()), bar.get_hatch() or "")
            assert style == expected[verdict], (difference, name)
            seen.setdefault(verdict, set()).add(difference)
        legend = {h.get_label(): (to_hex(h.get_facecolor()), h.get_hatch() or "")
                  for h in e.legend.legend_handles if h.get_label() not in ("alpha", "95% Monte Carlo error")}
        for label, style in legend.items():
            verdict = next(v for v, s in expected.items() if s == style)
            assert ("liberal" in label) == (verdict == "liberal") and ("conservative" in label) == (verdict == "conservative")
    assert {"liberal", "conservative"} <= set(seen)


@pytest.mark.parametrize("changes", [
    # headings, legends and view pasted from their caches after a round trip
    [("difference", 0.05), ("alpha", 0.1), ("difference", 0.0), ("alpha", 0.05), ("difference", 0.05)],
    # a new data set size, model setting and number of experiments (200: the first of the 500 drawn)
    [("n", 600), ("stability", 0.5), ("n_experiments", 200), ("n", 80), ("training_noise", 0.2)],
])
def test_what_is_pasted_is_what_a_fresh_explorer_shows(changes, monkeypatch):
    e = AlgorithmComparisonExplorer()
    for name, value in changes:
        e.controls[name].value = value
    assert e.image == redrawn_afresh(e, monkeypatch)
    fresh = AlgorithmComparisonExplorer(**{k: v for k, v in e.state.items() if k != "seed"})
    assert fresh.result.rejection_rates == e.result.rejection_rates
    assert fresh.view_heading.get_text() == e.view_heading.get_text()
    assert fresh.heading.get_text() == e.heading.get_text()


def test_fewer_experiments_are_the_first_of_the_current_draws():
    # drawn first, so that the explorer's draws are its own (experiments alive share theirs)
    ref = AlgorithmTestExperiments(200, max_n=MAX_N, seed=0).simulate(100, 0.2, 0.0, stability=0.9,
                                                                      training_noise=0.05)
    e = AlgorithmComparisonExplorer(n_experiments=1000, n=100)
    drawn = next(iter(e._experiments.values()))
    e.controls["n_experiments"].value = 200  # a prefix: not drawn again
    prefix = next(iter(e._experiments.values()))
    assert prefix._draws.instance.base is drawn._draws.instance
    for name in ALGORITHM_TESTS:
        np.testing.assert_array_equal(e.result.p_values[name], ref.p_values[name])
    e.controls["n_experiments"].value = 500  # not a prefix of 200: drawn
    assert next(iter(e._experiments.values())).n_experiments == 500


def test_a_new_setting_by_hand_shows_the_first_experiments_then_all_of_them():
    e = built_without_an_event_loop(lambda: AlgorithmComparisonExplorer(n_experiments=1000, n=300))
    shown = []
    draw = e._draw
    e._draw = lambda r: shown.append((r.n_experiments, r.n, r.rejection_rates)) or draw(r)

    async def drag():
        e.controls["n"].set_state({"value": 320})  # a slider message: scores not made yet
        for _ in range(40):
            await asyncio.sleep(COALESCE * 5)
            if not e._partial and len(shown) > 1:
                break

    run_on_a_fresh_event_loop(drag())
    full = AlgorithmComparisonExplorer(n_experiments=1000, n=320).result
    few = {name: float(np.mean(p[:PREVIEW_EXPERIMENTS] < 0.05)) for name, p in full.p_values.items()}
    # first exactly what the first 100 experiments show, then completed to what Python gets at once
    assert shown == [(PREVIEW_EXPERIMENTS, 320, few), (1000, 320, full.rejection_rates)]
    assert not e._partial and e._preview(e.state) is None
    assert "1000 experiments" in e.heading.get_text()


def test_the_explorer_keeps_a_fifth_of_its_draws():
    e = AlgorithmComparisonExplorer(n_experiments=1000)
    draws = next(iter(e._experiments.values()))._draws
    kept = sum(a.nbytes for a in (draws.instance, draws._state, draws._head))
    assert kept < 19 * 2 ** 20  # 86 MB when all the draws are kept


def test_a_new_error_by_hand_is_answered_in_full_when_the_scores_are_at_hand():
    e = AlgorithmComparisonExplorer(n_experiments=1000, n=300)
    experiments = next(iter(e._experiments.values()))
    assert experiments.scored(300, stability=0.9, training_noise=0.05)
    assert not experiments.scored(320, stability=0.9, training_noise=0.05)
    assert e._preview(dict(e.state, error=0.25)) is None  # no partial answer: the full one is quick
    assert e._preview(dict(e.state, n=320)).n_experiments == PREVIEW_EXPERIMENTS
