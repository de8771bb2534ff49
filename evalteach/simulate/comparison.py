"""Simulations for comparing hypotheses and learning algorithms.

* :func:`simulate_algorithm_tests`: type-I error and power of the tests for
  comparing two learners, on a vectorised statistical model of per-instance errors
  (not Dietterich's 1998 experiment with real learners), so it runs live.
* :func:`simulate_test_set_reuse`: the optimism of reporting the best of m models'
  test-set scores, against choosing on a validation set.
* :func:`resampling_estimates`: holdout, cross-validation, leave-one-out and
  bootstrap estimates of a real learner's error, repeated, against a large held-out set.
"""
from __future__ import annotations

import weakref
from dataclasses import field

import numpy as np
from scipy import special as _special

from .. import _validate as v
from .._result import Explanation, Result, fmt, pct, result
from .result_cache import ResultCache
from ..stats import (compare_hypotheses, corrected_resampled_t_test, five_by_two_cv_f_test,
                     five_by_two_cv_t_test, mcnemar_test, paired_t_test)

__all__ = ["ALGORITHM_TESTS", "AlgorithmTestExperiments", "AlgorithmTestSimulation",
           "simulate_algorithm_tests",
           "TestSetReuseSimulation", "TestSetReuseExperiments", "simulate_test_set_reuse", "RESAMPLING_METHODS",
           "ResamplingEstimates", "ResamplingFits", "resampling_estimates"]

#: The tests of :func:`simulate_algorithm_tests`, by short name -> label.
ALGORITHM_TESTS = {
    "cv_t": "10-fold CV paired t",
    "resampled_t": "resampled paired t (30 holdouts)",
    "corrected_t": "corrected resampled t",
    "5x2cv_t": "5x2cv paired t",
    "5x2cv_f": "5x2cv F",
    "mcnemar": "McNemar (one holdout)",
    "proportions": "difference of proportions (one holdout)",
}

_FOLDS, _HOLDOUTS, _CHUNK = 10, 30, 200
#: Experiments whose latent scores are made at a time (about 300 kB each at n = 600).
_ROWS = 16
#: Experiments whose rounded scores are compared at a time (a few hundred kB of temporaries).
_ROUNDED_ROWS = 64
#: Steps per unit of the rounded latent scores, and the int16 bound they are kept within: a
#: score is kept to half of 1/8192, within +-4 (the thresholds of errors above 0.00003).
#: The finer the step, the fewer scores in the step around a threshold are made again.
_STEP, _LIMIT = 8192, 32767
#: Rounded latent scores of the last settings, shared by all experiments with the same
#: draws: 4 bytes per test prediction per experiment (19 MB for 1000 experiments at
#: n = 300, 38 MB at n = 600). With them a new error or difference costs comparisons only.
_ROUNDED = ResultCache("rounded latent scores", 40 * 2**20)


def _progress(progress):
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be a callable taking a fraction, got {progress!r}")
    return progress or (lambda fraction: None)


# --- comparing two learning algorithms ---------------------------------------------------

@result
class AlgorithmTestSimulation(Result):
    """p-values of each test over many simulated experiments, and their rejection rates.

    Under a true difference (``difference != 0``) it also keeps the p-values of the same
    experiments with no difference (``null_p_values``), so that power is judged only
    among the tests that keep their level: :attr:`valid_tests`.
    """

    p_values: dict = field(repr=False)
    rejection_rates: dict
    mc_error: dict = field(repr=False)
    alpha: float
    n_experiments: int
    difference: float
    n: int = field(repr=False)
    error: float = field(repr=False)
    null_p_values: dict = field(default=None, repr=False)

    def with_alpha(self, alpha):
        """The same simulated p-values judged at another significance level."""
        alpha = v.real("alpha", alpha, low=0.0, high=1.0, low_open=True, high_open=True)
        rates = {k: float(np.mean(p < alpha)) for k, p in self.p_values.items()}
        errors = {k: float(np.sqrt(r * (1 - r) / self.n_experiments)) for k, r in rates.items()}
        return AlgorithmTestSimulation(self.p_values, rates, errors, alpha, self.n_experiments,
                                       self.difference, self.n, self.error, self.null_p_values)

    def without_difference(self):
        """The same experiments with no true difference: what :meth:`AlgorithmTestExperiments.simulate`
        gives for this setting with ``difference=0`` (kept beside a power simulation, made in
        the same pass); ``None`` when H0 was not simulated."""
        if self.difference == 0:
            return self
        if self.null_p_values is None:
            return None
        return AlgorithmTestSimulation(self.null_p_values, {}, {}, self.alpha, self.n_experiments, 0.0,
                                       self.n, self.error).with_alpha(self.alpha)

    def level(self, name):
        """How test ``name`` keeps its level with no true difference: ``'liberal'`` (its
        false-alarm rate exceeds alpha by more than 1.96 Monte Carlo standard errors, the
        95% whiskers of the explorer), ``'conservative'`` (below alpha by as much) or
        ``'near'``; ``None`` when the simulation of H0 is not known."""
        null = self.p_values if self.difference == 0 else self.null_p_values
        if null is None:
            return None
        rate = float(np.mean(null[name] < self.alpha))
        half = 1.96 * np.sqrt(rate * (1 - rate) / self.n_experiments)
        if rate - half > self.alpha:
            return "liberal"
        return "conservative" if rate + half < self.alpha else "near"

    @property
    def valid_tests(self):
        """The tests whose false-alarm rate with no true difference is not above alpha
        (:meth:`level` is not ``'liberal'``); ``None`` when H0 was not simulated."""
        if self.level(next(iter(self.p_values))) is None:
            return None
        return tuple(name for name in self.p_values if self.level(name) != "liberal")

    def _explain(self):
        valid = self.valid_tests
        invalid = r"\ \text{(too liberal under H0)}"
        steps = [rf"\text{{{ALGORITHM_TESTS[k]}}}:\ {fmt(r, 3)} \pm {fmt(1.96 * self.mc_error[k], 2)}"
                 + (invalid if self.difference != 0 and valid is not None and k not in valid else "")
                 for k, r in self.rejection_rates.items()]
        over = f"over B = {self.n_experiments} simulated experiments at alpha = {fmt(self.alpha, 3)}"
        if self.difference == 0:
            title = "No true difference: false-alarm rates of the tests, simulated"
            liberal = [ALGORITHM_TESTS[k] for k in self.rejection_rates if k not in valid]
            verdict = (f"False-alarm rates {over} (± 1.96 MC errors); "
                       + (f"too liberal: {', '.join(liberal)}." if liberal else
                          "no test rejects more often than alpha allows."))
        else:
            title = f"True difference of {fmt(self.difference, 3)}: power of the tests, simulated"
            candidates = list(self.rejection_rates) if valid is None else list(valid)
            best = max(candidates, key=self.rejection_rates.get) if candidates else None
            among = ("among all tests (their false-alarm rates were not simulated)" if valid is None else
                     "among the tests that keep alpha with no true difference")
            verdict = (f"Power {over} (± 1.96 MC errors); "
                       + (f"the highest {among} is the {ALGORITHM_TESTS[best]} ({pct(self.rejection_rates[best])})"
                          if best else "no test keeps alpha with no true difference")
                       + ("." if valid is None or len(valid) == len(self.rejection_rates) else
                          f"; the others reject too often with no difference, so their power means nothing."))
        return Explanation(title,
                           [r"\widehat{\text{rate}} = \frac{\#\{p < \alpha\}}{B},\quad "
                            r"\text{MC error} = \sqrt{\widehat{\text{rate}}(1-\widehat{\text{rate}})/B}"
                            r"\quad (B:\ \text{simulated experiments; shown: rate} \pm 1.96\ \text{MC errors})"],
                           steps, verdict)


def _design(n, seed):
    """Train masks and concatenated test indices of every resample one experiment uses.

    Resamples: 10 CV folds, 30 random 2/3 : 1/3 holdouts (the first one also serves
    McNemar and the difference of proportions), 5 x 2 half splits. The instances of the
    model are exchangeable, so one design per data-set size serves every experiment.
    """
    rng = np.random.default_rng([seed, n])
    n_test = n // 3
    tests = list(np.array_split(rng.permutation(n), _FOLDS))
    tests += [rng.permutation(n)[:n_test] for _ in range(_HOLDOUTS)]
    for _ in range(5):
        perm = rng.permutation(n)
        tests += [perm[: n // 2], perm[n // 2:]]
    train = np.ones((len(tests), n), dtype=np.float32)
    for r, t in enumerate(tests):
        train[r, t] = 0.0
    sizes = np.array([len(t) for t in tests])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    rid = np.repeat(np.arange(len(tests)), sizes)
    return train, np.concatenate(tests), rid, starts, sizes


def _runs(starts, sizes):
    """The resamples as runs of consecutive test sets of one size: (first resample, number of
    resamples, test-set size, first test prediction) each; a run's predictions form a
    (resample x instance) block of the concatenated test predictions."""
    breaks = np.flatnonzero(np.diff(sizes)) + 1
    firsts = np.concatenate([[0], breaks])
    counts = np.diff(np.concatenate([firsts, [len(sizes)]]))
    return [(int(f), int(c), int(sizes[f]), int(starts[f])) for f, c in zip(firsts, counts)]


def _slots(n):
    """Test predictions one experiment makes on a data set of n: n + 30 (n // 3) + 5 n."""
    return n + _HOLDOUTS * (n // 3) + 5 * n


def _coefficients(stability, training_noise):
    """The float32 weights of the instance difficulty, the fresh noise and the training shift."""
    f32 = np.float32
    return f32(np.sqrt(stability)), f32(np.sqrt(1 - stability)), f32(training_noise)


class _Draws:
    """Standard normal draws of some experiments: per instance, the difficulty for A, the
    independent part of B's difficulty and the two training weights (``instance``, shape
    (experiments, 4, max_n)); per test prediction, fresh noise for A and for B
    (``prediction``, shape (experiments, 2, slots(max_n)))."""

    __slots__ = ("instance", "prediction", "__weakref__")

    def __init__(self, instance, prediction):
        self.instance, self.prediction = instance, prediction

    def first(self, k):
        return _Draws(self.instance[:k], self.prediction[:k])

    def predictions(self, rows, learner, out):
        """The prediction draws of ``learner`` for experiments ``rows``, into ``out`` (one row
        each, as many slots as ``out`` has columns)."""
        out[:] = self.prediction[rows, learner, :out.shape[1]]

    def prediction_at(self, experiments, learner, slots):
        """The prediction draws of ``learner`` at the given experiments and slots."""
        return self.prediction[experiments, learner, slots]


#: Prediction draws between two kept generator states of :class:`_RemadeDraws`.
_SPAN = 512
#: The first experiments whose prediction draws :class:`_RemadeDraws` keeps whole (7.3 MiB
#: at max_n = 600): a first look at them (:meth:`AlgorithmTestExperiments.head`) costs a
#: third as much as making their draws again.
_HEAD = 100


class _RemadeDraws:
    """The same draws as :class:`_Draws`, keeping the instance draws and, instead of the
    prediction draws (nine in ten of the numbers: 77 MB for 1000 experiments at max_n = 600),
    the generator's state before every ``_SPAN`` of them (about 1 MB): any prediction draw is
    made again, the same float32 number, from the state before it. A new setting of the
    scores makes its experiments' rows again; a score near a threshold makes at most
    ``_SPAN`` numbers. The prediction draws of the first ``_HEAD`` experiments are kept
    whole (``head``)."""

    __slots__ = ("instance", "_state", "_inc", "_head", "__weakref__")

    def __init__(self, instance, state, inc, head):
        # state: per (experiment, learner, span) the PCG64 state as (low 64 bits, high 64 bits,
        # has_uint32, uinteger): numpy's float32 normals take 32-bit words, half a 64-bit output
        # may be waiting
        self.instance, self._state, self._inc, self._head = instance, state, inc, head

    @classmethod
    def drawn(cls, n_experiments, max_n, seed, report):
        """The draws of :func:`_draw_chunks`, in the same stream order, keeping the states."""
        f32, slots = np.float32, _slots(max_n)
        spans = -(-slots // _SPAN)
        instance = np.empty((n_experiments, 4, max_n), f32)
        state = np.empty((n_experiments, 2, spans, 4), np.uint64)
        head = np.empty((min(_HEAD, n_experiments), 2, slots), f32)
        rng = np.random.default_rng(seed)
        bits = rng.bit_generator
        scratch = np.empty(_SPAN, f32)
        mask = 2 ** 64 - 1
        for start in range(0, n_experiments, _CHUNK):
            stop = min(start + _CHUNK, n_experiments)
            rng.standard_normal(out=instance[start:stop], dtype=f32)
            for e in range(start, stop):
                for j in range(2):
                    for s in range(spans):
                        now = bits.state
                        word = now["state"]["state"]
                        state[e, j, s] = (word & mask, word >> 64, now["has_uint32"], now["uinteger"])
                        span = slice(s * _SPAN, min((s + 1) * _SPAN, slots))
                        made = head[e, j, span] if e < len(head) else scratch[:span.stop - span.start]
                        rng.standard_normal(out=made, dtype=f32)
            report(stop / n_experiments)
        return cls(instance, state, bits.state["state"]["inc"], head)

    def first(self, k):
        if k <= len(self._head):
            return _Draws(self.instance[:k], self._head[:k])
        return _RemadeDraws(self.instance[:k], self._state[:k], self._inc, self._head)

    def _restart(self, rng, experiment, learner, span):
        """``rng`` set to the state before the span's first draw."""
        low, high, has, word = (int(x) for x in self._state[experiment, learner, span])
        rng.bit_generator.state = {"bit_generator": "PCG64", "state": {"state": low | high << 64, "inc": self._inc},
                                   "has_uint32": has, "uinteger": word}
        return rng

    def predictions(self, rows, learner, out):
        rng = np.random.Generator(np.random.PCG64(0))
        for i, e in enumerate(range(rows.start, rows.stop)):
            if e < len(self._head):
                out[i] = self._head[e, learner, :out.shape[1]]
            else:
                self._restart(rng, e, learner, 0).standard_normal(out=out[i], dtype=np.float32)

    def prediction_at(self, experiments, learner, slots):
        values = np.empty(len(slots), np.float32)
        experiments, slots = np.asarray(experiments), np.asarray(slots)
        kept = experiments < len(self._head)
        values[kept] = self._head[experiments[kept], learner, slots[kept]]
        if kept.all():
            return values
        made = ~kept
        values[made] = self._made_at(experiments[made], learner, slots[made])
        return values

    def _made_at(self, experiments, learner, slots):
        """Prediction draws made again, each from the state before its span."""
        values = np.empty(len(slots), np.float32)
        spans, offsets = np.divmod(slots, _SPAN)
        groups = experiments * self._state.shape[2] + spans
        order = np.argsort(groups, kind="stable")
        firsts = np.flatnonzero(np.diff(groups[order], prepend=-1))
        scratch, rng = np.empty(_SPAN, np.float32), np.random.Generator(np.random.PCG64(0))
        for a, b in zip(firsts, np.append(firsts[1:], len(order))):
            members = order[a:b]
            e, span = divmod(int(groups[members[0]]), self._state.shape[2])
            made = scratch[:int(offsets[members].max()) + 1]
            self._restart(rng, e, learner, span).standard_normal(out=made, dtype=np.float32)
            values[members] = made[offsets[members]]
        return values


def _draw_chunks(n_experiments, max_n, seed, into=None):
    """The draws of ``n_experiments`` experiments, ``_CHUNK`` at a time, in the order of one
    seeded stream: per chunk its instance draws, then its prediction draws (per experiment,
    A's then B's). Each chunk is drawn into the rows of ``into`` (draws of them all) if
    given, else into new arrays."""
    rng = np.random.default_rng(seed)
    f32 = np.float32
    for start in range(0, n_experiments, _CHUNK):
        rows = slice(start, min(start + _CHUNK, n_experiments))
        if into is None:
            size = rows.stop - rows.start
            chunk = _Draws(np.empty((size, 4, max_n), f32), np.empty((size, 2, _slots(max_n)), f32))
        else:
            chunk = _Draws(into.instance[rows], into.prediction[rows])
        rng.standard_normal(out=chunk.instance, dtype=f32)
        rng.standard_normal(out=chunk.prediction, dtype=f32)
        yield chunk


#: The draws alive in this kernel, by (experiments, max_n, seed, all kept): explorers and
#: lessons that ask for the same experiments share one copy.
_ALIVE = weakref.WeakValueDictionary()


def _shared_draws(n_experiments, max_n, seed, keep_draws, progress):
    """The draws of these experiments: the ones alive in this kernel, or their first rows
    when a larger draw of the same seed is alive and these are a prefix of it, or new
    (all kept if ``keep_draws``; draws kept whole also serve those that would remake them)."""
    draws = None
    for kept in (True,) if keep_draws else (False, True):
        draws = _ALIVE.get((n_experiments, max_n, seed, kept))
        for (size, n, s, whole), larger in list(_ALIVE.items()):
            if draws is None and whole == kept and n == max_n and s == seed and size > n_experiments \
                    and n_experiments % _CHUNK == 0:
                draws = larger.first(n_experiments)
        if draws is not None:
            break
    if draws is None:
        if keep_draws:
            f32, report = np.float32, _progress(progress)
            draws = _Draws(np.empty((n_experiments, 4, max_n), f32),
                           np.empty((n_experiments, 2, _slots(max_n)), f32))
            done = 0
            for chunk in _draw_chunks(n_experiments, max_n, seed, into=draws):
                done += len(chunk.instance)
                report(done / n_experiments)
        else:
            draws = _RemadeDraws.drawn(n_experiments, max_n, seed, _progress(progress))
    _ALIVE[(n_experiments, max_n, seed, isinstance(draws, _Draws))] = draws
    return draws


class AlgorithmTestExperiments:
    """The random numbers of ``n_experiments`` simulated experiments, reused across settings.

    The model of :func:`simulate_algorithm_tests` turns standard normal draws into errors
    by shifting and thresholding them. Drawing them once and transforming them for each
    setting of error, difference, stability, agreement and training noise (common random
    numbers) makes a new setting cost a few array operations instead of a new simulation,
    and makes neighbouring settings differ by the setting, not by Monte Carlo noise.
    Data sets of any size up to ``max_n`` use the first instances of the same draws.

    What is kept is the instance draws (4 ``max_n`` float32 numbers per experiment) and the
    generator states from which the prediction draws are made again, bit for bit, when a
    setting needs them, but the prediction draws of the first 100 experiments are kept
    whole for a quick first look (:meth:`head`): 18 MB for 1000 experiments at
    max_n = 600. With ``keep_draws``
    all the draws are kept (36 ``max_n`` float32 numbers per experiment, 86 MB), and a new
    setting of n, stability, agreement or training noise costs about a third as much CPU
    (making the draws again costs more than the rest of the setting). Objects with the
    same experiments share their draws. A setting's latent scores are made a few
    experiments at a time and reduced at once to the error counts the tests need: they
    would take 8 bytes per test prediction per experiment (77 MB for 1000 experiments at
    n = 600), and a setting's p-values take 56 bytes per experiment.

    Parameters
    ----------
    n_experiments : int
    max_n : int
        Largest data-set size to be simulated (>= 30).
    seed : int
    progress : callable, optional
        Called with the fraction drawn after each chunk of experiments.
    keep_draws : bool
        Keep all the draws: many settings asked for in turn cost less CPU, for about 5 times
        the memory at 1000 experiments; the numbers are the same either way. (The explorer
        does not: it answers a new setting by hand with its first 100 experiments, then all
        of them.)

    Examples
    --------
    >>> experiments = AlgorithmTestExperiments(200, max_n=300, seed=1)
    >>> sim = experiments.simulate(n=200, error=0.2, difference=0.05)
    >>> sorted(sim.rejection_rates) == sorted(ALGORITHM_TESTS)
    True
    """

    def __init__(self, n_experiments=500, max_n=600, seed=0, progress=None, *, keep_draws=False):
        self.n_experiments = v.integer("n_experiments", n_experiments, low=1)
        self.max_n = v.integer("max_n", max_n, low=30)
        self.seed = v.integer("seed", seed, low=0)
        if not isinstance(keep_draws, bool):
            raise TypeError(f"keep_draws must be True or False, got {keep_draws!r}")
        self._use(_shared_draws(self.n_experiments, self.max_n, self.seed, keep_draws, progress))

    @classmethod
    def _of(cls, draws, max_n, seed):
        """Experiments on given draws (no checks)."""
        experiments = object.__new__(cls)
        experiments.n_experiments, experiments.max_n, experiments.seed = len(draws.instance), max_n, seed
        experiments._use(draws)
        return experiments

    @classmethod
    def _piece(cls, draws, max_n, seed):
        """Experiments on some rows of draws (a chunk of a one-off simulation, a :meth:`head`):
        nothing is kept for them, and no other rows' rounded scores are taken for them."""
        experiments = cls._of(draws, max_n, seed)
        experiments._shared = False
        return experiments

    def _use(self, draws):
        self._draws = draws
        self._gathered = (None, None)  # (n, agreement) and what the draws give for it
        self._shared = True  # its rounded scores are kept for others with the same draws

    def first(self, n_experiments):
        """The first ``n_experiments`` of these experiments: equal to
        ``AlgorithmTestExperiments(n_experiments, max_n, seed)``, sharing these draws.

        The draws are made 200 experiments at a time, each chunk after the last, so a
        number of experiments that is a multiple of 200 (or this one's number) is a prefix
        of any larger draw with the same seed. (:meth:`head` gives any number of first rows.)

        Examples
        --------
        >>> AlgorithmTestExperiments(400, max_n=100, seed=1).first(200).n_experiments
        200
        """
        k = v.integer("n_experiments", n_experiments, low=1, high=self.n_experiments)
        if k % _CHUNK and k != self.n_experiments:
            raise ValueError(f"n_experiments must be a multiple of {_CHUNK} or {self.n_experiments} to be a "
                             f"prefix of these draws, got {n_experiments!r}")
        return self._of(self._draws.first(k), self.max_n, self.seed)

    def head(self, n_experiments=_HEAD):
        """The first ``n_experiments`` rows of these draws: a quick first look at a setting.

        Each experiment's p-values are those it has among all of these experiments. Unlike
        :meth:`first`, any number is allowed (so the result need not equal a smaller draw
        of the same seed) and the scores of its settings are not kept for later. The first
        100 experiments cost about a third as much as others: their draws are kept whole.

        Examples
        --------
        >>> AlgorithmTestExperiments(200, max_n=100, seed=1).head(50).n_experiments
        50
        """
        k = v.integer("n_experiments", n_experiments, low=1, high=self.n_experiments)
        return self._piece(self._draws.first(k), self.max_n, self.seed)

    def _gather(self, n, agreement):
        """Per instance: the difficulties for A and B; per resample: the hypotheses' quality
        shifts (training weight sums); the instance of each test prediction and the runs of
        equal test sets (kept for the last (n, agreement): a few numbers per instance)."""
        key, gathered = self._gathered
        if key != (n, agreement):
            train, idx, rid, starts, sizes = _design(n, self.seed)
            f32 = np.float32
            z_a, z_2, w_a, w_b = (self._draws.instance[:, i, :n] for i in range(4))
            z_b = f32(agreement) * z_a + f32(np.sqrt(1 - agreement ** 2)) * z_2
            root = np.sqrt(train.sum(axis=1))
            gathered = (np.ascontiguousarray(z_a), z_b, (w_a @ train.T) / root, (w_b @ train.T) / root,
                        idx, rid, _runs(starts, sizes), starts, sizes)
            self._gathered = ((n, agreement), gathered)
        return gathered

    def p_values(self, n, error_a, error_b, stability=0.9, agreement=0.5, training_noise=0.05):
        """Each test's p-values over the experiments, for one setting of the model."""
        if n > self.max_n:
            raise ValueError(f"n must be at most max_n = {self.max_n}, got {n!r}")
        return self._p_values(n, error_a, (error_b,), stability, agreement, training_noise)[0]

    def cv_differences(self, n=200, error=0.2, difference=0.0, *, stability=0.9, agreement=0.5,
                       training_noise=0.05):
        """The fold differences, error of A minus error of B, of each experiment's 10-fold CV.

        The numbers the "10-fold CV paired t" test sees, one row per experiment: run another
        test for paired fold differences on them (for instance the sign-flip test,
        :func:`evalteach.stats.permutation_test`) to compare its false-alarm rate.

        Examples
        --------
        >>> AlgorithmTestExperiments(20, max_n=100, seed=1).cv_differences(n=100).shape
        (20, 10)
        """
        n, error, difference, *_ = _checked_setting(n, error, difference, 0.05, stability, agreement,
                                                    training_noise)
        if n > self.max_n:
            raise ValueError(f"n must be at most max_n = {self.max_n}, got {n!r}")
        counts_a, (counts_b,), _, _, sizes = self._counts(n, error, (error + difference,), stability, agreement,
                                                          training_noise)
        folds = slice(0, _FOLDS)
        return (counts_a[:, folds] - counts_b[:, folds]) / sizes[folds]

    def _threshold(self, error, training_noise):
        """The latent score above which a hypothesis of expected error ``error`` errs."""
        return np.float32(-_special.ndtri(error) * np.sqrt(1 + training_noise ** 2))  # norm.isf, bit for bit

    def _latent_blocks(self, n, stability, agreement, training_noise):
        """The latent scores of A and B, ``_ROWS`` experiments at a time (they stay in the
        processor's cache): yields (rows, scores of shape (2, rows, test predictions)), the
        same array each time.

        A hypothesis' score on a test prediction is ``sqrt(stability) z[instance] +
        sqrt(1 - stability) eps + training_noise shift``; it errs when the score exceeds its
        threshold.
        """
        z_a, z_b, shift_a, shift_b, idx, rid, runs, starts, sizes = self._gather(n, agreement)
        size, slots = self.n_experiments, len(idx)
        root_s, root_1s, noise = _coefficients(stability, training_noise)
        latent, scaled = np.empty((2, _ROWS, slots), np.float32), np.empty((_ROWS, slots), np.float32)
        for start in range(0, size, _ROWS):
            rows = slice(start, min(start + _ROWS, size))
            count = rows.stop - rows.start
            for j, (z, shift) in enumerate(((z_a, shift_a), (z_b, shift_b))):
                out = latent[j, :count]
                self._draws.predictions(rows, j, out)
                out *= root_1s
                # each test prediction's instance difficulty, scaled per instance then spread
                out += np.take(root_s * z[rows], idx, axis=1, out=scaled[:count], mode="clip")
                # a hypothesis' shift is the same on all its test predictions: added to each
                # run of equal test sets as a (resample x 1) column
                for first, resamples, length, slot in runs:
                    run = np.reshape(out[:, slot:slot + resamples * length], (count, resamples, length), copy=False)
                    run += (noise * shift[rows, first:first + resamples])[:, :, None]
            yield rows, latent[:, :count]

    def _exact_scores(self, n, stability, agreement, training_noise, learner, experiments, slots):
        """The latent scores of ``learner`` (0: A, 1: B) on some test predictions, given by
        experiment and slot: the same float32 operations in the same order as
        :meth:`_latent_blocks`, so the same numbers."""
        z_a, z_b, shift_a, shift_b, idx, rid, *_ = self._gather(n, agreement)
        z, shift = (z_a, shift_a) if learner == 0 else (z_b, shift_b)
        root_s, root_1s, noise = _coefficients(stability, training_noise)
        scores = self._draws.prediction_at(experiments, learner, slots) * root_1s
        scores += root_s * z[experiments, idx[slots]]
        scores += noise * shift[experiments, rid[slots]]
        return scores

    def _counts(self, n, error_a, errors_b, stability, agreement, training_noise):
        """Errors per resample of A (expected error ``error_a``) and of B (each of ``errors_b``),
        and on the first holdout the predictions only A gets wrong and only B gets wrong.

        The first time a setting of n, stability, agreement and training noise is asked
        for, its scores are made (:meth:`_latent_blocks`) and compared; they are kept rounded
        to steps of 1/2048 in int16, shared by the experiments with these draws while they
        fit their cache. A new error or difference is then read from the rounded scores: one
        more than half a step from the threshold is on the same side as the exact score;
        those in the step around it (a few in ten thousand) are made exactly
        (:meth:`_exact_scores`). The counts are always those of the exact scores.
        """
        *_, starts, sizes = self._gather(n, agreement)
        setting = (n, stability, agreement, training_noise)
        t_a = self._threshold(error_a, training_noise)
        t_b = [self._threshold(e, training_noise) for e in errors_b]
        one = slice(starts[_FOLDS], starts[_FOLDS] + sizes[_FOLDS])  # the first holdout
        size = self.n_experiments
        counts_a = np.empty((size, len(starts)), np.int16)
        counts_b = np.empty((len(t_b), size, len(starts)), np.int16)
        only_a, only_b = np.empty((len(t_b), size), np.int64), np.empty((len(t_b), size), np.int64)
        key = (self.n_experiments, self.max_n, self.seed, *setting)
        rounded = _ROUNDED.lookup(key) if self._shared else None
        if rounded is None:
            blocks = self._compared_blocks(setting, key)
        else:
            def above(j, threshold, rows):
                scores = rounded[j, rows]
                # the one step whose scores may lie on either side of the threshold
                step = min(max(int(np.floor(float(threshold) * _STEP + 0.5)), -_LIMIT), _LIMIT)
                result = scores > step
                experiments, slots = np.divmod(np.flatnonzero(scores == step), scores.shape[1])
                result[experiments, slots] = self._exact_scores(*setting, j, rows.start + experiments, slots) > threshold
                return result

            blocks = [(rows, lambda j, t, rows=rows: above(j, t, rows))
                      for rows in (slice(start, min(start + _ROUNDED_ROWS, size))
                                   for start in range(0, size, _ROUNDED_ROWS))]
        for rows, errs in blocks:
            err_a = errs(0, t_a)
            counts_a[rows] = _segment_counts(err_a, starts)
            for i, threshold in enumerate(t_b):
                err_b = errs(1, threshold)
                counts_b[i, rows] = _segment_counts(err_b, starts)
                only_a[i, rows] = (err_a[:, one] & ~err_b[:, one]).sum(axis=1)
                only_b[i, rows] = (err_b[:, one] & ~err_a[:, one]).sum(axis=1)
        return counts_a, counts_b, only_a, only_b, sizes

    def _compared_blocks(self, setting, key):
        """Blocks of experiments, each with a comparison of its exact scores with a threshold;
        their rounded scores are kept (see :meth:`_counts`) unless this is a piece of a
        one-off simulation."""
        rounded = np.empty((2, self.n_experiments, _slots(setting[0])), np.int16) if self._shared else None
        for rows, latent in self._latent_blocks(*setting):
            yield rows, lambda j, threshold: latent[j] > threshold
            if rounded is not None:
                # a power of two: exact; a score beyond int16 is kept at its bound (it is on
                # the same side of any threshold within the bound)
                steps = latent * np.float32(_STEP)
                np.clip(np.rint(steps, out=steps), -_LIMIT, _LIMIT, out=steps)
                rounded[:, rows] = steps
        if rounded is not None:
            _ROUNDED.put(key, rounded)

    def _p_values(self, n, error_a, errors_b, stability, agreement, training_noise):
        """Each test's p-values of A (``error_a``) against B at each of ``errors_b``: one pass."""
        counts_a, counts_b, only_a, only_b, sizes = self._counts(n, error_a, errors_b, stability, agreement,
                                                                 training_noise)
        return [_tests_p_values(n, counts_a, counts_b[i], only_a[i], only_b[i], sizes)
                for i in range(len(errors_b))]

    def _setting_p_values(self, n, error, difference, stability, agreement, training_noise, null):
        """The p-values of a setting and, under a true difference, of the same with none
        (unless ``null`` is given): one pass over the draws for both."""
        if n > self.max_n:
            raise ValueError(f"n must be at most max_n = {self.max_n}, got {n!r}")
        if difference == 0:
            return self._p_values(n, error, (error,), stability, agreement, training_noise)[0], None
        if null is not None:
            return self._p_values(n, error, (error + difference,), stability, agreement, training_noise)[0], null
        null, p_values = self._p_values(n, error, (error, error + difference), stability, agreement,
                                        training_noise)
        return p_values, null

    def simulate(self, n=200, error=0.2, difference=0.0, *, alpha=0.05, stability=0.9, agreement=0.5,
                 training_noise=0.05, null=None):
        """An :class:`AlgorithmTestSimulation` for one setting (see :func:`simulate_algorithm_tests`).

        Under a true difference the same experiments are also run with none, to judge which
        tests keep their level; pass ``null``, the simulation of this setting with
        ``difference=0``, to reuse it instead.
        """
        n, error, difference, alpha, stability, agreement, training_noise = _checked_setting(
            n, error, difference, alpha, stability, agreement, training_noise)
        p_values, null_p_values = self._setting_p_values(n, error, difference, stability, agreement,
                                                         training_noise, None if null is None else null.p_values)
        return AlgorithmTestSimulation(p_values, {}, {}, alpha, self.n_experiments, difference, n,
                                       error, null_p_values).with_alpha(alpha)

    def scored(self, n=200, *, stability=0.9, agreement=0.5, training_noise=0.05):
        """Whether the scores of this setting of n, stability, agreement and training noise
        are at hand, kept from an earlier :meth:`simulate`: a new error, difference or alpha
        then costs a few array operations instead of making the scores again."""
        n, *_, stability, agreement, training_noise = _checked_setting(
            n, 0.5, 0.0, 0.05, stability, agreement, training_noise)
        key = (self.n_experiments, self.max_n, self.seed, n, stability, agreement, training_noise)
        return self._shared and _ROUNDED.lookup(key) is not None


def _checked_setting(n, error, difference, alpha, stability, agreement, training_noise):
    n = v.integer("n", n, low=30)
    error = v.real("error", error, low=0.0, high=1.0, low_open=True, high_open=True)
    difference = v.real("difference", difference)
    if not 0 < error + difference < 1:
        raise ValueError(f"difference must keep error + difference inside (0, 1), got {difference!r}")
    alpha = v.real("alpha", alpha, low=0.0, high=1.0, low_open=True, high_open=True)
    stability = v.real("stability", stability, low=0.0, high=1.0, high_open=True)
    agreement = v.real("agreement", agreement, low=0.0, high=1.0, high_open=True)
    training_noise = v.real("training_noise", training_noise, low=0.0)
    return n, error, difference, alpha, stability, agreement, training_noise


def _segment_counts(errors, starts):
    """Errors per resample (segments of a row starting at ``starts``); a test segment holds
    fewer than 32768 predictions, and counting bytes in int16 is a third of the default's cost."""
    return np.add.reduceat(errors.view(np.int8), starts, axis=1, dtype=np.int16)


def _tests_p_values(n, counts_a, counts_b, only_a, only_b, sizes):
    """The seven tests' p-values from the errors of A and B per resample and, on the first
    holdout, the predictions only A and only B get wrong."""
    size = counts_a.shape[0]
    rate_a, rate_b = counts_a / sizes, counts_b / sizes
    cv, holdouts, halves = slice(0, _FOLDS), slice(_FOLDS, _FOLDS + _HOLDOUTS), slice(_FOLDS + _HOLDOUTS, None)
    one = _FOLDS  # the first holdout
    n_test, n_train = sizes[one], n - sizes[one]
    half_differences = (rate_a[:, halves] - rate_b[:, halves]).reshape(size, 5, 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        return {
            "cv_t": paired_t_test(rate_a[:, cv], rate_b[:, cv]).p_value,
            "resampled_t": paired_t_test(rate_a[:, holdouts], rate_b[:, holdouts]).p_value,
            "corrected_t": corrected_resampled_t_test(rate_a[:, holdouts], rate_b[:, holdouts],
                                                      test_train_ratio=n_test / n_train).p_value,
            "5x2cv_t": five_by_two_cv_t_test(half_differences).p_value,
            "5x2cv_f": five_by_two_cv_f_test(half_differences).p_value,
            "mcnemar": mcnemar_test(only_b, only_a).p_value,
            "proportions": compare_hypotheses(rate_a[:, one], n_test, rate_b[:, one], n_test).p_value,
        }


def simulate_algorithm_tests(n=200, error=0.2, difference=0.0, *, alpha=0.05, n_experiments=500,
                             stability=0.9, agreement=0.5, training_noise=0.05, seed=0, progress=None):
    """Type-I error or power of seven tests for comparing two learners, in a statistical model.

    This is a *model* of two learners, not Dietterich's (1998) experiment with real
    learners on real data: no classifier is trained. Each experiment draws the 0/1 error
    of two learners A and B on every test instance of every resample from a statistical
    model that keeps what makes the tests differ:

    * a data set of ``n`` instances; instance i has latent difficulties ``z_A[i]`` and
      ``z_B[i]`` (standard normal, correlation ``agreement``: the learners tend to err
      on the same instances);
    * each resample trains a hypothesis on a training set T; its quality shift is
      ``training_noise * sum_{j in T} w[j] / sqrt(|T|)`` with ``w[j]`` standard normal
      per instance and learner, so two hypotheses trained on overlapping sets have
      shifts correlated by their overlap (the training-set dependence Dietterich blames);
    * the hypothesis errs on test instance i when
      ``sqrt(stability) z[i] + sqrt(1 - stability) eps + shift`` exceeds a threshold
      set so that its expected error is ``error`` (A) or ``error + difference`` (B);
      ``eps`` is fresh per resample, so the same instance tested twice errs with
      correlation ``stability`` (the test-set overlap of repeated holdouts).

    What it leaves out: how real learners respond to a smaller training set (every
    hypothesis has the same expected error whatever its training-set size), learning
    curves, class structure and anything specific to a learner or a data set. Its rates
    show how the tests' assumptions break under dependence, not the rates a given pair
    of learners would show.

    Each experiment then runs: 10-fold CV paired t; 30 random 2/3 : 1/3 holdouts with
    the paired t and Nadeau and Bengio's corrected t; 5x2cv t and F; McNemar (with
    continuity correction) and the difference-of-proportions z test on the first holdout.
    Everything is vectorised over experiments; the stats functions run on batches.
    The draws are those of ``AlgorithmTestExperiments(n_experiments, max_n=n, seed=seed)``,
    made and used 200 experiments at a time: only one chunk's draws are in memory at once.

    Parameters
    ----------
    n : int
        Data-set size (>= 30).
    error : float
        Expected error of learner A, in (0, 1).
    difference : float
        Expected error of B minus that of A (0: the null hypothesis is true).
    alpha : float
        Significance level of the rejection rates.
    n_experiments : int
        Number of simulated experiments B.
    stability, agreement : float
        Correlations described above, in [0, 1).
    training_noise : float
        Spread of a hypothesis' quality over training sets (latent units, >= 0).
    seed : int
    progress : callable, optional
        Called with the fraction done after each chunk of experiments.

    Returns
    -------
    AlgorithmTestSimulation
        ``p_values`` (test -> array of B p-values), ``rejection_rates`` (fraction with
        p < alpha), ``mc_error`` (binomial standard error of each rate); under a true
        difference also ``null_p_values`` (the same experiments with none) and
        ``valid_tests`` (those that keep alpha there).

    References
    ----------
    Dietterich (1998), Neural Computation 10(7); Alpaydin (1999); Nadeau & Bengio (2003).

    Examples
    --------
    >>> sim = simulate_algorithm_tests(n_experiments=200, seed=1)
    >>> sorted(sim.rejection_rates) == sorted(ALGORITHM_TESTS)
    True
    """
    n, error, difference, alpha, stability, agreement, training_noise = _checked_setting(
        n, error, difference, alpha, stability, agreement, training_noise)
    n_experiments = v.integer("n_experiments", n_experiments, low=1)
    seed = v.integer("seed", seed, low=0)
    report = _progress(progress)
    parts, done = [], 0
    for chunk in _draw_chunks(n_experiments, n, seed):  # one chunk's draws in memory at a time
        experiments = AlgorithmTestExperiments._piece(chunk, n, seed)
        parts.append(experiments._setting_p_values(n, error, difference, stability, agreement, training_noise,
                                                   None))
        done += experiments.n_experiments
        report(done / n_experiments)
    p_values = {name: np.concatenate([p[name] for p, _ in parts]) for name in ALGORITHM_TESTS}
    null = None if difference == 0 else {name: np.concatenate([q[name] for _, q in parts]) for name in ALGORITHM_TESTS}
    return AlgorithmTestSimulation(p_values, {}, {}, alpha, n_experiments, difference, n, error,
                                   null).with_alpha(alpha)


# --- reusing the test set to pick a model ------------------------------------------------

@result
class TestSetReuseSimulation(Result):
    """Reported against true error of the best of m models, for m = 1 .. m_max."""

    m: np.ndarray = field(repr=False)
    reused: np.ndarray = field(repr=False)
    reused_true: np.ndarray = field(repr=False)
    validated: np.ndarray = field(repr=False)
    validated_true: np.ndarray = field(repr=False)
    reused_se: np.ndarray = field(repr=False)
    validated_se: np.ndarray = field(repr=False)
    optimism: float
    validated_bias: float
    error: float
    n_test: int
    n_experiments: int
    example_true: np.ndarray = field(repr=False)
    example_test: np.ndarray = field(repr=False)
    example_validation: np.ndarray = field(repr=False)

    __test__ = False  # not a pytest class

    def _explain(self):
        m = int(self.m[-1])
        steps = [rf"\overline{{\min_j \hat e_j}} = {fmt(self.reused[-1])},\quad "
                 rf"\overline{{e_{{chosen}}}} = {fmt(self.reused_true[-1])},\quad "
                 rf"\text{{optimism}} = {fmt(self.optimism)}",
                 rf"\text{{validation split: reported}} - \text{{true}} = {fmt(self.validated_bias)}"]
        verdict = (f"Reporting the best test score of {m} models understates the chosen model's error "
                   f"by {fmt(self.optimism, 3)} on average; choosing on a validation set and reporting "
                   f"the untouched test set is off by only {fmt(self.validated_bias, 2)}.")
        return Explanation("Reusing the test set to choose a model",
                           [r"\text{optimism}(m) = E\left[e_{\arg\min_j \hat e_j}\right] - E\left[\min_{j\le m} \hat e_j\right]"],
                           steps, verdict)


def _running_argmin(x):
    """Index of the first minimum of x[:, :m] for every m (ties keep the earlier model)."""
    running = np.minimum.accumulate(x, axis=1)
    better = np.ones(x.shape, dtype=bool)
    better[:, 1:] = x[:, 1:] < running[:, :-1]
    return np.maximum.accumulate(np.where(better, np.arange(x.shape[1]), 0), axis=1)


class TestSetReuseExperiments:
    """The random draws of :func:`simulate_test_set_reuse`, kept for the next setting.

    The models' true errors, their test scores and their validation scores come from three
    streams of their own, seeded by (seed, 0), (seed, 1) and (seed, 2), and the last dozen
    draws are kept (a cache of :mod:`evalteach.simulate.result_cache`): a new test-set size
    redraws only the test scores, a new validation-set size only the validation scores, and
    m only selects. A simulation keeps its curves and one example experiment, not the draws.

    Parameters
    ----------
    m_max : int
        Models per experiment; curves run over m = 1 .. ``m_max``.
    n_experiments : int
    seed : int

    Examples
    --------
    >>> experiments = TestSetReuseExperiments(30, n_experiments=500)
    >>> experiments.simulate(error=0.2, n_test=100).optimism > 0
    True
    """

    __test__ = False  # not a pytest class
    #: Draws kept (of any stream).
    kept = 12

    def __init__(self, m_max=20, n_experiments=2000, seed=0):
        self.m_max = v.integer("m", m_max, low=1)
        self.n_experiments = v.integer("n_experiments", n_experiments, low=2)
        self.seed = v.integer("seed", seed, low=0)
        shape = (self.n_experiments, self.m_max)
        self._z = np.random.default_rng([self.seed, 0]).standard_normal(shape)
        self._draws = ResultCache("test-set reuse draws", self.kept * (8 * self._z.size + 1024))

    def _true(self, error, spread):
        return self._draws.get(("true", error, spread), lambda: np.clip(error + spread * self._z, 0.001, 0.999))

    def _scores(self, stream, n, error, spread):
        """Error rates on a set of n instances: Binomial(n, true error) / n, from ``stream``."""
        true = self._true(error, spread)
        return self._draws.get((stream, n, error, spread), lambda: np.random.default_rng(
            [self.seed, 1 if stream == "test" else 2]).binomial(n, true) / n)

    def simulate(self, error=0.2, n_test=100, *, n_validation=100, spread=0.0):
        """A :class:`TestSetReuseSimulation` for one setting (see :func:`simulate_test_set_reuse`)."""
        error = v.probability("error", error)
        n_test = v.integer("n_test", n_test, low=1)
        n_validation = v.integer("n_validation", n_validation, low=1)
        spread = v.real("spread", spread, low=0.0)
        true = self._true(error, spread)
        test = self._scores("test", n_test, error, spread)
        validation = self._scores("validation", n_validation, error, spread)
        rows = np.arange(self.n_experiments)[:, None]
        by_test, by_validation = _running_argmin(test), _running_argmin(validation)
        reused, reused_true = test[rows, by_test], true[rows, by_test]
        validated, validated_true = test[rows, by_validation], true[rows, by_validation]
        sqrt_b = np.sqrt(self.n_experiments)
        return TestSetReuseSimulation(
            m=np.arange(1, self.m_max + 1), reused=reused.mean(0), reused_true=reused_true.mean(0),
            validated=validated.mean(0), validated_true=validated_true.mean(0),
            reused_se=(reused_true - reused).std(0, ddof=1) / sqrt_b,
            validated_se=(validated - validated_true).std(0, ddof=1) / sqrt_b,
            optimism=float((reused_true - reused)[:, -1].mean()),
            validated_bias=float((validated - validated_true)[:, -1].mean()),
            error=error, n_test=n_test, n_experiments=self.n_experiments,
            # copies: a row of the draws would keep all of them alive with the result
            example_true=true[0].copy(), example_test=test[0].copy(), example_validation=validation[0].copy(),
        )


def simulate_test_set_reuse(m=20, error=0.2, n_test=100, *, n_validation=100, spread=0.0,
                            n_experiments=2000, seed=0):
    """Pick the best of m models by test score, report that score; against a validation split.

    Each experiment has ``m`` models (e.g. hyper-parameter settings) with true errors
    ``error + spread * N(0, 1)`` (clipped to [0.001, 0.999]). Their test-set errors are
    Binomial(``n_test``, e_j) / ``n_test``. Reusing the test set reports the smallest
    test error; the proper procedure chooses the model with the smallest error on an
    independent validation set of ``n_validation`` and reports its test error. The draws
    come from :class:`TestSetReuseExperiments` (``m_max = m``).

    Returns
    -------
    TestSetReuseSimulation
        Mean curves over m = 1 .. ``m`` (``reused``: reported best test score,
        ``reused_true``: true error of that model, ``validated``: test score of the
        validation-chosen model, ``validated_true``: its true error) with standard errors,
        ``optimism`` (true minus reported at m) and ``validated_bias`` (reported minus true),
        and one example experiment's errors.

    References
    ----------
    Witten, Frank & Hall, *Data Mining*, ch. 5 (parameter tuning); Cawley & Talbot (2010).

    Examples
    --------
    >>> sim = simulate_test_set_reuse(m=30, n_experiments=500)
    >>> sim.optimism > 0
    True
    """
    experiments = TestSetReuseExperiments(m, n_experiments, seed)
    return experiments.simulate(error, n_test, n_validation=n_validation, spread=spread)


# --- resampling estimates of a real learner's error ---------------------------------------

#: Error-estimation methods of :func:`resampling_estimates`, by short name -> label.
RESAMPLING_METHODS = {
    "holdout": "holdout (1/3 test)",
    "stratified": "stratified holdout",
    "repeated": "repeated holdout (k repeats)",
    "kfold": "stratified k-fold CV",
    "loo": "leave-one-out",
    "bootstrap": "bootstrap (out-of-bag)",
    "632": ".632 bootstrap",
    "632plus": ".632+ bootstrap",
}


@result
class ResamplingEstimates(Result):
    """Repeated estimates of one learner's error by one method, against a large held-out set."""

    method: str
    estimates: np.ndarray
    true_error: float
    resub_error: float
    splits: list = field(repr=False)
    fold_errors: np.ndarray = field(repr=False)
    n: int = field(repr=False)

    @property
    def mean(self):
        """Average estimate over the repetitions."""
        return float(self.estimates.mean())

    @property
    def sd(self):
        """Spread of the estimate over the repetitions."""
        return float(self.estimates.std(ddof=1)) if self.estimates.size > 1 else 0.0

    def _explain(self):
        steps = [rf"\overline{{\widehat{{err}}}} = {fmt(self.mean)},\quad s = {fmt(self.sd)},\quad "
                 rf"\text{{held-out error}} = {fmt(self.true_error)}"]
        verdict = (f"The {RESAMPLING_METHODS[self.method]} estimate averages {pct(self.mean)} over "
                   f"{self.estimates.size} repetitions (SD {pct(self.sd)}); a large held-out set gives "
                   f"{pct(self.true_error)}.")
        return Explanation("Resampling estimate of a learner's error",
                           [r"\widehat{err} = \frac{\#\text{errors on the test parts}}{\#\text{test predictions}}"],
                           steps, verdict)


def _fit_predict(learner, X_train, y_train, X_test):
    classes = np.unique(y_train)
    if classes.size == 1:  # a resample with one class only: every learner predicts it
        return np.full(len(X_test), classes[0])
    from ..learners import fitting

    with fitting():
        return learner.fit(X_train, y_train).predict(X_test)


#: Each method's family of splits: methods of one family share their fits.
_FAMILY = {"holdout": 0, "stratified": 1, "repeated": 2, "kfold": 3, "loo": 4,
           "bootstrap": 5, "632": 5, "632plus": 5}


class ResamplingFits:
    """One learner fitted on the splits of every resampling method of one data set, cached.

    :func:`resampling_estimates` of any method, ``k`` and number of repetitions is computed
    from the test errors of the fits, and each fit is made once. Repeated holdout and the
    bootstrap draw each repetition's k holdouts or samples one after another from a stream
    of its own, so ``k = 7`` reuses the first seven of ``k = 10``, and the .632 and .632+
    bootstraps reuse the plain bootstrap's samples. Holdout, stratified holdout and k-fold
    draw one shuffle per repetition from one stream, whatever k; k-fold partitions for
    different k share no training set, so each k has fits of its own. An explorer keeps
    one object per data set and learner and asks it again and again.

    Parameters
    ----------
    X, y, X_heldout, y_heldout, learner, seed
        As in :func:`resampling_estimates`.

    References
    ----------
    Witten & Frank, *Data Mining*, ch. 5; Efron & Tibshirani (1997) for .632+.
    """

    def __init__(self, X, y, X_heldout, y_heldout, learner="1nn", *, seed=0):
        from ..learners import make_learner

        self.X, self.X_heldout = v.array("X", X, ndim=2), v.array("X_heldout", X_heldout, ndim=2)
        self.y, self.y_heldout = v.array("y", y, dtype=int), v.array("y_heldout", y_heldout, dtype=int)
        v.same_length(X=self.X, y=self.y)
        v.same_length(X_heldout=self.X_heldout, y_heldout=self.y_heldout)
        self.seed = v.integer("seed", seed, low=0)
        self._model = make_learner(learner)
        self._whole = None    # (resubstitution error, held-out error, gamma) of the model trained on all
        # (family, rep, k of k-fold or 0, index) -> test errors of that fit: a small integer per
        # fit made, kept with the object as a fitted model keeps its coefficients
        self._wrong = {}
        # the splits of the last draws (one picture asks for the same draws several times: up
        # to 20 repetitions of 20 bootstrap samples, about 1 MB at n = 200), and the estimates
        # (each with its first repetition's splits)
        self._recent = ResultCache("resampling splits", 4 * 2**20)
        self._estimates = ResultCache("resampling estimates", 2 * 2**20)

    @property
    def n(self):
        """Instances in the data set the estimates may use."""
        return len(self.y)

    @property
    def whole_fitted(self):
        """Whether the model trained on all of (X, y) has been fitted (its errors are known)."""
        return self._whole is not None

    def fit_whole(self):
        """The model trained on all of (X, y): its resubstitution and held-out errors, and the
        no-information error gamma of .632+ (fitted on first use)."""
        if self._whole is None:
            from ..stats import no_information_error

            # one fit, both predictions (the rows of X first)
            pred = _fit_predict(self._model, self.X, self.y, np.concatenate([self.X, self.X_heldout]))
            resub_pred, heldout_pred = pred[:len(self.y)], pred[len(self.y):]
            self._whole = (float(np.mean(resub_pred != self.y)),
                           float(np.mean(heldout_pred != self.y_heldout)),
                           no_information_error(self.y, resub_pred))
        return self._whole

    @property
    def resub_error(self):
        """Resubstitution error of the model trained on all of (X, y)."""
        return self.fit_whole()[0]

    @property
    def true_error(self):
        """Error on the large held-out set of the model trained on all of (X, y)."""
        return self.fit_whole()[1]

    @property
    def gamma(self):
        """No-information error rate of the model trained on all of (X, y) (for .632+)."""
        return self.fit_whole()[2]

    def _checked(self, method, k, repetitions):
        v.choice("method", method, tuple(RESAMPLING_METHODS))
        k = v.integer("k", k, low=2, high=self.n)
        repetitions = v.integer("repetitions", repetitions, low=1)
        return k, repetitions, 1 if method == "loo" else repetitions  # leave-one-out has no randomness

    def _draws(self, method, k, runs):
        """Each repetition's splits, with the keys of their fits (the last draws kept)."""
        return self._recent.get((method, k, runs), lambda: self._draw_splits(method, k, runs))

    def _draw_splits(self, method, k, runs):
        from ..stats import (bootstrap_samples, holdout_split, kfold_splits, leave_one_out_splits,
                             repeated_holdout_splits)

        family, n, y = _FAMILY[method], self.n, self.y
        stream = np.random.default_rng(self.seed)
        if method == "holdout":
            reps = [[holdout_split(n, seed=stream)] for _ in range(runs)]
        elif method == "stratified":
            reps = [[holdout_split(n, stratify=y, seed=stream)] for _ in range(runs)]
        elif method == "kfold":
            reps = [kfold_splits(n, k=k, stratify=y, seed=stream) for _ in range(runs)]
        elif method == "loo":
            reps = [leave_one_out_splits(n)]
        else:  # repeated holdout and bootstrap: a stream per repetition, drawn one split after another
            draw = repeated_holdout_splits if method == "repeated" else bootstrap_samples
            reps = [draw(n, k, seed=np.random.default_rng([self.seed, family, rep])) for rep in range(runs)]
        fold_k = k if method == "kfold" else 0
        return [(splits, [(family, rep, fold_k, i) for i in range(len(splits))])
                for rep, splits in enumerate(reps)]

    def unfitted(self, method="kfold", k=10, repetitions=20):
        """The fits ``estimates(method, k, repetitions)`` needs and no call has made yet:
        a list of (key, split) to give to :meth:`fit`, whole or in parts."""
        k, _, runs = self._checked(method, k, repetitions)
        return [(key, split) for splits, keys in self._draws(method, k, runs)
                for key, split in zip(keys, splits) if key not in self._wrong]

    def splits(self, method="kfold", k=10, repetitions=20):
        """The first repetition's splits of ``method``: a list of (train, test) index arrays."""
        k, _, runs = self._checked(method, k, repetitions)
        return self._draws(method, k, runs)[0][0]

    def fitted_repetitions(self, method="kfold", k=10, repetitions=20):
        """How many of the first repetitions have all their fits made: ``estimates`` of that
        many repetitions needs no new fit (they are the first ones of ``repetitions``)."""
        k, repetitions, runs = self._checked(method, k, repetitions)
        done = 0
        for _, keys in self._draws(method, k, runs):
            if any(key not in self._wrong for key in keys):
                break
            done += 1
        return repetitions if done == runs else done

    def fit(self, unfitted, *, progress=None):
        """Make the fits listed by :meth:`unfitted` (``progress`` gets the fraction done)."""
        report, step = _progress(progress), max(len(unfitted) // 20, 1)
        for done, (key, (train, test)) in enumerate(unfitted, 1):
            if key not in self._wrong:
                predicted = _fit_predict(self._model, self.X[train], self.y[train], self.X[test])
                self._wrong[key] = int(np.sum(predicted != self.y[test]))
            if done % step == 0 or done == len(unfitted):
                report(done / len(unfitted))

    def estimates(self, method="kfold", k=10, repetitions=20, *, progress=None):
        """The estimates of :func:`resampling_estimates`, fitting only what is not cached yet."""
        k, repetitions, runs = self._checked(method, k, repetitions)
        return self._estimates.get((method, k, repetitions),
                                   lambda: self._estimated(method, k, repetitions, runs, progress))

    def _estimated(self, method, k, repetitions, runs, progress):
        from ..stats import bootstrap_632, bootstrap_632_plus

        reps = self._draws(method, k, runs)
        self.fit([(fit, split) for splits, keys in reps for fit, split in zip(keys, splits)
                  if fit not in self._wrong], progress=progress)
        wrong = np.array([[self._wrong[fit] for fit in keys] for _, keys in reps], dtype=float)
        sizes = np.array([[len(test) for _, test in splits] for splits, _ in reps], dtype=float)
        pooled = wrong.sum(axis=1) / np.maximum(sizes.sum(axis=1), 1)
        if method == "repeated":
            estimates = np.mean(wrong / sizes, axis=1)
        elif method == "632":
            estimates = np.array([bootstrap_632(self.resub_error, e).estimate for e in pooled])
        elif method == "632plus":
            estimates = np.array([bootstrap_632_plus(self.resub_error, e, self.gamma).estimate for e in pooled])
        else:
            estimates = pooled
        if method == "loo":
            estimates = np.repeat(estimates, repetitions)
        return ResamplingEstimates(method, estimates, self.true_error, self.resub_error, reps[0][0],
                                   wrong[0] / np.maximum(sizes[0], 1), self.n)


def resampling_estimates(X, y, X_heldout, y_heldout, learner="1nn", method="kfold", *, k=10,
                         repetitions=20, seed=0, progress=None):
    """Estimate a learner's error by resampling (X, y), repeatedly, and on a large held-out set.

    Parameters
    ----------
    X, y : arrays
        The (small) data set the estimate may use.
    X_heldout, y_heldout : arrays
        A large independent set: the error there of the learner trained on all of
        (X, y) stands in for its true error.
    learner : str
        A name from :data:`evalteach.learners.LEARNERS`.
    method : str
        One of :data:`RESAMPLING_METHODS`: ``"holdout"``, ``"stratified"`` (stratified
        holdout), ``"repeated"`` (k holdouts, averaged), ``"kfold"`` (stratified k-fold),
        ``"loo"``, ``"bootstrap"`` (pooled out-of-bag error of k bootstrap samples),
        ``"632"`` and ``"632plus"`` (combined with the resubstitution error of the
        learner trained on all of (X, y)).
    k : int
        Folds, holdout repeats or bootstrap samples.
    repetitions : int
        How often the whole method is rerun with new random splits (leave-one-out has
        no randomness: it runs once and is repeated as is). Holdout and k-fold draw
        one shuffle per repetition from ``seed``'s stream; repeated holdout and the
        bootstrap draw repetition r's splits from the stream of (seed, method, r), so
        that a smaller k takes the first k splits of a larger one.

    Returns
    -------
    ResamplingEstimates
        ``estimates`` (one per repetition), ``true_error`` (held-out), ``resub_error``,
        the first repetition's ``splits`` and their ``fold_errors``.

    References
    ----------
    Witten & Frank, *Data Mining*, ch. 5; Efron & Tibshirani (1997) for .632+.
    """
    fits = ResamplingFits(X, y, X_heldout, y_heldout, learner, seed=seed)
    return fits.estimates(method, k, repetitions, progress=progress)
