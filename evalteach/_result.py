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

# The number formats live in _format; the explorers and simulations import them from here too.
from ._format import fmt, p_text, pct  # noqa: F401


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
