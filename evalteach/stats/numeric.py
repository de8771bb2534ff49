"""How far off are numeric predictions? Witten & Frank's error measures for regression.

Absolute measures keep the units of the target; relative measures compare the
predictor with the trivial one that always predicts the mean of the actual values
(below 100% beats it); the correlation coefficient ignores scale altogether.
"""
from __future__ import annotations

import numpy as np

from .. import _validate as v
from .._format import fmt, pct, plain
from .._result import Explanation, Result, result

__all__ = ["numeric_errors", "NumericErrors"]


@result
class NumericErrors(Result):
    """Witten & Frank's performance measures for numeric prediction.

    Attributes
    ----------
    mean_absolute_error, root_mean_squared_error : float
        MAE and RMSE.
    relative_absolute_error, root_relative_squared_error : float
        RAE and RRSE, relative to predicting the mean (NaN for constant actual values).
    correlation : float
        The correlation of predictions and actual values.
    n : int
        The number of predictions.
    mean_squared_error, relative_squared_error : float
        MSE and RSE.
    """

    mean_absolute_error: float
    root_mean_squared_error: float
    relative_absolute_error: float
    root_relative_squared_error: float
    correlation: float
    n: int
    mean_squared_error: float
    relative_squared_error: float

    def _explain(self):
        formulas = [
            r"\text{MAE} = \frac1n\sum_i |p_i - a_i|,\qquad \text{RMSE} = \sqrt{\frac1n\sum_i (p_i - a_i)^2}",
            r"\text{RAE} = \frac{\sum_i |p_i - a_i|}{\sum_i |a_i - \bar a|},\qquad "
            r"\text{RRSE} = \sqrt{\frac{\sum_i (p_i - a_i)^2}{\sum_i (a_i - \bar a)^2}}",
            r"r = \frac{S_{PA}}{\sqrt{S_P S_A}},\quad S_{PA} = \frac{\sum_i (p_i - \bar p)(a_i - \bar a)}{n-1},\ "
            r"S_P = \frac{\sum_i (p_i - \bar p)^2}{n-1},\ S_A = \frac{\sum_i (a_i - \bar a)^2}{n-1}",
        ]
        steps = [
            rf"n = {self.n}:\quad \text{{MAE}} = {fmt(self.mean_absolute_error)},\quad "
            rf"\text{{RMSE}} = \sqrt{{{fmt(self.mean_squared_error)}}} = {fmt(self.root_mean_squared_error)}",
            rf"\text{{RAE}} = {fmt(self.relative_absolute_error)},\quad "
            rf"\text{{RRSE}} = \sqrt{{{fmt(self.relative_squared_error)}}} = {fmt(self.root_relative_squared_error)},"
            rf"\quad r = {fmt(self.correlation)}",
        ]
        verdict = (f"The predictions are off by {plain(self.mean_absolute_error)} on average (RMSE "
                   f"{plain(self.root_mean_squared_error)}, which weighs large errors more); "
                   f"{self._against_the_mean()}, and "
                   + (f"they correlate with the actual values at r = {plain(self.correlation)}."
                      if np.isfinite(self.correlation) else "their correlation is undefined (constant values)."))
        return Explanation("Errors of numeric prediction (Witten & Frank)", formulas, steps, verdict)


    def _against_the_mean(self):
        rae, rrse = self.relative_absolute_error, self.root_relative_squared_error
        both = (f"relative absolute error {_pct_or_nan(rae)}, root relative squared error "
                f"{_pct_or_nan(rrse)}")
        if not (np.isfinite(rae) and np.isfinite(rrse)):
            return "the relative errors are undefined: the actual values are constant"
        against = "against always predicting the mean of the actual values they"
        if rae < 1 and rrse < 1:
            return f"{against} do better ({both})"
        if rae >= 1 and rrse >= 1:
            return f"{against} do no better ({both})"
        better, worse = (("absolute", "squared") if rae < 1 else ("squared", "absolute"))
        return f"{against} do better in {better} error but not in {worse} error ({both})"


def _pct_or_nan(x):
    return pct(x) if np.isfinite(x) else "undefined (constant actual values)"


def numeric_errors(y_true, y_pred):
    """Mean absolute, root mean squared, relative absolute and root relative squared
    error, and the correlation coefficient of numeric predictions.

    Parameters
    ----------
    y_true : array
        Actual values ``a_i`` (at least 2).
    y_pred : array
        Predicted values ``p_i`` of the same length.

    Returns
    -------
    NumericErrors
        ``mean_absolute_error``, ``root_mean_squared_error``, ``relative_absolute_error``
        and ``root_relative_squared_error`` (fractions: 0.43 is 43% of the error of always
        predicting the mean of ``y_true``), ``correlation`` (Pearson's r), ``n``,
        ``mean_squared_error`` and ``relative_squared_error``. The relative errors are
        relative to the mean of ``y_true``, the test values; Witten & Frank (and Weka) use the
        training data's mean, whose errors on the test set are larger (for squared error never
        smaller), so their relative errors tend to be lower than these. Relative errors are
        ``nan`` when ``y_true`` is constant; the correlation is ``nan`` when either
        array is constant.

    References
    ----------
    Witten, Frank & Hall, *Data Mining: Practical Machine Learning Tools and Techniques*,
    section 5.8 ("Evaluating numeric prediction"), Table 5.8.

    Examples
    --------
    >>> r = numeric_errors([3.0, 5.0, 2.0, 8.0], [2.5, 5.0, 3.0, 7.0])
    >>> r.mean_absolute_error, round(r.relative_absolute_error, 3)
    (0.625, 0.312)
    """
    a = v.array("y_true", y_true, min_size=2)
    p = v.array("y_pred", y_pred, min_size=2)
    v.same_length(y_true=a, y_pred=p)
    error = p - a
    spread_a = a - a.mean()
    spread_p = p - p.mean()
    mse = float(np.mean(error ** 2))
    with np.errstate(divide="ignore", invalid="ignore"):
        rae = float(np.sum(np.abs(error)) / np.sum(np.abs(spread_a)))
        rse = float(np.sum(error ** 2) / np.sum(spread_a ** 2))
        r = float(np.sum(spread_p * spread_a) / np.sqrt(np.sum(spread_p ** 2) * np.sum(spread_a ** 2)))
    nan = float("nan")
    if not np.any(spread_a):  # constant actual values: nothing to be relative to
        rae = rse = nan
    if not np.any(spread_a) or not np.any(spread_p):
        r = nan
    return NumericErrors(float(np.mean(np.abs(error))), float(np.sqrt(mse)), rae, float(np.sqrt(rse)), r, int(a.size),
                         mse, rse)
