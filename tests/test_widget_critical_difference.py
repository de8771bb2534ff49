"""CriticalDifferenceExplorer: ranks, CD and sign test equal evalteach.stats; Demsar's example."""
import numpy as np
import pytest
from scipy import stats as st

from evalteach.example_scores import DEMSAR_AUC
from evalteach.stats import friedman_test, nemenyi_cd, sign_test
from evalteach.widgets.critical_difference import CriticalDifferenceExplorer, cd_groups
from explorer_contract import check_contract

TABLE = [[0.90, 0.80, 0.70], [0.85, 0.80, 0.60], [0.70, 0.75, 0.60], [0.88, 0.81, 0.79],
         [0.91, 0.84, 0.83], [0.77, 0.70, 0.72]]


def test_contract_defaults():
    check_contract(CriticalDifferenceExplorer, sweep=20)


def test_contract_on_a_table_of_your_own():
    check_contract(CriticalDifferenceExplorer, sweep=10, scores=TABLE, algorithms=["tree", "nb", "knn"],
                   a="nb", alpha=0.1)


def test_numbers_shown_equal_the_stats_functions():
    e = CriticalDifferenceExplorer(alpha=0.1, a="C4.5+m", b="C4.5+cf")
    r = e.result
    f = friedman_test(DEMSAR_AUC)
    np.testing.assert_array_equal(r.friedman.average_ranks, f.average_ranks)
    assert r.friedman.statistic == f.statistic and r.friedman.iman_davenport == f.iman_davenport
    assert r.cd.cd == nemenyi_cd(4, 14, alpha=0.1).cd
    d = DEMSAR_AUC[:, 1] - DEMSAR_AUC[:, 2]
    expected = sign_test(int((d > 0).sum()), int((d < 0).sum()), int((d == 0).sum()), confidence=0.9)
    assert (r.sign.wins, r.sign.losses, r.sign.ties, r.sign.p_value) == (
        expected.wins, expected.losses, expected.ties, expected.p_value)
    assert f"{r.cd.cd:.3f}" in e._summary(r)
    # Independent reference: scipy's Friedman statistic is the tie-corrected value.
    assert r.friedman.other_statistic == pytest.approx(st.friedmanchisquare(*DEMSAR_AUC.T).statistic)


def test_demsar_worked_example_is_reproduced():
    # Demsar (2006), section 3.2.2: the explorer opens on Table 6 and shows the paper's numbers.
    e = CriticalDifferenceExplorer()
    f = e.result.friedman
    assert np.round(f.average_ranks, 3).tolist() == [3.143, 2.000, 2.893, 1.964]
    assert round(f.statistic, 2) == 9.28 and round(f.iman_davenport, 2) == 3.69
    assert e.result.cd.cd == pytest.approx(1.25, abs=5e-3)
    summary = e._summary(e.result)
    assert "C4.5+cf 2.893" in summary and "chi-square 9.279" in summary and "F 3.686" in summary
    # mushroom is a full tie: the summary gives the tie-corrected value too
    assert f"chi-square is {st.friedmanchisquare(*DEMSAR_AUC.T).statistic:.3f}" in summary


def test_lower_is_better_reverses_the_ranks():
    e = CriticalDifferenceExplorer(higher_is_better=False)
    np.testing.assert_allclose(e.result.friedman.average_ranks,
                               5 - friedman_test(DEMSAR_AUC).average_ranks)
    default = CriticalDifferenceExplorer().result.sign
    assert (e.result.sign.wins, e.result.sign.losses) == (default.losses, default.wins)


def test_groups_join_ranks_closer_than_cd():
    ranks = np.array([1.0, 1.5, 2.4, 3.0, 3.9])
    assert cd_groups(ranks, 1.0) == ((0, 1), (1, 2), (2, 3), (3, 4))
    assert cd_groups(ranks, 1.6) == ((0, 1, 2), (1, 2, 3), (2, 3, 4))
    assert cd_groups(ranks, 0.1) == ()
    assert cd_groups(ranks, 10.0) == ((0, 1, 2, 3, 4),)
    # Every pair in a group is closer than CD; pairs not sharing a group are not.
    for cd in (0.55, 0.95, 1.6):
        groups = cd_groups(ranks, cd)
        for i in range(5):
            for j in range(i + 1, 5):
                together = any(i in g and j in g for g in groups)
                assert together == (abs(ranks[i] - ranks[j]) < cd)


def test_bad_tables_are_refused():
    with pytest.raises(ValueError, match="scores"):
        CriticalDifferenceExplorer(scores=[[0.9, 0.8]])
    with pytest.raises(ValueError, match="algorithms"):
        CriticalDifferenceExplorer(scores=TABLE, algorithms=["a", "b"])
    with pytest.raises(TypeError, match="datasets"):
        CriticalDifferenceExplorer(scores=TABLE, datasets="abc")


def texts_outside_the_figure(e):
    """Visible titles and texts (not tick labels) whose extent crosses the figure edge."""
    import matplotlib.text as mtext

    e.image  # render
    fig = e.figure
    renderer = fig.canvas.get_renderer()
    ticks = {t for ax in fig.axes for t in ax.get_xticklabels() + ax.get_yticklabels()}
    out = []
    for t in fig.findobj(mtext.Text):
        if t in ticks or not t.get_visible() or not t.get_text().strip():
            continue
        box = t.get_window_extent(renderer)
        if box.x0 < -0.5 or box.y0 < -0.5 or box.x1 > fig.bbox.width + 0.5 or box.y1 > fig.bbox.height + 0.5:
            out.append(t.get_text())
    return out


@pytest.mark.parametrize("a, b", [("C4.5", "C4.5+m+cf"), ("C4.5+m+cf", "C4.5+cf")])
def test_presenter_mode_keeps_titles_inside_the_figure(a, b):
    import evalteach as et

    e = CriticalDifferenceExplorer(a=a, b=b)
    assert texts_outside_the_figure(e) == []
    try:
        et.presenter()  # restyles the explorer already on screen
        scale = et.plotting.theme().figure_scale
        assert tuple(e.figure.get_size_inches()) == (10.0 * scale, 4.6 * scale)
        assert texts_outside_the_figure(e) == []
        assert texts_outside_the_figure(CriticalDifferenceExplorer(a=a, b=b, alpha=0.01)) == []
    finally:
        et.presenter(False)


def test_the_sign_test_verdict_says_what_it_is_worth_among_all_pairs():
    e = CriticalDifferenceExplorer(a="C4.5", b="C4.5+m+cf", seed=0)
    s = e.result.sign
    assert (s.wins, s.losses, s.ties) == (2, 11, 1)
    assert s.p_value == pytest.approx(st.binomtest(2, 13).pvalue)  # the tie dropped: 2 of 13
    # 0.0225 < 0.05, but four algorithms make six pairs: Bonferroni asks for 0.05/6
    assert 0.05 / 6 < s.p_value < 0.05
    assert e.pair_title.get_text().endswith(
        "significant only if planned alone;\nnot below Bonferroni's α/6 = 0.0083")
    assert ("2 wins, 11 losses, 1 tie, p = 0.0225: significant at α = 0.05 only if this pair was the single "
            "comparison planned in advance; not below Bonferroni's α/6 = 0.0083 for the 6 pairs.") in e._summary_text
    assert "{C4.5+m+cf, C4.5+m, C4.5+cf, C4.5}" in e._summary_text  # not told apart, not "="
    e.set(b="C4.5+m")  # 2 of 14 with no ties: p = 0.057
    assert e.pair_title.get_text().endswith("not significant at α = 0.05")
    assert e.figure.axes[1].get_xlabel() == "AUC of A − AUC of B"  # Demsar's table holds AUCs


def test_a_pair_below_the_bonferroni_level_is_significant_also_after_it():
    scores = np.column_stack([np.linspace(0.7, 0.9, 12), np.linspace(0.6, 0.8, 12), np.linspace(0.65, 0.85, 12)])
    e = CriticalDifferenceExplorer(scores=scores, a="A1", b="A2", seed=0)
    assert e.result.sign.p_value == pytest.approx(2 * 0.5 ** 12) and e.result.sign.p_value < 0.05 / 3
    assert e.pair_title.get_text().endswith("significant also over all 3 pairs:\nbelow Bonferroni's α/3 = 0.017")
    assert e.figure.axes[1].get_xlabel() == "score of A − score of B"
    two = CriticalDifferenceExplorer(scores=scores[:, :2], a="A1", b="A2", seed=0)
    assert two.pair_title.get_text().endswith("\nsignificant at α = 0.05")  # one pair: nothing to correct


def test_a_longer_verdict_after_a_shorter_one_keeps_the_pair_title_inside_the_figure():
    """Opened on a pair whose verdict is one line, then switched to one of two lines: the
    title's first line (which pair) was cut off at the figure's top."""
    e = CriticalDifferenceExplorer(a="C4.5", b="C4.5+m", seed=0)
    assert e.pair_title.get_text().count("\n") == 4  # always five lines
    e.set(b="C4.5+m+cf")
    assert e.pair_title.get_text().startswith("A = C4.5 against B = C4.5+m+cf\n")
    e.figure.canvas.draw()
    box = e.pair_title.get_window_extent()
    assert e.figure.bbox.y0 <= box.y0 and box.y1 <= e.figure.bbox.y1
    from matplotlib.colors import same_color

    from evalteach.plotting import COLORS
    assert same_color(e.bars[0].get_facecolor(), COLORS["bad"])  # adult (sample): A loses, orange
    assert not same_color(e.cd_bar.get_color(), COLORS["bad"])   # so the CD bar is another colour
