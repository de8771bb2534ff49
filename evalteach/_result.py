"""Result objects that teach.

Every interval or test in :mod:`evalteach.stats` returns a small frozen dataclass
built with :func:`result`. Its plain ``repr`` is one short line; its rich display
(``_repr_markdown_`` with LaTeX, rendered as math by JupyterLab, Notebook, Colab
and VS Code) shows the worked computation: the formula, the same formula with the
numbers put in, and a one-sentence verdict.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Explanation:
    """What a result's rich display shows.

    Parameters
    ----------
    title : str
        A heading, e.g. ``"Paired t-test"``.
    formulas : list of str
        LaTeX display equations, in general form.
    steps : list of str
        LaTeX display equations with this result's numbers substituted.
    verdict : str
        One plain sentence (Markdown; inline math allowed).
    """

    title: str
    formulas: list = field(default_factory=list)
    steps: list = field(default_factory=list)
    verdict: str = ""


def result(cls):
    """Class decorator: a frozen dataclass with the short ``repr`` of :class:`Result`."""
    return dataclass(frozen=True, repr=False, eq=False)(cls)


def fmt(x, digits=4):
    """Format a number for display: ``digits`` significant figures, ints as ints."""
    if x is None:
        return "—"
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    x = float(x)
    if np.isnan(x):
        return "nan"
    if np.isinf(x):
        return r"\infty" if x > 0 else r"-\infty"
    if x != 0 and (abs(x) < 1e-4 or abs(x) >= 1e6):
        mantissa, exponent = f"{x:.{digits - 1}e}".split("e")
        return rf"{mantissa} \times 10^{{{int(exponent)}}}"
    return f"{x:.{digits}g}"


def pct(p, digits=3):
    """A fraction as a percentage: 0.95 -> '95%', 0.975 -> '97.5%'.

    A fraction strictly between 0 and 1 never reads as 0% or 100%: more digits are shown
    instead (0.99996 -> '99.996%'), since "100%" would claim certainty.
    """
    x = 100 * float(p)
    text = f"{x:.{digits}g}"
    while 0 < x < 100 and float(text) in (0.0, 100.0) and digits < 10:
        digits += 1
        text = f"{x:.{digits}g}"
    return f"{text}%"


#: Significance levels a reader compares a printed p with.
_COMMON_ALPHAS = (0.1, 0.05, 0.01)


def p_text(p):
    """A p-value the way papers report it: 'p = 0.0312', 'p = 0.500', 'p < 0.001', 'p > 0.999'.

    Three significant figures, trailing zeros kept (0.312 prints as 0.312, 0.5 as
    0.500), and more figures where three would put the printed value on the other side
    of a common level (0.1, 0.05, 0.01) than the p itself, or exactly on it: 0.04996
    prints as 0.04996, not 0.0500, which would contradict "significant at the 5%
    level"; 0.1002 as 0.1002, not 0.100, which reads as reaching the 10% level.
    """
    p = float(p)
    if p < 0.001:
        return "p < 0.001"
    if 0.999 < p < 1:
        return "p > 0.999"
    for digits in range(3, 8):
        text = f"{p:#.{digits}g}"
        shown = float(text)
        # on the same side of every level, and not printed as a level it only rounds to
        # (0.1002 as "0.100" reads as "p <= 0.10")
        if all((shown < a) == (p < a) and (shown != a or p == a) for a in _COMMON_ALPHAS):
            break
    return f"p = {text}"


def _short(value):
    if isinstance(value, float) or isinstance(value, np.floating):
        return f"{float(value):.4g}"
    if isinstance(value, np.ndarray):
        if value.size <= 6:
            return np.array2string(value, precision=4, separator=", ")
        return f"array(shape={value.shape})"
    if isinstance(value, (list, tuple)) and len(value) > 6:
        return f"{type(value).__name__}(len={len(value)})"
    return repr(value)


class Result:
    """Base class of every result; subclasses implement :meth:`_explain`."""

    def _explain(self) -> Explanation:  # pragma: no cover - every subclass overrides
        raise NotImplementedError

    @property
    def verdict(self) -> str:
        """One sentence saying what the numbers mean."""
        return self._explain().verdict

    def __repr__(self):
        shown = [f for f in dataclasses.fields(self) if f.repr]
        inner = ", ".join(f"{f.name}={_short(getattr(self, f.name))}" for f in shown)
        return f"{type(self).__name__}({inner})"

    def _repr_markdown_(self):
        e = self._explain()
        parts = [f"**{e.title}**", ""]
        for eq in list(e.formulas) + list(e.steps):
            parts += [f"$${eq}$$", ""]
        if e.verdict:
            parts.append(e.verdict)
        return "\n".join(parts)
