"""Vectorised Monte Carlo simulations (numpy, no Python loop over trials), all seeded.

Built on :mod:`evalteach.stats`; the explorers in :mod:`evalteach.widgets` draw them.
Results that cost a fit or a simulation are kept in caches bounded in bytes
(:mod:`evalteach.simulate.result_cache`): :func:`cache_bytes` says what they hold,
:func:`clear_caches` empties them.
"""
from . import comparison, curves, experiments, intervals, learner_scores, repeated_partitions, sampling
from .comparison import *  # noqa: F401,F403
from .curves import *  # noqa: F401,F403
from .experiments import *  # noqa: F401,F403
from .intervals import *  # noqa: F401,F403
from .learner_scores import *  # noqa: F401,F403
from .repeated_partitions import *  # noqa: F401,F403
from .result_cache import cache_bytes, clear_caches
from .sampling import *  # noqa: F401,F403

__all__ = [*sampling.__all__, *intervals.__all__, *experiments.__all__, *comparison.__all__,
           *curves.__all__, *learner_scores.__all__,
           *repeated_partitions.__all__, "cache_bytes", "clear_caches"]
