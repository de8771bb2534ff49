"""Result objects that teach.

Every interval or test in :mod:`evalteach.stats` returns a small frozen dataclass
built with :func:`result`. Its plain ``repr`` is one short line; its rich display
(``_repr_markdown_`` with LaTeX, rendered as math by JupyterLab, Notebook, Colab
and VS Code) shows the worked computation: the formula, the same formula with the
numbers put in, and a one-sentence verdict.

What results share besides: :class:`WithPValue` and :class:`WithInterval` give tests and
intervals scipy's names (``pvalue``, ``confidence_interval()``); :func:`draws` makes a
result's ``plot`` draw with :mod:`evalteach.pictures`; the arrays a result holds are
read-only.
"""
from __future__ import annotations

import dataclasses
import functools
import importlib
import inspect
import re
from dataclasses import dataclass, field
from typing import NamedTuple

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


_PLOT_PARAMETER = """\
ax : matplotlib Axes or sequence of Axes, optional
    Where to draw: None makes a figure sized for a notebook cell (a
    :class:`~evalteach.pictures.ResultFigure`: a PNG at twice its on-screen pixels, the
    verdict as its text alternative); one Axes of a grid is divided into the picture's
    panels; or give one Axes per panel."""

_PLOT_RETURNS = """\
Returns
-------
matplotlib Axes
    The Axes drawn in (the first panel's, where the picture has several)."""


def _plot_doc(doc):
    """``doc`` with the parameter and the return value every ``plot`` shares put in."""
    doc = inspect.cleandoc(doc)
    if "\nParameters\n----------\n" in doc:
        doc = doc.replace("\nParameters\n----------\n", "\nParameters\n----------\n" + _PLOT_PARAMETER + "\n", 1)
        head, rest = doc.split("\nParameters\n----------\n", 1)
        # the Parameters section ends at the next section title
        match = re.search(r"\n\n(?=\w[\w ]*\n-+\n)", rest)
        end = match.start() if match else len(rest)
        return f"{head}\nParameters\n----------\n{rest[:end]}\n\n{_PLOT_RETURNS}{rest[end:]}"
    match = re.search(r"\n\n(?=\w[\w ]*\n-+\n)", doc)
    end = match.start() if match else len(doc)
    return f"{doc[:end]}\n\nParameters\n----------\n{_PLOT_PARAMETER}\n\n{_PLOT_RETURNS}{doc[end:]}"


def draws(module, picture):
    """Decorator for a result's ``plot`` method: it draws with ``evalteach.pictures.<module>.<picture>``
    (imported on the first call, so ``import evalteach`` loads no matplotlib, and the statistics
    never import the pictures at import time), and its docstring gains the ``ax`` parameter and
    the Axes returned, which every ``plot`` shares. The decorated method's body is not run: its
    signature and docstring say what the picture takes and shows."""
    def decorate(method):
        signature = inspect.signature(method)

        @functools.wraps(method)
        def plot(self, *args, **kwargs):
            bound = signature.bind(self, *args, **kwargs)
            bound.apply_defaults()
            options = {name: value for name, value in bound.arguments.items() if name != "self"}
            draw = getattr(importlib.import_module(f"evalteach.pictures.{module}"), picture)
            return draw(self, **options)

        plot.__doc__ = _plot_doc(method.__doc__)
        return plot
    return decorate


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
    """Base class of every result; subclasses implement :meth:`_explain`.

    A result is frozen, and so are the arrays it holds: they are read-only views, so no
    one changes a number after the display has shown it.
    """

    def __post_init__(self):
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, np.ndarray) and value.flags.writeable:
                view = value.view()  # the caller's own array stays writeable
                view.flags.writeable = False
                object.__setattr__(self, f.name, view)

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


class ConfidenceInterval(NamedTuple):
    """An interval's ends, with the shape of scipy's ``ConfidenceInterval``: ``ci.low``,
    ``ci.high``, or ``low, high = ci``."""

    low: float
    high: float


class WithPValue:
    """Mixin of a test's result: ``pvalue`` beside ``p_value``, as scipy's results name it."""

    @property
    def pvalue(self):
        """The p-value under scipy's name: the same as ``p_value``."""
        return self.p_value


class WithInterval:
    """Mixin of a result with a confidence interval: ``confidence_interval()`` as scipy's
    results have it. ``_interval`` names the fields of its ends, ``_level`` the field of its level."""

    _interval = ("low", "high")
    _level = "confidence"
    _no_interval = "its ends are not defined"

    def confidence_interval(self, confidence_level=None):
        """The confidence interval: a ``ConfidenceInterval`` with ``low`` and ``high``.

        Parameters
        ----------
        confidence_level : float, optional
            The level, if given, must be the result's own (its ``confidence``): an interval
            at another level needs the function called again with that ``confidence``.

        Returns
        -------
        ConfidenceInterval
            ``(low, high)``; a one-sided interval has an infinite end.

        Examples
        --------
        >>> from evalteach.stats import paired_t_test
        >>> paired_t_test([8, 17, -5, 10, -5]).confidence_interval().high > 0
        True
        """
        level = getattr(self, self._level)
        if confidence_level is not None and confidence_level != level:
            raise ValueError(f"confidence_level must be this result's confidence {level!r} (call the function "
                             f"again with confidence={confidence_level!r} for another), got {confidence_level!r}")
        low, high = (getattr(self, name) for name in self._interval)
        if np.all(np.isnan(low)) and np.all(np.isnan(high)):
            raise ValueError(f"this {type(self).__name__} holds no interval: {self._no_interval}")
        return ConfidenceInterval(low, high)
