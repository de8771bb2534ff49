"""Sampling simulations: the sample error of many test sets, sample means, resubstitution.

Everything is vectorised (one numpy call draws every trial) and seeded: pass an
integer ``seed`` or a ``numpy.random.Generator``. The explorers
:class:`~evalteach.widgets.SamplingErrorExplorer` and :class:`~evalteach.widgets.CLTExplorer`
draw these (Mitchell ch. 5: error_S(h) is binomial; the central limit theorem).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from .. import _validate as v
from .result_cache import cached

__all__ = [
    "sample_errors", "sampling_error_sd", "Distribution", "DISTRIBUTIONS", "parent_distribution",
    "parse_distribution", "sample_means", "resubstitution_vs_holdout",
    "Resubstitution",
]


def _rng(seed):
    """A Generator from an integer seed, or the Generator itself."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(v.integer("seed", seed, low=0))


# --- the sample error of a hypothesis ----------------------------------------------------


def sample_errors(error, n, n_sets, seed=0):
    """Sample error rates ``error_S(h) = r / n`` of ``n_sets`` independent test sets.

    Each test set holds ``n`` examples that the hypothesis misclassifies independently
    with probability ``error`` (its true error error_D(h)), so ``r`` is binomial.

    Parameters
    ----------
    error : float
        True error in [0, 1].
    n : int
        Test-set size (>= 1).
    n_sets : int
        Number of test sets (>= 1).
    seed : int or numpy.random.Generator

    Returns
    -------
    ndarray of shape (n_sets,)
        The observed error rates, multiples of ``1 / n``.

    Examples
    --------
    >>> e = sample_errors(0.3, 40, 10_000)
    >>> round(float(e.mean()), 2)
    0.3
    """
    error = v.probability("error", error)
    n = v.integer("n", n, low=1)
    n_sets = v.integer("n_sets", n_sets, low=1)
    return _rng(seed).binomial(n, error, n_sets) / n


def sampling_error_sd(error, n):
    """Standard deviation of error_S(h) over test sets of size ``n``: sqrt(p(1-p)/n).

    Examples
    --------
    >>> round(sampling_error_sd(0.3, 40), 4)
    0.0725
    """
    error = v.probability("error", error)
    n = v.integer("n", n, low=1)
    return math.sqrt(error * (1.0 - error) / n)


# --- parent distributions for the central limit theorem --------------------------------


@dataclass(frozen=True)
class Distribution:
    """A parent distribution: how to draw from it, its mean, SD and skewness.

    ``kind`` is one of ``DISTRIBUTIONS``; ``kurtosis`` is the excess kurtosis (0 for a
    normal). A discrete distribution keeps its support in ``values`` and its
    probabilities in ``probs`` (Bernoulli is discrete on 0 and 1).
    Hashable, so simulations can be cached on it.
    """

    kind: str
    label: str
    mean: float
    sd: float
    skewness: float
    kurtosis: float
    values: tuple = ()
    probs: tuple = ()

    @property
    def discrete(self):
        return bool(self.values)

    def shape_of_mean(self, n):
        """Skewness and excess kurtosis of the mean of ``n`` draws (0 and 0 for a normal).

        Cumulants of a sum of ``n`` independent draws are ``n`` times the parent's, so
        the mean's skewness is ``skewness / sqrt(n)`` and its excess kurtosis
        ``kurtosis / n``: how fast the central limit theorem sets in.
        """
        n = np.asarray(n, dtype=float)
        if np.any(n < 1):
            raise ValueError(f"n must be >= 1, got {v._show(float(n.min()))}")
        return self.skewness / np.sqrt(n), self.kurtosis / n

    def draw(self, rng, size):
        """Draw an array of the given shape."""
        rng = _rng(rng)
        if self.kind == "uniform":
            return rng.random(size)
        if self.kind == "exponential":
            return rng.standard_exponential(size)
        if self.kind == "lognormal":
            return np.exp(rng.standard_normal(size))
        if self.kind == "bimodal":
            high = rng.random(size) < _BIMODAL_WEIGHT
            return rng.standard_normal(size) + _BIMODAL_GAP * high
        # discrete: invert the cumulative probabilities
        cum = np.cumsum(self.probs)
        index = np.searchsorted(cum / cum[-1], rng.random(size), side="right")
        return np.asarray(self.values)[np.minimum(index, len(self.values) - 1)]

    def pdf(self, x):
        """Density at ``x`` of a continuous distribution."""
        x = np.asarray(x, dtype=float)
        if self.kind == "uniform":
            return ((x >= 0) & (x <= 1)).astype(float)
        if self.kind == "exponential":
            return np.where(x >= 0, np.exp(-np.abs(x)), 0.0)
        if self.kind == "lognormal":
            safe = np.where(x > 0, x, 1.0)
            return np.where(x > 0, np.exp(-np.log(safe) ** 2 / 2) / (safe * math.sqrt(2 * math.pi)), 0.0)
        if self.kind == "bimodal":
            phi = lambda z: np.exp(-z * z / 2) / math.sqrt(2 * math.pi)  # noqa: E731
            return (1 - _BIMODAL_WEIGHT) * phi(x) + _BIMODAL_WEIGHT * phi(x - _BIMODAL_GAP)
        raise ValueError(f"a discrete distribution has no density: {self.label}")


#: The bimodal parent: 60% N(0, 1) and 40% N(5, 1).
_BIMODAL_WEIGHT, _BIMODAL_GAP = 0.4, 5.0

DISTRIBUTIONS = ("uniform", "exponential", "bernoulli", "bimodal", "lognormal", "discrete")


def _discrete(kind, label, values, probs):
    values = np.asarray(values, dtype=float)
    probs = np.asarray(probs, dtype=float)
    mean = float(probs @ values)
    var = float(probs @ (values - mean) ** 2)
    sd = math.sqrt(var)
    skew = float(probs @ (values - mean) ** 3) / sd ** 3 if sd > 0 else 0.0
    kurt = float(probs @ (values - mean) ** 4) / var ** 2 - 3.0 if sd > 0 else 0.0
    return Distribution(kind, label, mean, sd, skew, kurt, tuple(values.tolist()), tuple(probs.tolist()))


def parent_distribution(name, p=0.5, text=None):
    """A named parent distribution.

    Parameters
    ----------
    name : {"uniform", "exponential", "bernoulli", "bimodal", "lognormal", "discrete"}
        Uniform(0, 1); exponential with mean 1; Bernoulli(p); the mixture 0.6 N(0, 1)
        + 0.4 N(5, 1); log-normal exp(N(0, 1)); or a discrete one typed as ``text``.
    p : float
        Success probability of the Bernoulli.
    text : str
        The typed discrete distribution (see :func:`parse_distribution`).

    Examples
    --------
    >>> d = parent_distribution("bernoulli", p=0.1)
    >>> round(d.mean, 3), round(d.sd, 3)
    (0.1, 0.3)
    """
    v.choice("name", name, DISTRIBUTIONS)
    if name == "uniform":
        return Distribution(name, "Uniform(0, 1)", 0.5, math.sqrt(1 / 12), 0.0, -1.2)
    if name == "exponential":
        return Distribution(name, "Exponential(mean 1)", 1.0, 1.0, 2.0, 6.0)
    if name == "lognormal":
        e = math.e
        return Distribution(name, "log-normal exp(N(0, 1))", math.sqrt(e), math.sqrt((e - 1) * e),
                            (e + 2) * math.sqrt(e - 1), e ** 4 + 2 * e ** 3 + 3 * e ** 2 - 6)
    if name == "bimodal":
        # X - mean = gap (B - w) + Z with B ~ Bernoulli(w), Z ~ N(0, 1) independent
        w, gap = _BIMODAL_WEIGHT, _BIMODAL_GAP
        b2, b3 = w * (1 - w), w * (1 - w) * (1 - 2 * w)
        b4 = w * (1 - w) * ((1 - w) ** 3 + w ** 3)
        var = 1 + gap ** 2 * b2
        fourth = gap ** 4 * b4 + 6 * gap ** 2 * b2 + 3
        return Distribution(name, "bimodal 0.6 N(0,1) + 0.4 N(5,1)", w * gap, math.sqrt(var),
                            gap ** 3 * b3 / var ** 1.5, fourth / var ** 2 - 3)
    if name == "bernoulli":
        p = v.probability("p", p)
        return _discrete(name, f"Bernoulli(p = {p:g})", (0.0, 1.0), (1 - p, p))
    if text is None:
        raise ValueError("text must be given for name='discrete', e.g. '1:0.2, 5:0.8'")
    return parse_distribution(text)


_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"


def _number(token, what, text):
    if not re.fullmatch(_NUMBER, token):
        raise ValueError(f"text: {what} {token!r} is not a number, in {text!r}")
    x = float(token)
    if not math.isfinite(x):
        raise ValueError(f"text: {what} {token!r} is not finite, in {text!r}")
    return x


def parse_distribution(text):
    """Parse a typed discrete distribution.

    Two forms: ``"value:probability"`` pairs such as ``"1:0.2, 5:0.8"`` (probabilities
    sum to 1), or a plain list of values such as ``"1, 2, 2, 9"``, each equally likely
    (repeats add weight). Commas, semicolons or spaces separate the entries.

    Raises
    ------
    ValueError
        Naming the entry that is wrong.

    Examples
    --------
    >>> d = parse_distribution("1:0.2, 5:0.8")
    >>> d.values, d.probs, round(d.mean, 2)
    ((1.0, 5.0), (0.2, 0.8), 4.2)
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {v._show(text)}")
    entries = [e for e in re.split(r"[,;\s]+", re.sub(r"\s*:\s*", ":", text.strip())) if e]
    if not entries:
        raise ValueError("text must list values, e.g. '1:0.2, 5:0.8' or '1, 2, 2, 9', got ''")
    paired = [":" in e for e in entries]
    if any(paired) and not all(paired):
        raise ValueError(f"text must use value:probability for every entry or for none, got {text!r}")
    if all(paired):
        pairs = [e.split(":") for e in entries]
        if any(len(pair) != 2 for pair in pairs):
            raise ValueError(f"text: each entry must be value:probability, got {text!r}")
        values = [_number(a, "value", text) for a, _ in pairs]
        probs = [_number(b, "probability", text) for _, b in pairs]
        if any(q < 0 for q in probs):
            raise ValueError(f"text: probabilities must be >= 0, got {text!r}")
        total = sum(probs)
        if not math.isclose(total, 1.0, abs_tol=1e-6):
            raise ValueError(f"text: probabilities must sum to 1, they sum to {total:g} in {text!r}")
    else:
        values = [_number(e, "value", text) for e in entries]
        probs = [1.0 / len(values)] * len(values)
    support = np.unique(values)
    weights = np.array([sum(q for x, q in zip(values, probs) if x == s) for s in support])
    label = ", ".join(f"{s:g}:{w:.3g}" for s, w in zip(support, weights))
    label = f"discrete {{{label}}}" if len(label) <= 22 else f"discrete ({len(support)} values)"
    return _discrete("discrete", label, support, weights)


def _check_distribution(distribution):
    if not isinstance(distribution, Distribution):
        raise TypeError(f"distribution must be a Distribution (see parent_distribution), "
                        f"got {v._show(distribution)}")
    return distribution


#: Draws made at a time by :func:`sample_means` (1 MB): 10,000 samples of 200 draw 2 million
#: numbers, and drawn at once they took 16 MB (32 MB for the log-normal) on every change.
_DRAWN_AT_ONCE = 2**17


def sample_means(distribution, n, n_samples, seed=0):
    """Means of ``n_samples`` independent samples of size ``n`` from ``distribution``.

    The samples are drawn a block at a time from one stream: the same numbers as drawing
    all ``(n_samples, n)`` at once.

    Examples
    --------
    >>> m = sample_means(parent_distribution("exponential"), 30, 20_000)
    >>> round(float(m.mean()), 2), round(float(m.std()), 2)   # about 1 and 1 / sqrt(30)
    (1.0, 0.18)
    """
    distribution = _check_distribution(distribution)
    n = v.integer("n", n, low=1)
    n_samples = v.integer("n_samples", n_samples, low=1)
    rng = _rng(seed)
    rows = max(1, _DRAWN_AT_ONCE // n)
    if distribution.kind == "bimodal":
        # the stream holds every component choice before every normal draw: the choices
        # first (a byte per draw), then the normals, a block of samples at a time
        weight = _BIMODAL_WEIGHT
        high = np.concatenate([rng.random((min(rows, n_samples - start), n)) < weight
                               for start in range(0, n_samples, rows)])
        return np.concatenate([(rng.standard_normal(high[start:start + rows].shape)
                                + _BIMODAL_GAP * high[start:start + rows]).mean(axis=1)
                               for start in range(0, n_samples, rows)])
    return np.concatenate([distribution.draw(rng, (min(rows, n_samples - start), n)).mean(axis=1)
                           for start in range(0, n_samples, rows)])


# --- resubstitution against a held-out test set ------------------------------------------


@dataclass(frozen=True)
class Resubstitution:
    """Errors of a learner on its own training set and on held-out examples, per split."""

    dataset: str
    learner: str
    n_train: int
    n_test: int
    train_errors: np.ndarray
    test_errors: np.ndarray

    @property
    def optimism(self):
        """Mean held-out error minus mean training (resubstitution) error."""
        return float(self.test_errors.mean() - self.train_errors.mean())


@cached(max_bytes=2 * 2**20, name="resubstitution fits")  # n_splits fits each
def _resubstitution(dataset, learner, test_fraction, n_splits, seed):
    from . import bundled_scores

    scored = bundled_scores.resubstitution(dataset, learner, test_fraction, n_splits, seed)
    n_train, n_test, train_errors, test_errors = (
        fit_resubstitution(dataset, learner, test_fraction, n_splits, seed) if scored is None else scored)
    train_errors.setflags(write=False)
    test_errors.setflags(write=False)
    return Resubstitution(dataset, learner, n_train, n_test, train_errors, test_errors)


def fit_resubstitution(dataset, learner, test_fraction, n_splits, seed):
    """:func:`resubstitution_vs_holdout` fitted for real (neither cached nor read from the
    bundle): ``(n_train, n_test, train_errors, test_errors)``."""
    from ..data import load_dataset
    from ..learners import fitting, make_learner

    data = load_dataset(dataset, binary=True)
    n = len(data.y)
    n_test = max(1, round(test_fraction * n))
    rng = _rng(seed)
    train_errors, test_errors = np.empty(n_splits), np.empty(n_splits)
    # Small problems: worker threads cost far more than they save (neighbour search
    # took 50x longer with them on a busy 2-core machine).
    with fitting():
        for i in range(n_splits):  # one fit per split: the learner itself is not vectorisable
            order = rng.permutation(n)
            test, train = order[:n_test], order[n_test:]
            model = make_learner(learner, seed=seed).fit(data.X[train], data.y[train])
            train_errors[i] = np.mean(model.predict(data.X[train]) != data.y[train])
            test_errors[i] = np.mean(model.predict(data.X[test]) != data.y[test])
    return n - n_test, n_test, train_errors, test_errors


def resubstitution_vs_holdout(dataset="breast_cancer", learner="1nn", test_fraction=1 / 3,
                              n_splits=20, seed=0):
    """Score a real learner on its own training set and on a held-out set, over random splits.

    The training-set (resubstitution) error is optimistically biased: a 1-nearest-neighbour
    classifier memorises its training set and scores (nearly) 0 there, while its held-out
    error estimates its true error (Mitchell ch. 5: "don't test on the training set").
    Results are cached, so asking again costs no fit; the explorer's request with seed 0 comes
    fitted with the package (:mod:`evalteach.simulate.bundled_scores`).

    Parameters
    ----------
    dataset : str
        A bundled data set (:func:`evalteach.data.load_dataset`, two-class version).
    learner : str
        A short learner name (:func:`evalteach.learners.make_learner`).
    test_fraction : float
        Share of the examples held out, in (0, 1).
    n_splits : int
        Number of random train/test splits.
    seed : int

    Returns
    -------
    Resubstitution
        ``train_errors`` and ``test_errors`` of shape (n_splits,).

    Examples
    --------
    >>> r = resubstitution_vs_holdout(n_splits=5)
    >>> float(r.train_errors.max()), bool(r.test_errors.mean() > 0.02)
    (0.0, True)
    """
    from ..data import DATASETS
    from ..learners import LEARNERS

    v.choice("dataset", dataset, DATASETS)
    v.choice("learner", learner, tuple(LEARNERS))
    test_fraction = v.real("test_fraction", test_fraction, low=0.0, high=1.0, low_open=True, high_open=True)
    n_splits = v.integer("n_splits", n_splits, low=1)
    seed = v.integer("seed", seed, low=0)
    return _resubstitution(dataset, learner, test_fraction, n_splits, seed)
