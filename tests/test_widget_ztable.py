"""ZTableExplorer: look-ups equal evalteach.stats, the right cell is highlighted."""
import numpy as np
import pytest
from scipy import stats as st

from evalteach import stats
from evalteach.widgets import ZTableExplorer
from explorer_contract import check_contract


def test_contract_with_defaults():
    # the contract switches to the z -> confidence look-up first; the confidence slider is
    # then unused until the look-up is switched back (tested below)
    check_contract(ZTableExplorer, unchanged_ok=("confidence",))


def test_contract_looking_up_z():
    # here the look-up turns to confidence -> z first, which leaves the z slider unused
    check_contract(ZTableExplorer, sweep=40, unchanged_ok=("z",), lookup="z", z=2.0, sided="one")


def test_95_two_sided_is_196_in_the_95_column():
    e = ZTableExplorer(confidence=0.95)
    r = e.result
    assert r.z == stats.z_critical(0.95) == pytest.approx(1.959964, abs=1e-6)
    assert r.cell == ("two", 4) and r.table_z == 1.96
    assert r.two_sided == pytest.approx(0.95) and r.one_sided == pytest.approx(0.975)
    assert "1.9600" in e.headline.get_text()
    assert e.highlight.get_visible() and e.highlight.get_x() == pytest.approx(4 + 1.62)
    assert e.highlight.get_y() == pytest.approx(0.52)  # the z_N row, below the header


def test_one_sided_conversion_90_to_95():
    r = ZTableExplorer(confidence=0.90).result
    assert r.one_sided == pytest.approx(stats.one_sided_confidence(0.90)) == pytest.approx(0.95)
    one = ZTableExplorer(confidence=0.95, sided="one")
    assert one.result.z == pytest.approx(r.z) == pytest.approx(st.norm.ppf(0.95))
    assert one.result.cell == ("one", 4) and one.result.table_z == 1.64
    assert one.highlight.get_y() == pytest.approx(1.52)  # the one-sided z'_N row
    assert one.result.two_sided == pytest.approx(0.90)
    assert "C = 90%" in one.headline.get_text()


def test_z_to_confidence_reads_the_table_like_the_slides():
    e = ZTableExplorer(lookup="z", z=2.0)
    r = e.result
    assert r.confidence == pytest.approx(stats.confidence_for_z(2.0)) == pytest.approx(st.norm.cdf(2) - st.norm.cdf(-2))
    assert r.table_level == stats.table_confidence(2.0) == 0.95 and r.cell == ("two", 4)
    e.controls["sided"].value = "one"
    r = e.result
    assert r.confidence == pytest.approx(st.norm.cdf(2.0))
    # one-sided, the table is read on its one-sided row z'_N: 2.00 reaches z'_95 = 1.64
    assert r.cell == ("one", 4) and r.table_z == 1.64 and r.table_level == 0.95
    assert e.highlight.get_y() == pytest.approx(1.52)
    assert "1.64, the 95% column of the one-sided row" in e.reading.get_text()
    assert "at least 95%" in e.reading.get_text()


@pytest.mark.parametrize("level, z", list(zip(stats.z_table().levels, stats.z_table().two_sided)))
def test_every_column_highlights_its_cell(level, z):
    r = ZTableExplorer(confidence=level).result
    col = stats.z_table().levels.index(level)
    assert r.cell == ("two", col) and r.table_z == z
    assert r.z == pytest.approx(z, abs=0.01)  # the printed table rounds (68% prints 1.00)


def test_between_columns_and_below_the_table_no_cell_is_highlighted():
    e = ZTableExplorer(confidence=0.93)
    assert e.result.cell is None and not e.highlight.get_visible()
    assert e.result.z == pytest.approx(st.norm.ppf(0.965))
    e.set(lookup="z", z=0.3)
    assert e.result.cell is None and e.result.table_level == 0.0
    assert "below 0.67" in e.reading.get_text()


def test_shaded_area_is_the_two_sided_level():
    e = ZTableExplorer(confidence=0.80)
    xy = e.centre.get_xy()
    x = xy[1:-1, 0]
    assert x.min() == pytest.approx(-e.result.z) and x.max() == pytest.approx(e.result.z)
    area = np.trapezoid(xy[1:-1, 1], x)
    assert area == pytest.approx(0.80, abs=2e-3)
    tail = e.tail.get_xy()
    assert np.trapezoid(tail[1:-1, 1], tail[1:-1, 0]) == pytest.approx(0.10, abs=2e-3)  # + (1 - C)/2


def test_each_look_up_shows_only_the_slider_it_reads():
    e = ZTableExplorer()
    assert e._hidden(e.state) == {"z"}
    before = e.image
    e.controls["z"].value = 2.5  # unused in confidence -> z
    assert e.image == before
    e.controls["lookup"].value = "z"
    assert e._hidden(e.state) == {"confidence"}
    before = e.image
    e.controls["confidence"].value = 0.6  # unused in z -> confidence
    assert e.image == before


def test_one_sided_shades_the_excluded_upper_tail_and_keeps_everything_below_z():
    from matplotlib.colors import to_rgb
    from evalteach.plotting import COLORS

    e = ZTableExplorer(confidence=0.95, sided="one")
    z = e.result.z
    tail, kept = e.tail.get_xy(), e.centre.get_xy()
    assert tail[:, 0].min() == pytest.approx(z) and tail[:, 0].max() > 3.5  # the upper tail, above z
    assert kept[:, 0].max() == pytest.approx(z) and kept[:, 0].min() < -3.5  # all the area below z
    assert to_rgb(e.tail.get_facecolor()) == pytest.approx(to_rgb(COLORS["bad"]))
    assert not e.minus.get_visible()  # no line at -z: a one-sided bound has one end
    assert "excluded" in e.right_text.get_text() and "C' = 95%" == e.centre_text.get_text()
    e.controls["sided"].value = "two"  # two-sided: both lines, the centre between them
    assert e.minus.get_visible() and e.centre.get_xy()[:, 0].min() == pytest.approx(-1.96, abs=1e-3)


# --- one-sided mode and the table's edges: every sentence names the row that applies ------------

EDGES = [dict(lookup="z", z=0.0), dict(lookup="z", z=3.5), dict(lookup="confidence", confidence=0.5),
         dict(lookup="confidence", confidence=0.995)]


@pytest.mark.parametrize("sided", ["one", "two"])
@pytest.mark.parametrize("values", EDGES, ids=lambda v: f"{v['lookup']}={v.get('z', v.get('confidence'))}")
def test_no_text_over_the_curve_or_the_bounds_at_the_edges(values, sided, monkeypatch):
    # z = 0 put "C' = 50%" across the curve's outline (one-sided) and "C = 0%" on the bound (two-sided)
    from test_text_overlap import clutter

    e = ZTableExplorer(sided=sided, **values)
    assert clutter(e.figure, monkeypatch) == []


@pytest.mark.parametrize("z", [0.0, 0.2, 0.3, 0.5, 0.66, 1.0, 1.3, 2.0, 2.4, 3.5])
def test_one_sided_z_look_up_reads_the_one_sided_row(z):
    e = ZTableExplorer(lookup="z", z=z, sided="one")
    r = e.result
    row = stats.z_table().one_sided
    col = max(j for j, printed in enumerate(row) if printed <= z)  # z'_50 = 0.00: every z >= 0 reaches a column
    assert r.cell == ("one", col) and r.table_level == stats.z_table().levels[col]
    assert r.table_level <= r.confidence + 1e-9  # the table's level is a lower bound of P(Z <= z)
    reading, summary = e.reading.get_text(), e._summary(r)
    for text in (reading, summary):
        assert "one-sided row" in text and "two-sided row" not in text.split("slides' route")[0]
        assert "less than 50%" not in text  # P(Z <= z) >= 50% for every z >= 0
        assert f"{row[col]:.2f}, the {stats.z_table().levels[col]:.0%} column" in text


def test_one_sided_z_0_is_the_50_percent_column():
    e = ZTableExplorer(lookup="z", z=0.0, sided="one")
    assert e.result.one_sided == e.result.confidence == 0.5
    assert e.result.cell == ("one", 0) and e.centre_text.get_text() == "C' = 50%"
    assert "the table gives 50%" in e.reading.get_text()
    assert "two-sided C = 0% plus the lower tail, 50%" in e.headline.get_text()


def test_two_sided_below_the_first_column():
    e = ZTableExplorer(lookup="z", z=0.3, sided="two")
    assert e.result.cell is None and e.result.table_level == 0.0
    assert "below 0.67, the 50% column of the two-sided row" in e.reading.get_text()
    assert "less than 50%" in e.reading.get_text()


def test_a_printed_z_rounded_down_is_not_called_at_least_its_level():
    # 0.67 is the printed z_50 (exactly 0.6745): it reaches the column, but covers only 49.7%
    e = ZTableExplorer(lookup="z", z=0.67, sided="two")
    assert e.result.cell == ("two", 0) and e.result.confidence < 0.5
    assert "at least" not in e.reading.get_text() and "0.6745 rounded down" in e.reading.get_text()


@pytest.mark.parametrize("sided, printed", [("two", 2.58), ("one", 2.33)])
def test_beyond_the_last_column_is_not_between_columns(sided, printed):
    e = ZTableExplorer(confidence=0.995, sided=sided)
    reading = e.reading.get_text() + " " + e.note.get_text()
    assert "beyond the last column (99%)" in reading and "Between columns" not in reading
    assert f"above {printed:.2f}" in reading and "beyond the last column" in e._summary(e.result)


def test_between_columns_names_the_bracketing_columns_of_the_row():
    e = ZTableExplorer(confidence=0.93, sided="one")
    assert "between the 90% and 95% columns" in e.reading.get_text()
    assert "one-sided row: 1.28 < z < 1.64" in e.reading.get_text()
    e.controls["sided"].value = "two"
    assert "two-sided row: 1.64 < z < 1.96" in e.reading.get_text()


@pytest.mark.parametrize("sided", ["one", "two"])
def test_no_level_short_of_100_percent_is_shown_as_100(sided):
    # at z = 3.5 the two-sided level is 99.95%: "C = 100%" would claim the whole curve
    e = ZTableExplorer(lookup="z", z=3.5, sided=sided)
    texts = [e.headline.get_text(), e.centre_text.get_text(), e.tail_text.get_text(), e.right_text.get_text(),
             e.reading.get_text(), e._summary(e.result)]
    assert not any("= 100%" in t or " 100%" in t.replace("100 - ", "") for t in texts), texts
    assert "99.95%" in e.headline.get_text()


def test_one_sided_reading_brackets_z_and_gives_the_slides_route_when_it_is_tighter():
    # z = 2.00: 1.64 <= z < 2.05 on the one-sided row; through the two-sided row (1.96, 95%)
    # the slides' conversion gives 97.5%, a tighter bound; the exact level is 97.72%
    e = ZTableExplorer(lookup="z", z=2.0, sided="one")
    text = e.reading.get_text()
    assert "at least 95%, below 98%" in text and "two-sided row 95% → C' at least 97.5%" in text
    assert stats.table_confidence(2.0, "one") == 0.975 <= e.result.confidence
    assert "slides' route" not in ZTableExplorer(lookup="z", z=0.5, sided="one").reading.get_text()
    assert "encloses 95.45% of the normal curve" in e._summary(e.result)
