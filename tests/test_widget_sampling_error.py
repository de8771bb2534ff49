"""SamplingErrorExplorer: the histogram, mean and SD shown are the simulation's."""
import math

import numpy as np
import pytest
from scipy import stats

from evalteach import simulate
from evalteach.widgets import SamplingErrorExplorer
from explorer_contract import check_contract


def test_contract_with_defaults():
    check_contract(SamplingErrorExplorer)


def test_contract_on_the_slides_numbers():
    e = check_contract(SamplingErrorExplorer, sweep=30, error=0.3, n=40, n_sets=2000)
    assert e.state["n"] != 40 or e.state["error"] != 0.3  # the sweep moved it on


def test_result_is_the_simulation_for_this_state():
    e = SamplingErrorExplorer(error=0.3, n=40, n_sets=2000, seed=5)
    r = e.result
    expected = simulate.sample_errors(0.3, 40, 2000, seed=5)
    np.testing.assert_array_equal(r.errors, expected)
    assert r.mean == pytest.approx(expected.mean()) and r.sd == pytest.approx(expected.std(ddof=1))
    # the binomial SD of error_S(h): sqrt(p(1-p)/n) = 0.0725 for the slides' numbers
    assert r.sd_theory == pytest.approx(math.sqrt(0.3 * 0.7 / 40)) == pytest.approx(stats.binom.std(40, 0.3) / 40)
    assert r.sd == pytest.approx(r.sd_theory, rel=0.05)
    np.testing.assert_allclose(r.pmf, stats.binom.pmf(np.arange(41), 40, 0.3))
    np.testing.assert_allclose(r.observed, np.bincount(np.rint(expected * 40).astype(int), minlength=41) / 2000)
    assert r.learner is None


def test_the_picture_shows_the_result():
    e = SamplingErrorExplorer(error=0.2, n=25, n_sets=3000)
    r = e.result
    heights, edges, _ = e.bars.get_data()
    lo = int(round(edges[0] * 25 + 0.5)) if edges[0] > 0 else 0
    np.testing.assert_allclose(heights, r.observed[lo:lo + len(heights)])
    assert heights.sum() == pytest.approx(1.0)  # every simulated test set is drawn
    x, y = e.pmf.get_data()
    np.testing.assert_allclose(y, stats.binom.pmf(np.rint(np.asarray(x) * 25), 25, 0.2))
    assert e.truth.get_xdata()[0] == 0.2
    title = e.readout.get_text()
    assert f"{r.mean:.4f}" in title and f"{r.sd:.4f}" in title and f"{r.sd_theory:.4f}" in title
    assert f"{r.sd_theory:.4f}" in e._summary_html.value


def test_normal_curve_is_the_binomial_normal_approximation():
    e = SamplingErrorExplorer(error=0.3, n=40)
    x, y = e.normal.get_data()
    np.testing.assert_allclose(y, stats.norm.pdf(x, 0.3, math.sqrt(0.21 / 40)) / 40)


def test_learner_switch_shows_resubstitution_against_held_out():
    e = SamplingErrorExplorer(learner=True, seed=2)
    lr = e.result.learner
    ref = simulate.resubstitution_vs_holdout("breast_cancer", "1nn", n_splits=20, seed=2)
    np.testing.assert_array_equal(lr.train_errors, ref.train_errors)
    np.testing.assert_array_equal(lr.test_errors, ref.test_errors)
    assert lr.train_errors.mean() < lr.test_errors.mean()  # resubstitution is optimistic
    np.testing.assert_allclose(e.test_dots.get_ydata(), lr.test_errors)
    assert e.lax.get_visible() and "optimistic" in e._summary_html.value
    e.controls["learner"].value = False
    assert e.result.learner is None and not e.lax.get_visible()


def test_tiny_test_sets_show_the_normal_approximation_failing():
    e = SamplingErrorExplorer(error=0.02, n=5)
    assert e.error is None
    # with n p = 0.1 the normal density overshoots the largest binomial probability
    assert e.normal.get_data()[1].max() > e.result.pmf.max()


def test_the_learner_panel_is_there_only_when_switched_on():
    e = SamplingErrorExplorer()
    assert not e.lax.get_visible()  # no empty panel at the start
    wide = e.ax.get_position().width
    e.controls["learner"].value = True
    assert e.lax.get_visible() and e.ax.get_position().width < 0.8 * wide
    assert e.ax.get_position().x1 < e.lax.get_position().x0  # side by side, not overlapping
    e.controls["learner"].value = False
    assert not e.lax.get_visible() and e.ax.get_position().width == pytest.approx(wide)
    assert e.image == SamplingErrorExplorer().image  # back to the picture it opened with


def test_random_jumps_need_no_full_redraw(full_redraws):
    e = SamplingErrorExplorer()
    full = full_redraws(e)
    rng = np.random.default_rng(7)
    for _ in range(30):
        e.set(error=round(rng.uniform(0.01, 0.99), 2), n=int(rng.integers(1, 501)),
              n_sets=int(rng.integers(1, 101)) * 100)
        assert e.error is None
        assert e.ax.get_xlim() == (-0.05, 1.05)  # a fixed axis shows the spread shrink with n
    assert not full


def test_one_bar_per_count_centred_on_k_over_n_and_the_gap_in_words():
    e = SamplingErrorExplorer(error=0.3, n=40, n_sets=2000, seed=1)
    r = e.result
    heights, edges, _ = e.bars.get_data()
    inner = edges[1:-1]  # the outer edges may be clipped to [0, 1]
    k = np.rint(inner * 40 + 0.5).astype(int)
    np.testing.assert_allclose(inner, (k - 0.5) / 40)  # edges at (k ± 0.5)/n: width 1/n, centred on k/n
    np.testing.assert_allclose(np.diff(inner), 1 / 40)
    centres = (edges[:-1] + edges[1:]) / 2
    x, y = e.pmf.get_data()
    np.testing.assert_allclose(centres[1:-1], np.asarray(x)[1:-1])  # the binomial dots sit on the bar centres
    assert np.all(heights[(heights == 0)] == r.observed[np.rint(centres * 40).astype(int)][heights == 0])
    e.controls["learner"].value = True
    text = e.learner_text.get_text()
    assert "optimism" not in text and "training error below held-out" in text
    assert f"{e.result.learner.optimism:.3f}" in text


@pytest.mark.parametrize("n, error", [(40, 0.3), (200, 0.5), (201, 0.5), (300, 0.01), (640, 0.3), (777, 0.93),
                                      (1000, 0.99), (1000, 0.301), (1000, 0.3), (401, 0.5), (650, 0.337)])
def test_bars_are_centred_on_possible_values_and_gather_whole_values_of_r(n, error):
    """A bar per value r/n up to n = MAX_BARS; beyond, every bar drawn gathers the same odd number
    of whole values of r, so its centre is a value r/n, and one bar is centred on round(n error_D),
    the count nearest the truth line; only an end bar at r = 0 or r = n may hold fewer values, and
    is then drawn over just those. Heights are the simulated shares (numpy's histogram over the bar
    edges) and the dots the binomial probability of each bar's values."""
    from evalteach.widgets.sampling_error import MAX_BARS

    e = SamplingErrorExplorer(error=error, n=n, n_sets=3000, seed=3)
    r = e.result
    heights, edges, _ = e.bars.get_data()
    first, last = np.rint(edges[:-1] * n + 0.5), np.rint(edges[1:] * n - 0.5)   # each bar's values of r
    np.testing.assert_allclose(edges, np.r_[first - 0.5, last[-1] + 0.5] / n)    # edges half a value out
    held = last - first + 1
    g = int(held.max())
    assert g == 1 if n <= MAX_BARS else (g % 2 == 1 and g > 1)
    assert g / n >= 1 / MAX_BARS or g == 1                         # never more than MAX_BARS across 0 to 1
    whole = held == g
    assert np.all(whole[1:-1])                                     # the same number of values in every bar...
    assert (whole[0] or first[0] == 0) and (whole[-1] or last[-1] == n)   # ...but an end bar at r = 0 or n
    centres = (first + last) / 2
    np.testing.assert_allclose(centres[whole], np.rint(centres[whole]), atol=1e-9)   # the centres are values r/n
    assert round(n * error) in centres[whole]                      # one bar centred on the truth's count
    assert 0 <= first.min() and last.max() <= n
    counts, _ = np.histogram(r.errors, bins=edges)
    np.testing.assert_allclose(heights, counts / r.n_sets)
    assert heights.sum() == pytest.approx(1.0)                     # every simulated test set is in a bar
    x, y = e.pmf.get_data()
    np.testing.assert_allclose(np.asarray(x) * n, centres)         # the dots sit on the bar centres
    np.testing.assert_allclose(y, stats.binom.cdf(last, n, error) - stats.binom.cdf(first - 1, n, error), atol=1e-12)
    xs, density = e.normal.get_data()
    np.testing.assert_allclose(density, stats.norm.pdf(xs, error, math.sqrt(error * (1 - error) / n)) * g / n)
    labels = [t.get_text() for t in e.legend.texts]
    assert (labels[:2] == ["simulated test sets", "binomial P(r)"] if g == 1 else
            labels[:2] == [f"simulated test sets, {g} values of r a bar", "binomial P(r), summed over a bar"])


@pytest.mark.parametrize("n", [10, 20, 40, 200, 201, 1000])
@pytest.mark.parametrize("error", [0.01, 0.05, 0.5, 0.95, 0.99])
def test_end_bars_are_whole_inside_the_x_axis(n, error):
    """The x axis is fixed but reaches 0.05 beyond 0 and 1: from n = 10 on, the bars at r = 0 and
    r = n (half a value, 0.5/n, beyond the possible rates) are drawn whole, not cut by the edge;
    the ticks stay on the possible rates 0 to 1."""
    e = SamplingErrorExplorer(error=error, n=n, n_sets=2000, seed=0)
    low, high = e.ax.get_xlim()
    _, edges, _ = e.bars.get_data()
    assert low <= edges[0] and edges[-1] <= high
    ticks = e.ax.get_xticks()
    assert ticks.min() == 0 and ticks.max() == 1
    if stats.binom.pmf(0, n, error) > 1e-3:                         # a bar at r = 0 is there and whole
        assert edges[0] == pytest.approx(-0.5 / n)
    if stats.binom.pmf(n, n, error) > 1e-3:
        assert edges[-1] == pytest.approx(1 + 0.5 / n)


def test_a_bar_at_the_edge_is_cut_below_ten_examples():
    """Below n = 10 half a bar is wider than the margin: the lesson says the edge cuts it."""
    e = SamplingErrorExplorer(error=0.05, n=5, seed=0)
    _, edges, _ = e.bars.get_data()
    assert edges[0] == pytest.approx(-0.1) and edges[0] < e.ax.get_xlim()[0]


def test_the_binomial_dots_are_drawn_over_the_curve_and_the_truth_line():
    """Dots and curve differ in colour and in shape (a dark rim), and the dots come after the
    normal curve and the truth line in the drawing order, so the centre dot is not hidden."""
    from matplotlib.colors import same_color

    e = SamplingErrorExplorer()
    assert not same_color(e.pmf.get_color(), e.normal.get_color())
    assert same_color(e.pmf.get_markeredgecolor(), "black")
    order = e._dynamic
    assert order.index(e.pmf) > max(order.index(e.normal), order.index(e.truth), order.index(e.bars))


def test_mode_switches_and_resamples_need_no_full_redraw(full_redraws):
    e = SamplingErrorExplorer()
    full = full_redraws(e)
    for values in (dict(learner=True), dict(error=0.8), dict(learner=False), dict(learner=True, n=3)):
        e.set(**values)
        assert e.error is None
    e.resample()
    assert e.error is None and not full


@pytest.mark.parametrize("presenter, density", [(False, None), (True, None), (False, 1.0)])
def test_pictures_after_changes_equal_fresh_ones(presenter, density, monkeypatch):
    """The axes, their text and the legend are pasted from a frame kept per arrangement, legend
    place and side-panel limits: the pixels must be what a freshly built explorer draws, also
    where the bars reach the legend (n = 1 at error 0.5), after a resample, and at 1x."""
    from dataclasses import replace

    import evalteach as et
    from evalteach import plotting

    et.presenter(presenter)
    if density is not None:
        monkeypatch.setattr(plotting, "_current", replace(plotting.theme(), density=density))
    try:
        e = SamplingErrorExplorer()
        for values in (dict(error=0.7), dict(learner=True), dict(error=0.5, n=1), dict(error=0.2, n=300),
                       dict(learner=False), dict(error=0.51, n=2), dict(learner=True, n_sets=200), dict(error=0.3),
                       dict(error=0.8, n=1000), dict(learner=False)):
            e.set(**values)
            fresh = SamplingErrorExplorer(**{name: value for name, value in e.state.items() if name != "seed"})
            assert e.image == fresh.image, values
        e.resample()
        assert e.image == SamplingErrorExplorer(seed=1, **{k: v for k, v in e.state.items() if k != "seed"}).image
    finally:
        et.presenter(False)


def test_the_data_stay_below_the_legend():
    """The legend is pasted before the data are drawn: no bar, binomial dot or normal curve
    may reach into it (small n spreads the histogram widest)."""
    e = SamplingErrorExplorer()
    renderer = e.figure.canvas.get_renderer()
    for error in np.arange(0.05, 1.0, 0.1):
        for n in (1, 2, 3, 5, 10, 40, 300, 1000):   # bars of several values of r from n = 201 on
            e.set(error=round(float(error), 2), n=n)
            box = e.legend.get_window_extent(renderer)
            heights, edges, _ = e.bars.get_data()
            left = e.ax.transData.transform(np.column_stack([edges[:-1], heights]))
            right = e.ax.transData.transform(np.column_stack([edges[1:], heights]))
            under = (left[:, 0] < box.x1) & (right[:, 0] > box.x0)  # bars with a part under the legend
            assert np.all(left[under, 1] < box.y0), (error, n)
            xy = e.ax.transData.transform(np.concatenate([np.column_stack(e.pmf.get_data()),
                                                          np.column_stack(e.normal.get_data())]))
            beside = (xy[:, 0] > box.x0) & (xy[:, 0] < box.x1)
            assert np.all(xy[beside, 1] < box.y0), (error, n)


def test_side_panel_names_its_own_experiment_and_split():
    """The right panel is a separate experiment: its title's split sizes and split count are
    the result's (569 breast-cancer examples, a third held out, as scikit-learn's splitter rounds it)."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import train_test_split

    e = SamplingErrorExplorer(learner=True)
    lr = e.result.learner
    title = e.learner_title.get_text()
    assert title.startswith("separate experiment") and title.count("\n") == 1
    assert f"{len(lr.test_errors)} random {lr.n_train}/{lr.n_test} splits" in title
    train, test = train_test_split(load_breast_cancer().target, test_size=1 / 3, random_state=0)
    assert (lr.n_train, lr.n_test) == (len(train), len(test)) == (379, 190)
    ticks = e.lax.get_yticks()
    np.testing.assert_allclose(np.diff(ticks), 0.05)  # not the busy 0.025 steps
    assert e.lax.yaxis.get_major_formatter()(0.1) == "0.10"


def test_test_sets_of_a_thousand_examples():
    """n reaches 1000, so lesson 1's task (n = 40, 160, 640) is on the slider; the title's
    standard error is sqrt(error_D(1-error_D)/n) (scipy's binomial SD / n)."""
    e = SamplingErrorExplorer(error=0.3, n=640, seed=0)
    assert e.controls["n"].max >= 1000 and e.error is None
    r = e.result
    assert r.sd_theory == pytest.approx(stats.binom.std(640, 0.3) / 640)
    assert r.sd == pytest.approx(r.sd_theory, rel=0.1)
    title = e.readout.get_text()
    assert f"SD of the sample errors {r.sd:.4f}" in title
    assert f"standard error √(error_D(1−error_D)/n) = {r.sd_theory:.4f}" in title
    e.set(n=1000)
    assert e.error is None and e.result.pmf.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("presenter", [False, True])
def test_the_longer_legend_of_grouped_bars_overlaps_nothing(presenter, monkeypatch):
    """From n = 201 on the legend says how many values of r a bar gathers: a longer text,
    which must still keep clear of the data, the title and the figure's edge."""
    import evalteach
    from test_text_overlap import clutter

    evalteach.presenter(presenter)
    try:
        for n, error in ((201, 0.5), (640, 0.3), (1000, 0.7)):
            e = SamplingErrorExplorer(n=n, error=error)
            assert "values of r a bar" in e.legend.texts[0].get_text()
            assert clutter(e.figure, monkeypatch) == [], (n, error)
    finally:
        evalteach.presenter(False)
