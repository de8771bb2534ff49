"""The class's answers drawn as HTML bars: one row per option, or per range of numbers, and
one column per round, so the first vote and the vote after discussion sit side by side.

Plain HTML (no picture): it is crisp at any zoom, a screen reader reads its numbers, and the
instructor's kernel redraws it every few seconds for almost nothing.
"""
from __future__ import annotations

import html
import math
from typing import NamedTuple

import numpy as np

from .. import plotting
from .._result import pct

__all__ = ["Tally", "tally", "to_html", "answer_text", "MAX_VALUE_ROWS", "BINS"]

#: Numbers with at most this many different values get a row each; more are binned.
MAX_VALUE_ROWS = 8
#: Equal-width bins for many different numbers.
BINS = 8
#: The longest answer the service takes.
LONGEST = 200


def answer_text(value):
    """What is sent for an answer: an option's text (at most 200 characters) or a number
    with six significant figures, so equal numbers count together."""
    if isinstance(value, str):
        return value if len(value) <= LONGEST else value[:LONGEST - 1] + "…"
    return f"{float(value):.6g}"


class Tally(NamedTuple):
    """Counts per row and round. ``row_of(answer)`` is the row an answer (an option's text or
    a number) falls in, or None."""

    labels: list
    rounds: list
    counts: np.ndarray  # shape (rows, rounds)
    row_of: object


def tally(rounds, options=None):
    """Count the service's ``rounds`` (``{"1": {"n", "answers": {text: count}}, ...}``) per row.

    With ``options``, one row per option in their order. Without, the answers are numbers: one
    row per value if there are at most :data:`MAX_VALUE_ROWS` values, else :data:`BINS`
    equal-width bins from the smallest to the largest (as :func:`numpy.histogram`: a bin holds
    its left edge, the last one both). A row "other" counts answers that fit no row.
    """
    names = sorted(rounds, key=int)
    answers = [rounds[r].get("answers", {}) for r in names]
    if options is not None:
        labels, row_of = _option_rows(options)
    else:
        labels, row_of = _number_rows({_number(a) for given in answers for a in given} - {None})
    counts = np.zeros((len(labels) + 1, len(names)), dtype=int)  # the last row: other
    for j, given in enumerate(answers):
        for text, k in given.items():
            row = row_of(text)
            counts[len(labels) if row is None else row, j] += k
    if counts[-1].any():
        return Tally([*labels, "other"], names, counts, row_of)
    return Tally(labels, names, counts[:-1], row_of)


def _option_rows(options):
    index = {answer_text(o): i for i, o in enumerate(options)}
    return list(options), lambda answer: None if answer is None else index.get(answer_text(answer))


def _number_rows(values):
    values = sorted(values)
    if len(values) <= MAX_VALUE_ROWS:
        index = {x: i for i, x in enumerate(values)}
        return [f"{x:.4g}" for x in values], lambda answer: index.get(_number(answer))
    edges = np.linspace(values[0], values[-1], BINS + 1)
    labels = [f"{lo:.3g} to {hi:.3g}" for lo, hi in zip(edges[:-1], edges[1:])]
    return labels, lambda answer: _bin(edges, _number(answer))


def _number(answer):
    """A numeric answer (a number, or the text the service keeps) as the float it counts as."""
    if answer is None:
        return None
    try:
        x = float(answer if isinstance(answer, str) else answer_text(answer))
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def _bin(edges, x):
    if x is None or not edges[0] <= x <= edges[-1]:
        return None
    return min(int(np.searchsorted(edges, x, side="right")) - 1, len(edges) - 2)


def to_html(t, *, correct=None, mine=None):
    """The bars of a :class:`Tally`: ``correct`` (the right answer) and ``mine`` (the student's)
    are marked in words and colour when given."""
    size = plotting.theme().control_font
    right, yours = t.row_of(correct), t.row_of(mine)
    n = t.counts.sum(axis=0)
    head = "".join(f"<th style='text-align:left;padding:0 1em 0 0'>Round {r} ({k} answer{'' if k == 1 else 's'})</th>"
                   for r, k in zip(t.rounds, n))
    rows = []
    for i, label in enumerate(t.labels):
        marks = []
        if right is not None and i == right:
            marks.append(f"<b style='color:{plotting.PALETTE['green']}'>✓ right answer</b>")
        if yours is not None and i == yours:
            marks.append("<b>← your answer</b>")
        color = plotting.PALETTE["green"] if right is not None and i == right else plotting.PALETTE["blue"]
        cells = "".join(_bar(k, total, color) for k, total in zip(t.counts[i], n))
        rows.append(f"<tr><td style='padding:0 1em 0 0'>{html.escape(label)} {' '.join(marks)}</td>{cells}</tr>")
    return (f"<table class='evalteach-poll-bars' style='font-size:{size};border-collapse:collapse'>"
            f"<tr><th></th>{head}</tr>{''.join(rows)}</table>")


def _bar(k, total, color):
    share = k / total if total else 0.0
    width = 10 * share  # em: a whole round's answers in one row is 10em wide
    text = f"{k} ({pct(share)})" if total else "0"
    return (f"<td style='padding:2px 1em 2px 0;white-space:nowrap'>"
            f"<span style='display:inline-block;width:{width:.2f}em;height:0.9em;background:{color};"
            f"vertical-align:middle'></span> {text}</td>")
