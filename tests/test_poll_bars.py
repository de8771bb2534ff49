"""The class's answers as bars: counts per option or per range of numbers, checked against
numpy's histogram, and the marks for the right answer and the student's own."""
import re

import numpy as np
import pytest

from evalteach.poll import bars


def rounds_of(*answer_lists):
    """The service's ``rounds`` for lists of answers, one list per round."""
    out = {}
    for r, answers in enumerate(answer_lists, start=1):
        counts = {}
        for a in answers:
            counts[a] = counts.get(a, 0) + 1
        out[str(r)] = {"n": len(answers), "answers": counts}
    return out


def test_options_count_in_their_order_with_a_row_for_anything_else():
    t = bars.tally(rounds_of(["b", "a", "b", "zzz"], ["b", "b", "c"]), options=["a", "b", "c"])
    assert t.labels == ["a", "b", "c", "other"] and t.rounds == ["1", "2"]
    assert t.counts.tolist() == [[1, 0], [2, 2], [0, 1], [1, 0]]
    assert t.row_of("c") == 2 and t.row_of("zzz") is None and t.row_of(None) is None


def test_rounds_are_ordered_as_numbers():
    t = bars.tally({"10": {"answers": {"a": 1}}, "2": {"answers": {"a": 3}}}, options=["a", "b"])
    assert t.rounds == ["2", "10"] and t.counts.tolist() == [[3, 1], [0, 0]]


def test_a_long_option_is_counted_under_the_text_that_was_sent():
    long = "x" * 250
    sent = bars.answer_text(long)
    assert len(sent) == 200 and sent.endswith("…")
    t = bars.tally(rounds_of([sent, sent]), options=[long, "short"])
    assert t.counts[:, 0].tolist() == [2, 0] and t.row_of(long) == 0


def test_few_numbers_get_a_row_each():
    answers = [bars.answer_text(x) for x in (0.3, 0.25, 0.3, 1 / 3, 0.3)]
    t = bars.tally(rounds_of(answers, ["0.3", "oops"]))
    assert t.labels == ["0.25", "0.3", "0.3333", "other"]
    assert t.counts.tolist() == [[1, 0], [3, 1], [1, 0], [0, 1]]
    assert t.row_of(0.3) == 1 and t.row_of(1 / 3) == 2 and t.row_of(0.31) is None


@pytest.mark.parametrize("seed", range(5))
def test_many_numbers_are_binned_as_numpy_histogram_bins_them(seed):
    rng = np.random.default_rng(seed)
    first = rng.normal(0.3, 0.1, size=60).round(3)
    second = rng.normal(0.25, 0.05, size=45).round(3)
    t = bars.tally(rounds_of([bars.answer_text(x) for x in first], [bars.answer_text(x) for x in second]))
    both = np.concatenate([first, second])
    edges = np.linspace(both.min(), both.max(), bars.BINS + 1)
    assert t.counts[:, 0].tolist() == np.histogram(first, bins=edges)[0].tolist()
    assert t.counts[:, 1].tolist() == np.histogram(second, bins=edges)[0].tolist()
    assert len(t.labels) == bars.BINS and t.labels[0].startswith(f"{both.min():.3g} to ")
    for x in (both.min(), both.max(), float(np.median(both))):  # the same bin numpy puts it in
        assert t.row_of(x) == int(np.flatnonzero(np.histogram([x], bins=edges)[0])[0])
    assert t.row_of(both.max() + 1) is None


def test_html_shows_counts_shares_and_marks_in_words():
    t = bars.tally(rounds_of(["a", "b", "b", "c"], ["b", "b", "b"]), options=["a", "b", "c"])
    page = bars.to_html(t)
    assert "Round 1 (4 answers)" in page and "Round 2 (3 answers)" in page
    assert "2 (50%)" in page and "3 (100%)" in page and "1 (25%)" in page
    assert "right answer" not in page and "your answer" not in page
    marked = bars.to_html(t, correct="b", mine="a")
    rows = re.findall(r"<tr><td[^>]*>(.*?)</td>", marked)
    assert "✓ right answer" in rows[1] and "your answer" in rows[0] and "answer" not in rows[2]


def test_an_empty_round_draws_without_dividing_by_zero():
    page = bars.to_html(bars.tally({"1": {"n": 2, "answers": {"a": 2}}, "2": {"n": 0, "answers": {}}},
                                   options=["a", "b"]))
    assert "Round 2 (0 answers)" in page and "2 (100%)" in page
