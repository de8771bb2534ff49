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
from . import simulate, stats, widgets
from ._lazy import lazy_names
from .data import load_dataset, random_dataset
from .example_scores import DEMSAR_ALGORITHMS, DEMSAR_AUC, DEMSAR_AUC_PRINTED, DEMSAR_DATASETS
from .learners import make_learner
from .plotting import presenter

__version__ = "0.1.0"

# The three subpackages' __init__ modules only list their names; a name is imported (with
# scipy, scikit-learn or ipywidgets) on first use (``benchmarks/run.py`` prints the cost of
# ``import evalteach``; in JupyterLite every second counts). Statistics win a clash of names.
_WHERE = {**{name: "simulate" for name in simulate.__all__}, **{name: "widgets" for name in widgets.__all__},
          **{name: "stats" for name in stats.__all__}}
__getattr__, __dir__ = lazy_names(__name__, _WHERE)

__all__ = [*stats.__all__, "load_dataset", "random_dataset", "make_learner", "presenter",
           "DEMSAR_AUC", "DEMSAR_ALGORITHMS", "DEMSAR_DATASETS", "DEMSAR_AUC_PRINTED", "simulate", "widgets"]
