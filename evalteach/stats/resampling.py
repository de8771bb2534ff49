"""Holdout, k-fold, leave-one-out and bootstrap splits, and the .632 / .632+ estimates.

Everything here is index arithmetic on ``range(n)`` with numpy: a split is a pair of
index arrays (train, test) that you use to slice your own data. Every function that
shuffles takes ``seed`` (an int, a ``numpy.random.Generator`` or None), so a lesson
gives the same folds every time it runs (Witten & Frank ch. 5; Alpaydin ch. 19).
"""
from __future__ import annotations

import numbers

import numpy as np

from .. import _validate as v
from .._format import fmt, plain
from .._result import Explanation, Result, result

__all__ = [
    "Split", "holdout_split", "repeated_holdout_splits", "kfold_splits", "leave_one_out_splits",
    "bootstrap_samples", "bootstrap_632", "bootstrap_632_plus", "Bootstrap632", "no_information_error",
]


@result
class Split(Result):
    """One train/test split as index arrays; unpacks as ``train, test = split``.

    For a bootstrap sample, ``train`` holds n indices drawn with replacement and
    ``test`` the out-of-bag indices (also available as ``oob``).

    Attributes
    ----------
    train, test : ndarray of int
        The indices of the training and of the test examples.
    """

    train: np.ndarray
    test: np.ndarray

    def __iter__(self):
        return iter((self.train, self.test))

    @property
    def oob(self):
        """The out-of-bag (test) indices."""
        return self.test

    def _explain(self):
        n_train, n_test = len(self.train), len(self.test)
        unique = len(np.unique(self.train))
        steps = [rf"|\text{{train}}| = {n_train}\ ({unique}\ \text{{distinct}}),\quad |\text{{test}}| = {n_test}"]
        return Explanation("Train/test split", [], steps,
                           f"Train on {n_train} examples and test on the {n_test} held out.")


def _rng(seed):
    if seed is None or isinstance(seed, np.random.Generator):
        return np.random.default_rng(seed)
    if isinstance(seed, numbers.Integral) and not isinstance(seed, bool) and seed >= 0:
        return np.random.default_rng(int(seed))
    raise TypeError(f"seed must be None, a non-negative int or a numpy Generator, got {seed!r}")


def _classes(stratify, n):
    """Integer class codes of ``stratify`` (length n), or None."""
    if stratify is None:
        return None
    if isinstance(stratify, (str, bytes)):
        raise TypeError(f"stratify must be array-like of class labels, got {stratify!r}")
    labels = np.asarray(stratify)
    if labels.ndim != 1 or labels.size != n:
        raise ValueError(f"stratify must be 1-dimensional with n={n} labels, got shape {labels.shape}")
    if labels.dtype.kind == "f" and not np.all(np.isfinite(labels)):
        raise ValueError("stratify must hold finite labels only (no NaN or inf)")
    return np.unique(labels, return_inverse=True)[1]


def _grouped_order(classes, n, rng, shuffle=True):
    """All indices, shuffled within each class, classes one after another."""
    order = rng.permutation(n) if shuffle else np.arange(n)
    if classes is None:
        return order
    return order[np.argsort(classes[order], kind="stable")]


def _share(name, value):
    return v.real(name, value, low=0, high=1, low_open=True, high_open=True)


def holdout_split(n, test_size=1 / 3, stratify=None, seed=None):
    """Hold out a random share of ``range(n)`` for testing (Witten & Frank: "one third").

    With ``stratify`` (class labels), each class contributes ``round(test_size * n_c)``
    test indices, so both parts keep the class proportions.

    Examples
    --------
    >>> train, test = holdout_split(9, seed=0)
    >>> len(train), len(test)
    (6, 3)
    """
    n = v.integer("n", n, low=2)
    t = _share("test_size", test_size)
    return _holdout(n, t, _classes(stratify, n), _rng(seed))


def _holdout(n, t, classes, rng):
    groups = [np.arange(n)] if classes is None else [np.flatnonzero(classes == c) for c in np.unique(classes)]
    test = np.concatenate([rng.permutation(g)[:int(round(t * g.size))] for g in groups])
    if test.size == 0 or test.size == n:
        raise ValueError(f"test_size={t} leaves an empty train or test set for n={n}")
    mask = np.zeros(n, bool)
    mask[test] = True
    return Split(np.flatnonzero(~mask), np.flatnonzero(mask))


def repeated_holdout_splits(n, repeats=10, test_size=1 / 3, stratify=None, seed=None):
    """``repeats`` independent holdout splits from one seeded generator (Witten & Frank).

    Examples
    --------
    >>> len(repeated_holdout_splits(30, repeats=5, seed=1))
    5
    """
    n = v.integer("n", n, low=2)
    r = v.integer("repeats", repeats, low=1)
    t = _share("test_size", test_size)
    classes, rng = _classes(stratify, n), _rng(seed)
    return [_holdout(n, t, classes, rng) for _ in range(r)]


def kfold_splits(n, k=10, stratify=None, shuffle=True, seed=None):
    """The k folds of k-fold cross-validation: each index is tested exactly once.

    Fold sizes differ by at most one. With ``stratify`` the (shuffled) indices of each
    class are dealt to the folds in turn, so every fold holds within one instance of
    its share ``n_c / k`` of every class.

    Examples
    --------
    >>> [len(test) for _, test in kfold_splits(10, k=3, seed=0)]
    [4, 3, 3]
    """
    n = v.integer("n", n, low=2)
    k = v.integer("k", k, low=2, high=n)
    shuffle = v.boolean("shuffle", shuffle)
    order = _grouped_order(_classes(stratify, n), n, _rng(seed), shuffle)
    fold = np.empty(n, int)
    if stratify is None:
        fold[order] = np.repeat(np.arange(k), [len(a) for a in np.array_split(order, k)])
    else:
        fold[order] = np.arange(n) % k
    return [Split(np.flatnonzero(fold != i), np.flatnonzero(fold == i)) for i in range(k)]


def leave_one_out_splits(n):
    """n splits, each testing on one example and training on the other n - 1.

    Examples
    --------
    >>> [test.tolist() for _, test in leave_one_out_splits(3)]
    [[0], [1], [2]]
    """
    n = v.integer("n", n, low=2)
    everything = np.arange(n)
    return [Split(np.delete(everything, i), everything[i:i + 1]) for i in range(n)]


def bootstrap_samples(n, n_boot, seed=None):
    """``n_boot`` bootstrap samples: n indices drawn with replacement, plus the out-of-bag rest.

    On average a fraction ``(1 - 1/n)^n ≈ e^{-1} ≈ 0.368`` of the examples is out of bag
    (Witten & Frank's ".632 bootstrap").

    Examples
    --------
    >>> s = bootstrap_samples(5, 1, seed=0)[0]
    >>> len(s.train), sorted(set(s.train.tolist()) | set(s.oob.tolist())) == list(range(5))
    (5, True)
    """
    n = v.integer("n", n, low=1)
    b = v.integer("n_boot", n_boot, low=1)
    rng = _rng(seed)
    splits = []
    for _ in range(b):
        train = rng.integers(0, n, n)
        splits.append(Split(train, np.setdiff1d(np.arange(n), train)))
    return splits


@result
class Bootstrap632(Result):
    """The .632 (or .632+) bootstrap error estimate.

    Attributes
    ----------
    estimate : float
        The .632 (or .632+) estimate of the error.
    resub_error : float
        The resubstitution error.
    oob_error : float
        The out-of-bag (leave-one-out bootstrap) error.
    weight : float
        The weight of the out-of-bag error (0.632, or .632+'s).
    gamma : float or None
        The no-information error rate (.632+ only).
    relative_overfitting : float or None
        .632+'s relative overfitting rate R.
    """

    estimate: float
    resub_error: float
    oob_error: float
    weight: float
    gamma: float | None = None
    relative_overfitting: float | None = None

    def _explain(self):
        err, e1, w = self.resub_error, self.oob_error, self.weight
        if self.gamma is None:
            title = ".632 bootstrap estimate"
            formulas = [r"\widehat{Err}^{(.632)} = 0.368\,\overline{err} + 0.632\,\widehat{Err}^{(1)}"]
            steps = [rf"0.368 \times {fmt(err)} + 0.632 \times {fmt(e1)} = {fmt(self.estimate)}"]
        else:
            title = ".632+ bootstrap estimate"
            g, r = self.gamma, self.relative_overfitting
            e1c = min(e1, g)
            formulas = [r"\widehat{Err}^{(1)\prime} = \min(\widehat{Err}^{(1)}, \hat\gamma),\quad "
                        r"\hat R' = \frac{\widehat{Err}^{(1)\prime} - \overline{err}}{\hat\gamma - \overline{err}}"
                        r"\ \text{(0 unless both exceed } \overline{err})",
                        r"\widehat{Err}^{(.632+)} = \widehat{Err}^{(.632)} + (\widehat{Err}^{(1)\prime} - "
                        r"\overline{err})\,\frac{0.368 \cdot 0.632\,\hat R'}{1 - 0.368\,\hat R'}"]
            steps = [rf"\widehat{{Err}}^{{(1)\prime}} = \min({fmt(e1)}, {fmt(g)}) = {fmt(e1c)},\quad "
                     rf"\hat R' = {fmt(r)}",
                     rf"0.368 \times {fmt(err)} + 0.632 \times {fmt(e1)} + ({fmt(e1c)} - {fmt(err)})"
                     rf"\frac{{0.368 \cdot 0.632 \times {fmt(r)}}}{{1 - 0.368 \times {fmt(r)}}} = {fmt(self.estimate)}"]
        verdict = (f"The estimated error is {plain(self.estimate)}, a weighted mean of the resubstitution error "
                   f"{plain(err)} and the out-of-bag error {plain(e1)} (weight {plain(w)}). On average the first "
                   "is optimistic (the model saw those examples) and the second pessimistic (each model saw "
                   "about 63.2% of the distinct examples); for one data set either can miss either way.")
        return Explanation(title, formulas, steps, verdict)


def bootstrap_632(resub_error, oob_error):
    """Efron's .632 bootstrap: ``0.368 * resubstitution error + 0.632 * out-of-bag error``.

    On average the out-of-bag error is pessimistic (each model saw only ~63.2% of the
    distinct examples) and the resubstitution error optimistic; the weights balance them
    (Efron 1983; Witten & Frank ch. 5).

    Examples
    --------
    >>> round(bootstrap_632(0.05, 0.20).estimate, 4)
    0.1448
    """
    err = v.probability("resub_error", resub_error)
    e1 = v.probability("oob_error", oob_error)
    return Bootstrap632(0.368 * err + 0.632 * e1, err, e1, 0.632)


def bootstrap_632_plus(resub_error, oob_error, gamma):
    """Efron and Tibshirani's (1997) .632+ estimate, which gives the out-of-bag error more
    weight the more the learner overfits.

    ``gamma`` is the no-information error rate (see :func:`no_information_error`). As in
    Efron & Tibshirani (1997, eqs. 32-33), with ``err`` the resubstitution error and ``E1``
    the out-of-bag (leave-one-out bootstrap) error::

        E1' = min(E1, gamma)
        R'  = (E1' - err) / (gamma - err)   if E1 > err and gamma > err, else 0
        Err(.632+) = Err(.632) + (E1' - err) * 0.368 * 0.632 * R' / (1 - 0.368 R')

    where ``Err(.632) = 0.368 err + 0.632 E1`` uses the unclipped ``E1``. For
    ``E1 <= gamma`` this is ``(1 - w) err + w E1`` with ``w = 0.632 / (1 - 0.368 R')``;
    for ``E1 > gamma`` (the learner does worse than guessing on the out-of-bag data)
    ``R' = 1`` and the estimate is ``0.632 E1 + 0.368 gamma``. (R's ``ipred::bootest``
    computes R from the unclipped E1, so the two differ only when ``E1 > gamma``.)

    Examples
    --------
    >>> r = bootstrap_632_plus(0.0, 0.3, 0.5)
    >>> round(r.relative_overfitting, 2), round(r.estimate, 4)
    (0.6, 0.2433)
    >>> round(bootstrap_632_plus(0.0, 0.6, 0.5).estimate, 4)
    0.5632
    """
    err = v.probability("resub_error", resub_error)
    e1 = v.probability("oob_error", oob_error)
    g = v.probability("gamma", gamma)
    e1_clipped = min(e1, g)
    r = (e1_clipped - err) / (g - err) if e1 > err and g > err else 0.0
    w = 0.632 / (1 - 0.368 * r)
    estimate = 0.368 * err + 0.632 * e1 + (e1_clipped - err) * 0.368 * 0.632 * r / (1 - 0.368 * r)
    return Bootstrap632(estimate, err, e1, w, g, r)


def no_information_error(y_true, y_pred):
    """The no-information error rate gamma of Efron and Tibshirani (1997).

    The error expected if predictions were independent of the true classes:
    ``gamma = sum_l p_l (1 - q_l)``, with ``p_l`` the share of true class ``l`` and
    ``q_l`` the share of predictions of class ``l``.

    Examples
    --------
    >>> no_information_error([0, 0, 1, 1], [0, 1, 1, 1])
    0.5
    """
    if isinstance(y_true, (str, bytes)) or isinstance(y_pred, (str, bytes)):
        raise TypeError("y_true and y_pred must be array-like of class labels")
    y, p = np.asarray(y_true), np.asarray(y_pred)
    if y.ndim != 1 or y.size < 1:
        raise ValueError(f"y_true must be a non-empty 1-dimensional array, got shape {y.shape}")
    v.same_length(y_true=y, y_pred=p)
    labels = np.union1d(y, p)
    share_true = np.array([np.mean(y == c) for c in labels])
    share_pred = np.array([np.mean(p == c) for c in labels])
    return float(np.sum(share_true * (1 - share_pred)))
