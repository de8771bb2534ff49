"""How results write numbers: in LaTeX steps, in plain verdicts and in pictures.

One home for the number formats every display shares, so a p-value or an interval
reads the same in a result's formula, its verdict, an explorer's caption and a
result's picture.

* :func:`fmt`: a number inside a LaTeX formula (4 significant figures, ``\\times 10^{k}``).
* :func:`plain`: a number in a plain-text verdict (3 significant figures).
* :func:`decimal`: the same, never in exponent notation.
* :func:`pct`, :func:`tex_pct`: a fraction as a percentage (in text, inside LaTeX).
* :func:`p_text`: a p-value the way papers report it.
* :func:`interval_words`, :func:`interval_text`: "95% interval [a, b]" (in a legend), "the 95%
  interval [a, b] for it" (in a verdict), or a one-sided bound.
"""
from __future__ import annotations

import numpy as np


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


def plain(x, digits=3):
    """A number for a plain-text verdict (no LaTeX): 3 significant figures."""
    x = float(x)
    return ("infinity" if x > 0 else "minus infinity") if np.isinf(x) else f"{x:.{digits}g}"


def decimal(x, infinite=plain, digits=3):
    """A number in plain decimals, 3 significant figures (as :func:`plain`): -5.254e-05 -> '-0.0000525'."""
    x = float(x)
    if np.isinf(x):
        return infinite(x)
    return np.format_float_positional(x, precision=digits, unique=False, fractional=False, trim="-")


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


def tex_pct(p):
    """A percentage inside LaTeX, where a bare % starts a comment."""
    return pct(p).replace("%", r"\%")


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


def same_decimals(low, high, digits=3):
    """Both ends of an interval with the same number of decimals, ``digits`` significant figures
    on the larger end: (0.003, 0.0275) -> ('0.0030', '0.0275'), not '0.003' beside '0.0275'."""
    largest = max(abs(float(low)), abs(float(high)))
    places = max(0, digits - 1 - int(np.floor(np.log10(largest)))) if largest > 0 else digits
    return f"{float(low):.{places}f}", f"{float(high):.{places}f}"


def tex_interval(low, high):
    """An interval for a worked step in TeX: ``[0.1234,\\ 0.5678]``; a one-sided bound is
    half-open, its finite end as the verdict prints it: ``[0.0405,\\ \\infty)``."""
    if np.isinf(low) or np.isinf(high):
        return (r"(-\infty" if np.isinf(low) else f"[{plain(low)}") + r",\ " \
            + (r"\infty)" if np.isinf(high) else f"{plain(high)}]")
    return rf"[{fmt(low)},\ {fmt(high)}]"


def interval_words(low, high, confidence, number=plain):
    """'95% interval [a, b]', or a one-sided bound ('95% lower bound a'), as a legend names it."""
    if np.isinf(low) and np.isinf(high):
        return f"{pct(confidence)} interval (unbounded)"
    if np.isinf(low):
        return f"{pct(confidence)} upper bound {number(high)}"
    if np.isinf(high):
        return f"{pct(confidence)} lower bound {number(low)}"
    return f"{pct(confidence)} interval [{number(low)}, {number(high)}]"


def interval_text(low, high, confidence, what, number=plain):
    """'the 95% interval [a, b] for X', or a one-sided bound, for verdicts."""
    if np.isinf(low) and np.isinf(high):
        return f"the {pct(confidence)} interval for {what}, which is unbounded,"
    return f"the {interval_words(low, high, confidence, number)} for {what}"
