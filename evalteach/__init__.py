"""evalteach: interactive lessons on evaluating hypotheses and comparing learning algorithms.

The statistics (:mod:`evalteach.stats`) are imported on first use of a name; Demšar's (2006)
table of AUCs (``DEMSAR_AUC`` with ``DEMSAR_ALGORITHMS`` and ``DEMSAR_DATASETS``) at once; the simulations
(:mod:`evalteach.simulate`) and the explorers (:mod:`evalteach.widgets`) on first use.

Examples
--------
>>> import evalteach as et
>>> et.proportion_interval(12, 40)            # doctest: +SKIP
>>> et.SamplingErrorExplorer(error=0.3, n=40)  # doctest: +SKIP
"""
import importlib

from . import stats
from .data import load_dataset, random_dataset
from .example_scores import DEMSAR_ALGORITHMS, DEMSAR_AUC, DEMSAR_AUC_PRINTED, DEMSAR_DATASETS
from .learners import make_learner
from .plotting import presenter

__version__ = "0.1.0"

#: Loaded on first use, so ``import evalteach`` costs little more than numpy
#: (``benchmarks/run.py`` prints the ratio; in JupyterLite every second counts).
_LAZY_MODULES = ("simulate", "widgets")


def __getattr__(name):
    if name in _LAZY_MODULES:
        return importlib.import_module(f".{name}", __name__)
    if name in stats.__all__:
        return getattr(stats, name)
    widgets = importlib.import_module(".widgets", __name__)
    if name in widgets.__all__:
        return getattr(widgets, name)
    simulate = importlib.import_module(".simulate", __name__)
    if name in simulate.__all__:
        return getattr(simulate, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    widgets = importlib.import_module(".widgets", __name__)
    return sorted(set(globals()) | set(stats.__all__) | set(widgets.__all__))


__all__ = [*stats.__all__, "load_dataset", "random_dataset", "make_learner", "presenter",
           "DEMSAR_AUC", "DEMSAR_ALGORITHMS", "DEMSAR_DATASETS", "DEMSAR_AUC_PRINTED", "simulate", "widgets"]
