"""CLTExplorer: sample means against Normal(mu, sigma^2/n) and the shape of the mean vs n."""
import math

import numpy as np
import pytest
from scipy import stats

import evalteach
from evalteach import simulate
from evalteach.widgets import CLTExplorer
from evalteach.widgets.clt import MAX_N, SHAPE_TOLERANCE, needed_n
from explorer_contract import check_contract, redrawn_afresh


def test_contract_with_defaults():
    # p only matters for the Bernoulli parent (the contract switches to the uniform first);
    # test_bernoulli_p_changes_the_picture covers it
    check_contract(CLTExplorer, unchanged_ok=("p",))


def test_contract_with_a_bernoulli_parent():
    check_contract(CLTExplorer, sweep=30, unchanged_ok=("p",), distribution="bernoulli", p=0.05, n=30)


def test_bernoulli_p_changes_the_picture():
    e = CLTExplorer(distribution="bernoulli", p=0.1)
    before = e.image
    e.controls["p"].value = 0.4
    assert e.image != before and e.result.distribution.mean == pytest.approx(0.4)


def test_result_is_the_simulation_for_this_state():
    e = CLTExplorer(distribution="exponential", n=12, n_samples=3000, seed=4)
    d = simulate.parent_distribution("exponential")
    expected = simulate.sample_means(d, 12, 3000, seed=4)
    np.testing.assert_array_equal(e.result.means, expected)
    assert e.result.sd_theory == pytest.approx(1 / math.sqrt(12))
    heights, edges, _ = e.bars.get_data()
    np.testing.assert_allclose(heights, e.result.density)
    assert np.sum(heights * np.diff(edges)) == pytest.approx(1.0)
    np.testing.assert_allclose(heights * np.diff(edges) * 3000, np.histogram(expected, edges)[0])
    x, y = e.normal.get_data()
    np.testing.assert_allclose(y, stats.norm.pdf(x, 1.0, 1 / math.sqrt(12)))


@pytest.mark.parametrize("name", ["uniform", "exponential", "bernoulli", "bimodal", "lognormal"])
def test_mean_and_sd_of_the_means_match_the_theorem(name):
    e = CLTExplorer(distribution=name, p=0.3, n=40, n_samples=10000)
    r, d = e.result, e.result.distribution
    assert r.mean == pytest.approx(d.mean, abs=4 * r.sd_theory / math.sqrt(10000))
    assert r.sd == pytest.approx(d.sd / math.sqrt(40), rel=0.03)
    if name != "lognormal":
        assert r.observed_skewness == pytest.approx(r.skewness, abs=0.08)


def test_shape_curve_decreases_with_n_and_is_exact():
    e = CLTExplorer(distribution="lognormal", n=50)
    ns = np.arange(1, MAX_N + 1)
    skew, kurt = e.result.distribution.shape_of_mean(ns)
    np.testing.assert_allclose(e.shape_curve.get_ydata(), np.maximum(np.abs(skew), np.abs(kurt)))
    assert np.all(np.diff(e.shape_curve.get_ydata()) < 0)
    # the log-normal's curve reaches the band inside the panel (MAX_N = 400), where the verdict says
    assert ns[e.shape_curve.get_ydata() <= SHAPE_TOLERANCE][0] == e.result.n_needed == 278
    exponential = CLTExplorer(distribution="exponential")
    inside = ns[exponential.shape_curve.get_ydata() <= SHAPE_TOLERANCE]
    assert inside[0] == exponential.result.n_needed == 25  # the curve enters the band where the verdict says
    ref = stats.lognorm(1.0).stats(moments="sk")
    assert e.result.skewness == pytest.approx(float(ref[0]) / math.sqrt(50))
    assert e.result.kurtosis == pytest.approx(float(ref[1]) / 50)


def test_rule_of_thirty_holds_for_the_exponential_and_fails_for_rare_bernoulli():
    exponential = CLTExplorer(distribution="exponential").result
    assert exponential.n_needed == 25 and exponential.rule_holds  # (2 / 0.4)^2
    for p in (0.01, 0.05, 0.1):
        r = CLTExplorer(distribution="bernoulli", p=p).result
        assert not r.rule_holds
        assert 4 <= r.n_needed * p <= 6.5  # close to the textbook n p >= 5
        skew, kurt = r.distribution.shape_of_mean(r.n_needed)
        assert abs(skew) <= SHAPE_TOLERANCE and abs(kurt) <= SHAPE_TOLERANCE
        skew, _ = r.distribution.shape_of_mean(r.n_needed - 1)
        assert abs(skew) > SHAPE_TOLERANCE
    assert CLTExplorer(distribution="bernoulli", p=0.5).result.rule_holds
    lognormal = CLTExplorer(distribution="lognormal")
    assert not lognormal.result.rule_holds
    # the verdict names the explorer's criterion and the n it gives, not a ruling on n >= 30
    assert lognormal.verdict.get_text() == f"near normal (by this criterion)\nfrom n = {lognormal.result.n_needed}"


def test_needed_n_is_the_first_n_within_tolerance():
    d = simulate.parent_distribution("bimodal")
    n = needed_n(d)
    ns = np.arange(1, 300)
    skew, kurt = d.shape_of_mean(ns)
    ok = (np.abs(skew) <= SHAPE_TOLERANCE) & (np.abs(kurt) <= SHAPE_TOLERANCE)
    assert n == ns[ok][0]


def test_discrete_means_sit_in_the_middle_of_their_bins():
    e = CLTExplorer(distribution="bernoulli", p=0.2, n=10)
    edges = e.result.edges
    np.testing.assert_allclose(np.diff(edges), 0.1)  # the lattice k / n
    centres = (edges[:-1] + edges[1:]) / 2
    assert np.all(np.isclose(centres[:, None], np.unique(e.result.means)).any(axis=0))


def test_typing_a_distribution_selects_it_and_bad_text_is_shown_inline():
    e = CLTExplorer()
    e.controls["text"].value = "2:0.5, 4:0.5"
    assert e.state["distribution"] == "discrete" and e.error is None
    assert e.result.distribution.mean == pytest.approx(3.0)
    good = e.image
    e.controls["text"].value = "1:0.5, 2:0.6"
    assert "sum to 1" in e.error and e.image == good
    e.controls["text"].value = "7"
    assert "one value only" in e.error
    e.controls["text"].value = "1, 2, 2, 9"
    assert e.error is None and e.result.distribution.mean == pytest.approx(3.5)


def test_play_animates_n():
    e = CLTExplorer()
    player = e._buttons[0]
    assert (player.min, player.max) == (1, 400) and "n" in player.description


def test_a_typed_distribution_opens_selected_and_bad_text_is_refused():
    e = CLTExplorer(text="0:0.9, 10:0.1", n=30)
    assert e.state["distribution"] == "discrete" and e.result.distribution.mean == pytest.approx(1.0)
    with pytest.raises(ValueError, match="text: probabilities must sum to 1"):
        CLTExplorer(text="0:0.9, 10:0.2")
    with pytest.raises(TypeError, match="text"):
        CLTExplorer(text=5)


@pytest.mark.parametrize("parent, hidden", [("exponential", {"p", "text"}), ("bernoulli", {"text"}),
                                            ("discrete", {"p"}), ("lognormal", {"p", "text"})])
def test_controls_the_parent_does_not_use_are_hidden(parent, hidden):
    e = CLTExplorer(distribution=parent)
    assert e._hidden(e.state) == hidden
    for name in hidden:  # hidden because they would change nothing
        before = e.image
        e.controls[name].value = 0.5 if name == "p" else "3:0.5, 4:0.5"
        if name == "p":
            assert e.image == before


def test_the_summary_names_the_near_normal_criterion():
    e = CLTExplorer(distribution="exponential", n=30)
    text = e._summary_html.value
    assert "near normal" in text and f"below {SHAPE_TOLERANCE}" in text and "by this criterion" in text
    labels = [t.get_text() for t in e.ax_shape.texts]
    assert "near normal" in labels and "close to normal" not in labels


@pytest.mark.parametrize("changes", [
    [("distribution", "uniform"), ("distribution", "exponential")],   # a parent seen before
    [("n", 200), ("n", 5)],                                             # a zoom seen before
    [("distribution", "bernoulli"), ("p", 0.3), ("p", 0.1)],            # a Bernoulli p seen before
])
def test_what_is_pasted_from_a_cached_layer_is_what_a_full_redraw_draws(changes, monkeypatch):
    # parents and zooms seen before are pasted as pixels, not drawn: the same pixels
    e = CLTExplorer(n=5)
    for name, value in changes:
        e.controls[name].value = value
    assert e.image == redrawn_afresh(e, monkeypatch)


@pytest.mark.parametrize("presenter", [False, True])
def test_every_parent_fits_the_layout_of_the_first(presenter, monkeypatch):
    # a parent change redraws no more than its own panels: the layout stays that of the
    # first picture, and every parent's text must fit it
    from test_text_overlap import clutter

    evalteach.presenter(presenter)
    try:
        e = CLTExplorer(n=5)
        monkeypatch.setattr(e, "_text_grew", lambda: False)  # the full draws below keep the layout
        for name, value in [("distribution", "uniform"), ("distribution", "bernoulli"), ("p", 0.99),
                            ("distribution", "bimodal"), ("distribution", "lognormal"), ("n", 400),
                            ("text", "1, 2, 2, 9, 11, 13, 15, 17, 19, 21, 23, 25"), ("n", 1)]:
            e.controls[name].value = value
            assert clutter(e.figure, monkeypatch) == [], (name, value)
            e._background = None  # the recording draw put animated artists in it
    finally:
        evalteach.presenter(False)


def test_a_shape_beyond_the_axis_is_an_arrowhead_at_its_top():
    e = CLTExplorer(distribution="bernoulli", p=0.01, n=1, seed=0)  # skewness about 9.8
    assert e.here.get_marker() == "^" and e.here.get_ydata()[0] == 1.5
    e.set(n=400)
    assert e.here.get_marker() == "o" and e.here.get_ydata()[0] < 1.5
