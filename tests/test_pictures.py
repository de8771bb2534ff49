"""What every result's picture promises (issue 23): it draws into the Axes it is given and opens
no other figure, or makes one figure sized for a notebook cell that shows as a PNG at twice the
pixels of its size on screen with the verdict as its text alternative; it changes no global
state; no text overlaps text or data or leaves the figure, at laptop and presenter scale.

The numbers each picture draws are checked against its result in test_pictures_<module>.py.
"""
from __future__ import annotations

import base64
import inspect
import struct

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import pytest

import evalteach as et
import evalteach.stats as s
from evalteach.example_scores import DEMSAR_ALGORITHMS, DEMSAR_AUC
from evalteach.pictures import ResultFigure
from evalteach.stats.examples import fawcett_roc_example, scott_roc_example
from evalteach.pictures._canvas import first_sentence
from test_text_overlap import clutter

FOLDS = [0.02, 0.03, 0.01, 0.04, 0.02, 0.05, 0.03, 0.02, 0.01, 0.03]
FIVE_BY_TWO = [[0.02, 0.01], [0.03, 0.00], [0.01, 0.02], [0.02, 0.02], [0.00, 0.03]]

#: One or more results per picture, covering its layouts (name -> a function making it).
EXAMPLES = {
    # a normal curve, two normal curves, binomial bars, a posterior infinite at 0, one bound
    "ProportionInterval-wald": lambda: s.proportion_interval(12, 40),
    "ProportionInterval-wilson": lambda: s.proportion_interval(12, 40, method="wilson"),
    "ProportionInterval-clopper-pearson": lambda: s.proportion_interval(130, 1000, method="clopper-pearson"),
    "ProportionInterval-jeffreys-k0": lambda: s.proportion_interval(0, 25, method="jeffreys"),
    "ProportionInterval-upper": lambda: s.proportion_interval(3, 30, method="agresti-coull", sided="upper"),
    "HypothesisComparison": lambda: s.compare_hypotheses(0.20, 100, 0.30, 100),
    "HypothesisComparison-one-sided": lambda: s.compare_hypotheses(0.20, 100, 0.30, 100, alternative="less"),
    "PairedTest-ten-folds": lambda: s.corrected_resampled_t_test(FOLDS, test_train_ratio=0.25, alternative="greater"),
    "PairedTest-z": lambda: s.paired_z_test([8, 17, -5, 10, -5]),
    "PairedTest-no-spread": lambda: s.paired_t_test([5, 5, 5, 5, 5]),
    "FiveByTwoTest-t": lambda: s.five_by_two_cv_t_test(FIVE_BY_TWO),
    "FiveByTwoTest-F": lambda: s.five_by_two_cv_f_test(FIVE_BY_TWO),
    "BinomialTest": lambda: s.binomial_test(30, 100, 0.2, alternative="greater"),
    "SignTest": lambda: s.sign_test(11, 2, 1),
    "McNemarTest": lambda: s.mcnemar_test([[40, 10], [3, 47]]),
    "McNemarTest-exact-b-c": lambda: s.mcnemar_test(10, 3, exact=True, n=120),
    "PermutationTest-exact": lambda: s.permutation_test([0.02, 0.01, 0.03, -0.01, 0.02, 0.04]),
    "PermutationTest-unpaired": lambda: s.permutation_test(np.linspace(0.18, 0.24, 12), np.linspace(0.2, 0.27, 11),
                                                           paired=False, n_resamples=2000),
    "BootstrapInterval": lambda: s.bootstrap_interval([0, 1] * 50, [0, 1] * 40 + [1, 0] * 10),
    "BootstrapInterval-auc-difference": lambda: s.bootstrap_interval(
        [0, 1] * 30, np.linspace(0, 1, 60), metric="auc", predictions_b=np.linspace(1, 0, 60) ** 2),
    "WilcoxonResult": lambda: s.wilcoxon_test(DEMSAR_AUC[:, 1], DEMSAR_AUC[:, 0]),
    "WilcoxonResult-many": lambda: s.wilcoxon_test(np.sin(np.arange(60)) / 50 + 0.005, alternative="greater"),
    "FriedmanResult": lambda: s.friedman_test(DEMSAR_AUC),
    "FriedmanResult-ten": lambda: s.friedman_test(np.cos(np.arange(200)).reshape(20, 10) + np.linspace(0, 2, 10)),
    "FriedmanPosthoc": lambda: s.friedman_posthoc(DEMSAR_AUC, control=0, names=DEMSAR_ALGORITHMS),
    "BayesianCorrelatedTTest": lambda: s.bayesian_correlated_t_test([0.02, 0.01, 0.03, 0.00, 0.02],
                                                                    test_train_ratio=0.25, rope=0.01),
    "BayesianSignedRankTest": lambda: s.bayesian_signed_rank_test([0.02, 0.01, 0.03, -0.01, 0.02, 0.04],
                                                                  rope=0.01, n_samples=5000),
    "RocCurve-costs": lambda: s.roc_curve(*fawcett_roc_example()),
    "RocCurve-many": lambda: s.roc_curve(np.arange(300) % 3 == 0, np.sin(np.arange(300)) + np.arange(300) % 3 == 0),
    "PrecisionRecallCurve": lambda: s.precision_recall_curve(*fawcett_roc_example()),
    "CostCurve": lambda: s.cost_curve(*scott_roc_example()),
    "DelongResult": lambda: s.delong_test([1, 1, 1, 1, 0, 0, 0, 0], [9, 8, 7, 3, 6, 2, 1, 0], [9, 3, 7, 2, 8, 6, 1, 0]),
    "ReliabilityDiagram": lambda: s.reliability_diagram(np.arange(200) % 3 == 0, np.linspace(0, 0.8, 200)),
    "LiftChart": lambda: s.lift_chart([1, 1, 0, 1, 0, 0, 0, 0, 1, 0],
                                      [.95, .93, .93, .88, .86, .85, .82, .80, .80, .79]),
}

#: Keyword arguments of plot() for some examples.
OPTIONS = {"RocCurve-costs": dict(costs=(1, 2)), "FriedmanResult": dict(names=DEMSAR_ALGORITHMS)}


def draw(name, **kwargs):
    """The example ``name`` drawn, with its options."""
    return EXAMPLES[name]().plot(**OPTIONS.get(name, {}), **kwargs)


@pytest.fixture(autouse=True)
def no_figures_left():
    yield
    plt.close("all")


def test_every_result_with_a_picture_has_an_example():
    drawn = {name for name in s.__all__ if inspect.isclass(getattr(s, name)) and hasattr(getattr(s, name), "plot")}
    examples = {type(make()).__name__ for make in EXAMPLES.values()}
    assert drawn - examples == set()


@pytest.mark.parametrize("name", EXAMPLES)
def test_a_new_figure_is_a_crisp_png_with_the_verdict_as_alt_text_and_no_text_overlaps(name, monkeypatch):
    """At laptop scale: one new figure, rcParams untouched, shown as a PNG at twice its on-screen
    pixels with the verdict's first sentence as its text alternative; no text overlaps text or
    data or runs off the figure (tests/test_text_overlap.py's check)."""
    result = EXAMPLES[name]()
    before = dict(mpl.rcParams)
    ax = result.plot(**OPTIONS.get(name, {}))
    assert dict(mpl.rcParams) == before, "plot() changed matplotlib's settings"
    figure = ax.figure
    assert isinstance(figure, ResultFigure) and figure.axes[0] is ax
    assert plt.get_fignums() == [figure.number]
    assert clutter(figure, monkeypatch) == []
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda *a, **k: shown.append((a, k)))
    figure._ipython_display_()
    (bundle,), options = shown[0]
    png = base64.b64decode(bundle["image/png"])
    width, height = struct.unpack(">II", png[16:24])
    metadata = options["metadata"]["image/png"]
    assert (metadata["width"], metadata["height"]) == (round(figure.get_figwidth() * 80),
                                                       round(figure.get_figheight() * 80))
    assert (width, height) == (2 * metadata["width"], 2 * metadata["height"])
    assert metadata["alt"] == bundle["text/plain"] == first_sentence(result.verdict)


@pytest.mark.parametrize("name", EXAMPLES)
def test_no_text_overlaps_at_presenter_scale(name, monkeypatch):
    et.presenter()
    try:
        problems = clutter(draw(name).figure, monkeypatch)
    finally:
        et.presenter(False)
    assert problems == []


def test_first_sentence_keeps_decimals_and_stops_at_the_first_sentence():
    assert first_sentence("p = 0.0312, below 0.05: significant. The interval is [0.1, 0.2].") == \
        "p = 0.0312, below 0.05: significant."
    assert first_sentence("One sentence (with 1.96.)") == "One sentence (with 1.96.)"


#: Pictures of more than one panel.
SEVERAL = {"PairedTest": 2, "FiveByTwoTest": 2, "McNemarTest": 2, "DelongResult": 2, "ReliabilityDiagram": 2}


@pytest.mark.parametrize("name", EXAMPLES)
def test_plot_draws_into_the_given_axes_and_opens_no_other_figure(name):
    result = EXAMPLES[name]()
    count = SEVERAL.get(type(result).__name__, 1)
    options = OPTIONS.get(name, {})
    figure, ax = plt.subplots()
    before = plt.get_fignums()
    assert result.plot(ax=ax, **options) is ax
    assert plt.get_fignums() == before
    assert len(figure.axes) == count  # one Axes of a grid is divided into the panels (SEVERAL knows how many)
    assert ax.lines or ax.patches or ax.collections
    if count > 1:  # or one Axes per panel
        figure, axes = plt.subplots(1, count)
        assert result.plot(ax=axes, **options) is axes[0]
        assert plt.get_fignums() == before + [figure.number]
        assert all(a.lines or a.patches or a.collections or a.texts for a in axes)


@pytest.mark.parametrize("ax", ["axes", 3, [None]])
def test_ax_that_is_no_axes_is_refused_with_its_value(ax):
    with pytest.raises((TypeError, ValueError), match="ax must be"):
        s.proportion_interval(12, 40).plot(ax=ax)


def test_an_axes_outside_a_grid_cannot_hold_several_panels():
    figure = plt.figure()
    ax = figure.add_axes((0.1, 0.1, 0.8, 0.8))
    with pytest.raises(ValueError, match="ax must be an Axes of a grid"):
        EXAMPLES["McNemarTest"]().plot(ax=ax)


def test_presenter_scale_grows_the_figure_and_its_fonts():
    result = EXAMPLES["ProportionInterval-wilson"]()
    laptop = result.plot()
    et.presenter()
    try:
        presenter = result.plot()
    finally:
        et.presenter(False)
    assert presenter.figure.get_figwidth() == pytest.approx(1.5 * laptop.figure.get_figwidth())
    assert presenter.title.get_fontsize() == pytest.approx(1.5 * laptop.title.get_fontsize())
    for axis in ("xaxis", "yaxis"):
        ticks = [getattr(a, axis).get_major_ticks() for a in (laptop, presenter)]
        if ticks[0] and ticks[1]:
            assert ticks[1][0].label1.get_fontsize() == pytest.approx(1.5 * ticks[0][0].label1.get_fontsize())
