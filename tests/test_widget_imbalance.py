"""ImbalanceExplorer: Scott's accuracy paradox; rates equal evalteach.stats.confusion and sklearn."""
import re

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix, precision_score, recall_score

from evalteach.stats import confusion
from evalteach.widgets.imbalance import (METRICS, ImbalanceExplorer, counts, data_predictions, data_split,
                                         scott_predictions)
from explorer_contract import check_contract, clutter


def test_contract_scott_example():
    # learner and balance only act on the real data: hidden for Scott's fixed hypotheses (the
    # contract's first pass still tries hidden controls, hence unchanged_ok)
    check_contract(ImbalanceExplorer, sweep=15, unchanged_ok=("learner", "balance"))


@pytest.mark.parametrize("source, hidden", [("scott", {"learner", "balance"}), ("data", set())])
def test_controls_that_do_nothing_are_hidden(source, hidden):
    e = ImbalanceExplorer(source=source)
    assert e._hidden(e.state) == hidden
    assert set(e.visible_controls()) == set(e.controls) - hidden


def test_cost_title_fits_the_figure_at_presenter_scale():
    import evalteach as et
    et.presenter()
    try:
        e = ImbalanceExplorer(cost_fn=1000.0)
        e.figure.canvas.draw()
        box = e.cost_title.get_window_extent()
        assert e.figure.bbox.x0 <= box.x0 and box.x1 <= e.figure.bbox.x1
    finally:
        et.presenter(False)


def test_contract_real_data():
    check_contract(ImbalanceExplorer, sweep=10, source="data", positive_share=0.1, learner="stump")


def test_scott_numbers_from_the_slides():
    r = ImbalanceExplorer().result
    assert r.names == ("always negative", "h_A", "h_B")
    assert (r.n_positive, r.n_negative) == (20, 980)
    majority, h_a, h_b = r.confusions
    assert majority.accuracy == pytest.approx(0.980)
    assert h_a.accuracy == pytest.approx((2 + 965) / 1000) and (h_a.tp, h_a.tn) == (2, 965)
    assert h_b.accuracy == pytest.approx((19 + 930) / 1000) and (h_b.tp, h_b.tn) == (19, 930)
    assert h_b.recall == pytest.approx(0.95) and np.isnan(majority.precision)
    # The paradox: the useless classifier has the best accuracy, yet the worst cost when misses cost 10.
    assert majority.accuracy > h_a.accuracy > h_b.accuracy
    assert r.costs[0] > r.costs[1] > r.costs[2]
    assert r.costs[2] == pytest.approx((50 + 10 * 1) / 1000)


@pytest.mark.parametrize("share", [0.05, 0.3])
def test_rates_shown_equal_confusion_and_sklearn(share):
    e = ImbalanceExplorer(source="data", positive_share=share, learner="tree", balance="over",
                          cost_fn=100.0)
    predictions = data_predictions(share, "tree", "over", 0)
    for (y, pred), c, cost in zip(predictions.values(), e.result.confusions, e.result.costs):
        ours = confusion(y, pred)
        for m in ("accuracy", "precision", "recall", "specificity", "fpr"):
            assert getattr(c, m) == getattr(ours, m) or (np.isnan(getattr(c, m)) and np.isnan(getattr(ours, m)))
        tn, fp, fn, tp = confusion_matrix(y, pred, labels=[0, 1]).ravel()
        assert (c.tp, c.fp, c.tn, c.fn) == (tp, fp, tn, fn)
        assert c.recall == pytest.approx(recall_score(y, pred))
        if tp + fp:
            assert c.precision == pytest.approx(precision_score(y, pred))
        assert cost == pytest.approx((fp + 100 * fn) / len(y))
    y = predictions[next(iter(predictions))][0]
    assert y.mean() == pytest.approx(share, abs=0.02)


def test_balancing_raises_recall_of_the_rare_class():
    r = ImbalanceExplorer(source="data", positive_share=0.03, learner="stump", balance="under").result
    plain, balanced = r.confusions[1], r.confusions[2]
    assert balanced.recall >= plain.recall and balanced.fpr >= plain.fpr


@pytest.mark.parametrize("share", [0.01, 0.02, 0.05, 0.1, 0.3, 0.5])
def test_the_cost_slider_lands_next_to_the_cost_where_the_cheapest_classifier_changes(share):
    """Scott's h_B costs fp + c fn, "always negative" c (tp + fn): equal at c = fp / tp (50/19 = 2.63
    at 2% positives, 0.055 at half). At every class ratio offered that cost lies inside the
    slider, the cheapest classifier changes between two neighbouring steps of it, and the
    nearer of them is within 2.5% of the break-even (the old slider, 1 to 1000 in steps of
    10**0.1, stepped from 2.51 to 3.16 over 2.63 and began above it from 6% positives on)."""
    control = ImbalanceExplorer().controls["cost_fn"]
    steps = control.base ** np.arange(control.min, control.max + control.step / 2, control.step)
    pos = round(1000 * share)
    tp, fp = round(0.95 * pos), (1000 - pos) - round(930 / 980 * (1000 - pos))  # Scott's h_B at this ratio
    break_even = fp / tp
    assert steps[0] < break_even < steps[-1]
    e = ImbalanceExplorer(positive_share=share)
    cheapest = []
    for cost in steps:
        e.controls["cost_fn"].value = float(cost)
        cheapest.append(e.result.names[int(np.argmin(e.result.costs))])
    switch = [i for i in range(1, len(steps)) if cheapest[i] != cheapest[i - 1]]
    assert len(switch) == 1, switch
    below, above = steps[switch[0] - 1], steps[switch[0]]
    assert (cheapest[switch[0] - 1], cheapest[switch[0]]) == ("always negative", "h_B")
    assert below <= break_even <= above
    assert min(abs(np.log10(x / break_even)) for x in (below, above)) <= 0.01
    if share == 0.02:  # the lesson's explore task: a step at 2.63, where the two costs shown are equal
        e.controls["cost_fn"].value = float(min(steps, key=lambda x: abs(x - 50 / 19)))
        assert e.result.cost_fn == pytest.approx(2.63, abs=0.005)
        # 3 significant figures: 20 x 2.63 / 1000 and (50 + 2.63) / 1000 both read 0.0526
        assert [t.get_text() for t in e.cost_text] == ["0.0526", "0.0623", "0.0526"]
        assert e.cost_axes.get_ylim() == (0, 0.1)  # the bars fill the panel: their crossing shows


def test_cost_title_fits_the_figure_at_the_smallest_costs():
    """Costs below 1 are written with five digits ("0.01047"): the title keeps within its place."""
    import evalteach as et

    for presenter in (False, True):
        et.presenter(presenter)
        try:
            e = ImbalanceExplorer(positive_share=0.5, cost_fn=10 ** -1.98)
            assert e.cost_title.get_text() == "costs: miss 0.01047,\nfalse alarm 1"
            assert clutter(e.figure) == []
        finally:
            et.presenter(False)


def test_scott_rates_are_kept_when_the_ratio_moves():
    y, pred = scott_predictions(0.2)["h_B"]
    c = confusion(y, pred)
    assert (c.tp + c.fn, c.tn + c.fp) == (200, 800)
    assert c.recall == pytest.approx(0.95) and c.specificity == pytest.approx(930 / 980, abs=1e-3)


def test_cost_bars_are_labelled_and_the_axis_follows_the_costs():
    """The cost panel names its bars in plain words (one word a line), follows the data source's
    names, and its y axis, which follows the costs, always holds the tallest bar."""
    e = ImbalanceExplorer(positive_share=0.5, cost_fn=20.0, seed=0)
    e.figure.canvas.draw()

    def labels():
        return [t.get_text() for t in e.cost_axes.get_xticklabels()]

    assert labels() == ["always\nnegative", "h_A", "h_B"]
    assert e.cost_axes.get_ylabel() == "average cost per test case\n(miss cost × FN + FP) / n"
    for share, cost_fn in ((0.5, 20.0), (0.02, 20.0), (0.02, 1.0), (0.3, 1000.0)):
        e.set(positive_share=share, cost_fn=cost_fn)
        low, high = e.cost_axes.get_ylim()
        assert low == 0 and max(e.result.costs) <= high <= 10 * max(0.2, max(e.result.costs))
    e.set(source="data", learner="stump")
    e.figure.canvas.draw()
    assert labels() == ["always\nmajority", "decision\nstump", "decision\nstump\n(balanced)"]
    assert [t.get_text() for t in e.legend.get_texts()] == list(e.result.labels)
    assert e.result.labels == ("always majority", "decision stump", "decision stump (balanced)")
    assert e.result.names == ("always majority", "stump", "stump, balanced")  # the keys stay the learners'


def test_no_control_redraws_the_whole_figure(full_redraws):
    e = ImbalanceExplorer()
    full = full_redraws(e)
    for values in (dict(positive_share=0.5, cost_fn=1000.0), dict(source="data"), dict(learner="1nn"),
                   dict(balance="over", positive_share=0.3), dict(source="scott", cost_fn=1.0)):
        e.set(**values)
        assert e.error is None
    assert not full


@pytest.mark.parametrize("presenter, density", [(False, None), (True, None), (False, 1.0)])
def test_pictures_after_changes_equal_fresh_ones(presenter, density, monkeypatch):
    """The layout is made once for the widest text, and the cost axis, the titles, the legend,
    the cost bars' names and the values on the bars are pasted from stamps: the pixels must be
    what a freshly built explorer draws, also at the widest cost axis (share 0.5, a miss
    costing 1000) and at 1x, where neighbouring values ("1.000" twice) nearly touch."""
    from dataclasses import replace

    import evalteach as et
    from evalteach import plotting

    et.presenter(presenter)
    if density is not None:
        monkeypatch.setattr(plotting, "_current", replace(plotting.theme(), density=density))
    try:
        e = ImbalanceExplorer()
        rng = np.random.default_rng(3)
        changes = [dict(positive_share=0.5, cost_fn=1000.0), dict(positive_share=0.02, cost_fn=10.0),
                   dict(cost_fn=1.0), dict(source="data"), dict(cost_fn=1000.0), dict(learner="1nn"),
                   dict(balance="over", positive_share=0.3), dict(source="scott", cost_fn=10 ** 1.1),
                   dict(positive_share=0.5, cost_fn=1000.0)]
        changes += [dict(positive_share=int(rng.integers(1, 51)) / 100, cost_fn=10 ** (int(rng.integers(0, 31)) / 10))
                    for _ in range(4)]
        for values in changes:
            e.set(**values)
            fresh = ImbalanceExplorer(**{name: value for name, value in e.state.items() if name != "seed"})
            assert e.image == fresh.image, values
    finally:
        et.presenter(False)


def test_rates_on_few_cases_are_shown_as_counts_with_a_warning():
    """At 2% malignant the test set holds 4 positives: recall and precision rest on 4 and 1 cases,
    so their bars show counts (k/n, taken from the confusion counts) and the title warns."""
    e = ImbalanceExplorer(source="data", positive_share=0.02, learner="naive_bayes", balance="under", cost_fn=20.0)
    r = e.result
    y, pred = data_predictions(0.02, "naive_bayes", "under", 0)[r.names[1]]
    tn, fp, fn, tp = confusion_matrix(y, pred, labels=[0, 1]).ravel()
    assert (tp, fp, fn) == (1, 0, 3)
    assert counts(r.confusions[1], "recall") == (tp, tp + fn)
    assert counts(r.confusions[1], "precision") == (tp, tp + fp)
    assert counts(r.confusions[1], "accuracy") == (tp + tn, len(y))
    assert counts(r.confusions[1], "fpr") == (fp, fp + tn)
    for c in r.confusions:  # each count is the rate the confusion result computes
        for m in METRICS:
            k, n = counts(c, m)
            assert (np.isnan(getattr(c, m)) and n == 0) or getattr(c, m) == pytest.approx(k / n)
    shown = {m: [texts[METRICS.index(m)].get_text() for texts in e.rate_text] for m in METRICS}
    assert shown["recall"] == ["0/4", "1/4", "4/4"]
    assert shown["precision"] == ["n/a", "1/1", f"4/{r.confusions[2].tp + r.confusions[2].fp}"]
    assert shown["specificity"][:2] == ["1.000", "1.000"] and shown["accuracy"][1] == ".984"
    assert r.few and "fewer than 20 cases: very uncertain" in e.rate_title.get_text()
    assert "1.000 (1 of 1)" in e._summary(r) and "0.250 (1 of 4)" in e._summary(r)
    assert "n/a (undefined: 0 of 0)" in e._summary(r)


def test_the_training_set_is_stated():
    """At 2% malignant the training half has 3 positives; balancing by undersampling trains on 3 + 3."""
    e = ImbalanceExplorer(source="data", positive_share=0.02, balance="under")
    y, train, test, balanced = data_split(0.02, "under", 0)
    assert e.result.train == (3, 178) == (y[train].sum(), len(train) - y[train].sum())
    assert e.result.balanced == (3, 3) == (y[balanced].sum(), len(balanced) - y[balanced].sum())
    assert (e.result.n_positive, e.result.n_negative) == (y[test].sum(), len(test) - y[test].sum()) == (4, 179)
    assert e.rate_title.get_text().split("\n")[:2] == [
        "test set: 4 malignant (positive), 179 benign",
        "training half: 3 malignant, 178 benign; balanced (undersampled): 3 + 3"]
    e.set(balance="over")
    assert e.result.balanced == (178, 178)
    assert "balanced (oversampled): 178 + 178" in e.rate_title.get_text()


def test_summary_states_the_costs_first():
    e = ImbalanceExplorer(cost_fn=20.0)
    summary = e._summary(e.result)
    assert summary.startswith("Costs: a miss 20, a false alarm 1")
    assert re.search(r"average cost per test case 0\.07(?!\d)", summary)  # h_B: (20 x 1 + 50) / 1000
    # Scott's 20 positives: h_A's precision rests on its 17 alarms, shown as a count
    assert e.rate_text[1][METRICS.index("precision")].get_text() == "2/17" and e.result.few
    assert "uncertain" in e.rate_title.get_text() and "0.118 (2 of 17)" in summary
    e.set(positive_share=0.5)
    assert not e.result.few and "uncertain" not in e.rate_title.get_text() + e._summary(e.result)
