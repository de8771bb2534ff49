"""ROCExplorer: the contract, and its numbers against evalteach.stats and scikit-learn."""
import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

from evalteach.stats import confusion, roc_curve
from evalteach.stats.examples import fawcett_roc_example, scott_roc_example
from evalteach.widgets import ROCExplorer
from explorer_contract import check_contract

def test_contract_defaults():
    check_contract(ROCExplorer)  # the contract turns the iso-cost line on before moving the costs


def test_contract_with_custom_values():
    check_contract(ROCExplorer, sweep=10, source="fawcett", threshold=0.3, hull=True, iso_cost=False,
                   cost_fp=2.0)


def test_contract_with_user_arrays():
    y, s = fawcett_roc_example()
    check_contract(ROCExplorer, sweep=10, y_true=y, scores=s)


@pytest.mark.parametrize("source", ["scott", "fawcett", "breast_cancer", "wine"])
def test_result_at_a_threshold_is_the_confusion_of_thresholded_scores(source):
    e = ROCExplorer(source=source)
    for position in (0.0, 0.2, 0.45, 0.5, 0.83, 1.0):
        e.controls["threshold"].value = position
        r = e.result
        y, s = r.data.y, r.data.scores
        expected = confusion(y, (s >= r.threshold).astype(int))
        assert (r.confusion.tp, r.confusion.fp, r.confusion.tn, r.confusion.fn) == \
               (expected.tp, expected.fp, expected.tn, expected.fn)
        # the point on the curve is a vertex of the ROC curve
        assert np.any(np.isclose(r.curve.fpr, r.confusion.fpr) & np.isclose(r.curve.tpr, r.confusion.recall))
    assert e.result.auc == pytest.approx(roc_auc_score(e.result.data.y, e.result.data.scores))


def test_scotts_table_as_on_the_slides():
    e = ROCExplorer()
    y, s = scott_roc_example()
    assert e.result.auc == pytest.approx(0.76) == roc_auc_score(y, s)
    # a threshold between x4 (1.905) and x5 (-2.75): x1, x2, x3, x4 predicted positive
    lo, hi = ROCExplorer.score_range(e.result.data)
    e.controls["threshold"].value = round((0.0 - lo) / (hi - lo) / 0.005) * 0.005
    assert -2.75 < e.result.threshold < 1.905
    cm = e.result.confusion
    assert (cm.tp, cm.fp, cm.tn, cm.fn) == (3, 1, 4, 2)
    assert "TP = 3, FP = 1, TN = 4, FN = 2" in e._summary_html.value


def test_hull_and_cost_optimal_point_come_from_stats():
    e = ROCExplorer(source="fawcett", hull=True, iso_cost=True, cost_fp=2.0, cost_fn=1.0)
    curve = roc_curve(*fawcett_roc_example())
    np.testing.assert_allclose(e.result.hull.fpr, curve.convex_hull().fpr)
    op = curve.operating_point(2.0, 1.0)
    assert (e.result.operating.fpr, e.result.operating.tpr) == (op.fpr, op.tpr)
    assert e.result.operating.slope == pytest.approx(2.0)
    before = e.image
    e.controls["cost_fn"].value = 10.0
    assert e.image != before and e.result.operating.slope == pytest.approx(0.2)


def test_precision_recall_view():
    e = ROCExplorer(source="fawcett", view="pr", threshold=0.5)
    from sklearn.metrics import average_precision_score

    y, s = fawcett_roc_example()
    assert e.result.pr.average_precision == pytest.approx(average_precision_score(y, s))
    assert e.result.hull is None and e.result.operating is None
    # the picture is the achievable step curve, and its area is the average precision shown
    x, y_drawn = e.curve_line.get_data()
    np.testing.assert_array_equal(np.c_[x, y_drawn], np.c_[e.result.pr.achievable("steps")])
    area = np.sum(np.diff(x) * (y_drawn[1:] + y_drawn[:-1]) / 2)
    assert area == pytest.approx(average_precision_score(y, s))
    assert f"{area:.3f}" in e.curve_title.get_text()


def _legend(e):
    return [t.get_text() for t in e.ax_curve.get_legend().get_texts()]


def test_legend_lists_only_what_is_drawn():
    e = ROCExplorer()
    assert _legend(e) == ["ROC curve", "current threshold"]
    e.controls["hull"].value = True
    assert _legend(e) == ["ROC curve", "current threshold", "convex hull"]
    e.controls["iso_cost"].value = True
    assert _legend(e)[-2:] == ["iso-cost line", "least expected cost"]
    e.controls["hull"].value = False
    assert "convex hull" not in _legend(e) and "iso-cost line" in _legend(e)
    e.controls["view"].value = "pr"
    assert _legend(e) == ["precision-recall points (steps; area = AP)", "current threshold"]


def test_a_fitted_estimator():
    from sklearn.datasets import load_breast_cancer
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X[::2], y[::2])
    e = ROCExplorer(estimator=model, X=X[1::2], y=y[1::2])
    assert e.state["source"] == "user"
    assert e.result.auc == pytest.approx(roc_auc_score(y[1::2], model.decision_function(X[1::2])))
    bayes = GaussianNB().fit(X[::2], y[::2])  # no decision_function: scored by predict_proba
    e = ROCExplorer(estimator=bayes, X=X[1::2], y=y[1::2])
    assert e.result.auc == pytest.approx(roc_auc_score(y[1::2], bayes.predict_proba(X[1::2])[:, 1]))


def test_bad_input_is_refused_clearly():
    with pytest.raises(TypeError, match="scores"):
        ROCExplorer(y_true=[0, 1, 1])
    with pytest.raises(ValueError, match="y_true"):
        ROCExplorer(y_true=[2, 1, 1], scores=[0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="same length"):
        ROCExplorer(y_true=[0, 1, 1], scores=[0.1, 0.2])
    with pytest.raises(TypeError, match="X="):
        ROCExplorer(estimator=LogisticRegression())
    with pytest.raises(ValueError, match="source"):
        ROCExplorer(source="user")  # no data passed


@pytest.mark.parametrize("values", [dict(hull=True, iso_cost=True), dict(view="pr"),
                                    dict(source="breast_cancer", hull=True, iso_cost=True)])
def test_presenter_mode_keeps_titles_inside_the_figure(values):
    import evalteach as et
    from test_widget_critical_difference import texts_outside_the_figure

    try:
        et.presenter()
        e = ROCExplorer(**values)
        scale = et.plotting.theme().figure_scale
        assert tuple(e.figure.get_size_inches()) == (10.0 * scale, 5.6 * scale)
        assert texts_outside_the_figure(e) == []
    finally:
        et.presenter(False)
    assert texts_outside_the_figure(ROCExplorer(**values)) == []


@pytest.mark.parametrize("cost_fn", [0.2, 1.0, 5.0])
def test_opens_at_the_least_cost_threshold_when_the_iso_cost_line_is_on(cost_fn):
    e = ROCExplorer(source="scott", hull=True, iso_cost=True, cost_fp=1.0, cost_fn=cost_fn)
    op = roc_curve(*scott_roc_example()).operating_point(1.0, cost_fn)
    assert (e.result.confusion.fpr, e.result.confusion.recall) == (op.fpr, op.tpr)
    assert ROCExplorer(source="scott", iso_cost=True, threshold=0.5).controls["threshold"].value == 0.5


def test_diamond_drawn_above_the_current_point_and_hollow():
    e = ROCExplorer(source="scott", iso_cost=True, cost_fn=0.2)
    assert e.best.get_zorder() > e.point.get_zorder() and e.best.get_markerfacecolor() == "none"
    assert tuple(e.best.get_xydata()[0]) == tuple(e.point.get_xydata()[0])   # they coincide here
    # the negatives' squares are orange; the iso-cost line and the diamond must not share that colour
    negatives = tuple(e.neg_dots.get_edgecolors()[0][:3])
    from matplotlib.colors import to_rgb
    assert to_rgb(e.iso_line.get_color()) != negatives and to_rgb(e.best.get_color()) != negatives


@pytest.mark.parametrize("cost_fn", [0.1, 0.2, 1.0, 5.0, 10.0])
def test_iso_cost_line_stays_inside_roc_space(cost_fn):
    e = ROCExplorer(source="fawcett", iso_cost=True, cost_fn=cost_fn)
    x, y = (np.asarray(a) for a in e.iso_line.get_data())
    assert np.all((x >= 0) & (x <= 1) & (y >= -1e-12) & (y <= 1 + 1e-12))
    op = e.result.operating
    np.testing.assert_allclose(np.diff(y) / np.diff(x), op.slope)            # the right slope,
    assert np.min(x) <= op.fpr <= np.max(x)                                  # through the optimal vertex
    assert np.isclose(y[0], 0) or np.isclose(x[0], 0)                        # from the square's edge
    assert np.isclose(y[1], 1) or np.isclose(x[1], 1)                        # to its edge


def test_scott_axis_label_has_no_nested_parentheses():
    e = ROCExplorer(source="scott")
    assert e.ax_scores.get_xlabel() == "SVM score w·x"


def test_pr_legend_sits_where_the_steps_are_not():
    # Scott's scores with each negative copied ten times: precision falls to about 0.1 at full recall,
    # so the lower right is taken and the upper right is free; a good ranking keeps it high, the other way round
    y, s = scott_roc_example()
    many_y = np.r_[y[y == 1], np.repeat(y[y == 0], 10)]
    many_s = np.r_[s[y == 1], np.repeat(s[y == 0], 10)]
    e = ROCExplorer(y_true=many_y, scores=many_s, view="pr")
    box = e.ax_curve.get_legend().get_window_extent().transformed(e.ax_curve.transData.inverted())
    recall, precision = e.result.pr.achievable("steps")
    assert not np.any((recall > box.x0) & (recall < box.x1) & (precision > box.y0) & (precision < box.y1))
    assert box.x1 > 0.5                                                     # on the right
    good = ROCExplorer(source="breast_cancer", view="pr")
    box = good.ax_curve.get_legend().get_window_extent().transformed(good.ax_curve.transData.inverted())
    recall, precision = good.result.pr.achievable("steps")
    assert not np.any((recall > box.x0) & (recall < box.x1) & (precision > box.y0) & (precision < box.y1))
    assert ROCExplorer(view="roc").ax_curve.get_legend()._loc == 4           # ROC: lower right, as before


def test_pr_view_summary_does_not_call_itself_roc():
    e = ROCExplorer(view="pr")
    assert not e._repr_mimebundle_()["text/plain"].startswith("ROC")


@pytest.mark.parametrize("cost_fn", [0.2, 1.0, 5.0])
def test_opening_threshold_lies_midway_in_the_gap_below_the_vertex(cost_fn):
    # the line must not sit on the dot of the vertex's score: midway between it and the next lower score
    y, s = scott_roc_example()
    e = ROCExplorer(source="scott", iso_cost=True, cost_fn=cost_fn)
    op = roc_curve(y, s).operating_point(1.0, cost_fn)
    lower = s[s < op.threshold].max() if np.any(s < op.threshold) else ROCExplorer.score_range(e.result.data)[0]
    step = 0.005 * np.ptp(ROCExplorer.score_range(e.result.data))
    assert abs(e.result.threshold - (op.threshold + lower) / 2) <= step / 2 + 1e-9


def test_score_name_labels_your_scores():
    y, s = scott_roc_example()
    e = ROCExplorer(y_true=y, scores=-s, score_name="−(SVM score)")
    assert e.ax_scores.get_xlabel() == "−(SVM score)"
    assert e._summary(e.result).startswith("−(SVM score): ") and "your data" not in e._summary(e.result)
    assert ROCExplorer(y_true=y, scores=s).ax_scores.get_xlabel() == "score (your data)"
    with pytest.raises(TypeError, match="score_name"):
        ROCExplorer(score_name="mine")                       # no scores of yours to name
    with pytest.raises(TypeError, match="score_name"):
        ROCExplorer(y_true=y, scores=s, score_name="")


def test_pictures_after_switches_equal_fresh_ones():
    # axes, legends and texts are pasted from stamps: the pixels must be what a fresh explorer draws
    e = ROCExplorer(source="scott")
    for values in (dict(hull=True), dict(iso_cost=True, cost_fn=5.0), dict(threshold=0.3), dict(view="pr"),
                   dict(view="roc", hull=False), dict(iso_cost=False, threshold=0.5), dict(threshold=1.0)):
        e.set(**values)
        fresh = ROCExplorer(**{name: value for name, value in e.state.items() if name != "seed"})
        assert e.image == fresh.image, values


def test_legend_draws_the_lines_just_switched_on():
    e = ROCExplorer()
    e.controls["iso_cost"].value = True
    assert all(handle.get_visible() for handle in e.ax_curve.get_legend().legend_handles)


# --- extreme thresholds: the legend lists what is drawn, the words say what is undefined ---------

def _drawn_in_the_curve_panel(e):
    """Labels of the curve panel's lines that are visible and hold data."""
    return [line.get_label() for line in e.ax_curve.lines
            if line.get_visible() and len(line.get_xdata()) and not line.get_label().startswith("_")]


def test_precision_undefined_no_dot_no_legend_entry_and_the_words_say_why():
    e = ROCExplorer(source="breast_cancer", view="pr", threshold=0.95)
    cm = e.result.confusion
    assert cm.tp + cm.fp == 0
    assert len(e.point.get_xdata()) == 0                     # nothing drawn for the current threshold,
    assert _legend(e) == ["precision-recall points (steps; area = AP)"]  # so the legend does not list it
    assert e.result.point is None
    assert "precision undefined" in e.curve_title.get_text() and "TP + FP = 0" in e.curve_title.get_text()
    summary = e._summary(e.result)
    assert "precision undefined (no example is predicted positive" in summary
    assert "No current point is marked on the precision-recall curve" in summary
    e.controls["threshold"].value = 0.5                       # back to a defined precision: dot and entry return
    assert e.result.point is not None and len(e.point.get_xdata()) == 1
    assert _legend(e) == ["precision-recall points (steps; area = AP)", "current threshold"]
    assert "undefined" not in e.curve_title.get_text() and "undefined" not in e._summary(e.result)


@pytest.mark.parametrize("source", ["scott", "fawcett", "breast_cancer", "wine"])
@pytest.mark.parametrize("view", ["roc", "pr"])
def test_legend_and_summary_match_the_picture_at_both_ends(source, view):
    e = ROCExplorer(source=source, view=view)
    for position in (0.0, 1.0, 0.5):
        e.controls["threshold"].value = position
        assert sorted(_legend(e)) == sorted(_drawn_in_the_curve_panel(e)), position
        cm, summary = e.result.confusion, e._summary(e.result)
        if cm.tp + cm.fp == 0:
            assert "precision undefined (no example is predicted positive" in summary
            assert e.rates[3].get_text() == "undefined"
        else:
            assert f"precision {cm.precision:.3f}" in summary
        # the ROC point exists at every threshold; the precision-recall point only with a predicted positive
        assert (len(e.point.get_xdata()) == 0) == (view == "pr" and cm.tp + cm.fp == 0)


def test_threshold_line_does_not_cover_a_dot():
    # the dots are drawn after the line: a dot the line passes through stays whole (Scott's x6, -2.75)
    e = ROCExplorer(source="scott")
    lo, hi = ROCExplorer.score_range(e.result.data)
    e.controls["threshold"].value = round((-2.75 - lo) / (hi - lo) / 0.005) * 0.005
    e.image  # noqa: B018 - render
    y, s = e.result.data.y, e.result.data.scores
    k = int(np.flatnonzero(np.isclose(s, -2.75))[0])
    dots = e.pos_dots if y[k] == 1 else e.neg_dots
    row = int(np.flatnonzero(np.isclose(s[y == y[k]], -2.75))[0])
    x_dot, y_dot = dots.get_offset_transform().transform(dots.get_offsets()[row])
    x_line = e.ax_scores.transData.transform((e.result.threshold, 0))[0]
    assert abs(x_line - x_dot) < 3                                # the line runs through the dot
    pixels = np.asarray(e.figure.canvas.buffer_rgba())
    height = pixels.shape[0]
    r, g, b, _ = pixels[int(round(height - y_dot)), int(round(x_line))]
    assert not (r < 60 and g < 60 and b < 60), "the threshold line is drawn over the dot"
    assert e._dynamic.index(e.threshold_line) < min(e._dynamic.index(e.pos_dots), e._dynamic.index(e.neg_dots))


def test_an_undefined_precision_explains_the_curve_start_f1_and_names_the_positive_class():
    e = ROCExplorer(source="breast_cancer", view="pr", threshold=0.95, seed=0)
    cm = e.result.confusion
    assert cm.tp + cm.fp == 0
    summary = e._summary(e.result)
    assert "predicting positive (malignant)" in summary
    assert "no example is predicted positive, i.e. malignant, so" in summary
    assert "F1 = 2TP/(2TP+FP+FN) = 0." in summary
    assert "The curve's first point, (recall 0, precision 1), is a drawing convention" in summary
    assert "drawing convention" in e.curve_title.get_text()
    assert e.f1_note.get_text() == "F1 = 2TP/(2TP+FP+FN) = 0"
    # the note comes and goes without moving the panels
    e.set(threshold=0.5)
    assert e.f1_note.get_text() == "" and "F1 =" not in e._summary(e.result)
    assert "drawing convention" not in e.curve_title.get_text()


def test_default_state_summary_is_unchanged_in_substance():
    e = ROCExplorer()
    summary = e._summary(e.result)
    assert summary.startswith("Scott's SVM table (10 examples): predicting positive when")
    assert "F1" not in summary and e.f1_note.get_text() == ""
