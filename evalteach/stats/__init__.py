"""The statistics of the lecture block: pure numpy/scipy, no plotting, no widgets.

Every name is also importable from :mod:`evalteach`.
"""
from . import bayesian, examples, intervals, losses, multiple, numeric, randomization, resampling, roc, tests
from .bayesian import *  # noqa: F401,F403
from .examples import *  # noqa: F401,F403
from .intervals import *  # noqa: F401,F403
from .losses import *  # noqa: F401,F403
from .multiple import *  # noqa: F401,F403
from .numeric import *  # noqa: F401,F403
from .randomization import *  # noqa: F401,F403
from .resampling import *  # noqa: F401,F403
from .roc import *  # noqa: F401,F403
from .tests import *  # noqa: F401,F403

__all__ = [
    *intervals.__all__,
    *tests.__all__,
    *multiple.__all__,
    *roc.__all__,
    *resampling.__all__,
    *losses.__all__,
    *bayesian.__all__,
    *randomization.__all__,
    *numeric.__all__,
    *examples.__all__,
]
