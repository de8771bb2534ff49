"""A published table of results for comparing several algorithms over many data sets.

Demsar (2006), "Statistical comparisons of classifiers over multiple data sets", JMLR 7,
Table 6: the area under the ROC curve (AUC) of C4.5 with default settings and with its
``m`` (minimal examples in a leaf) and ``cf`` (pruning confidence) parameters tuned, on
14 UCI data sets. The first two columns are also the paper's Table 2 (C4.5 against
C4.5+m, the Wilcoxon example: R+ = 93, R- = 12).

The paper's worked example reports average ranks 3.143, 2.000, 2.893, 1.964,
chi2_F = 9.28 and F_F = 3.69, and the Nemenyi CD = 1.25 at alpha = 0.05.

One printed value cannot give those ranks: rounded to three decimals, the ``voting`` row
ties C4.5+cf and C4.5+m+cf at 0.975, which would give ranks 2.929 and 1.929. The paper
ranks C4.5+cf ahead there (its unrounded AUCs differ), so ``DEMSAR_AUC`` stores C4.5+cf on
``voting`` as 0.9751, the smallest four-decimal value that restores the paper's ranking;
``DEMSAR_AUC_PRINTED`` keeps the table exactly as printed. ``mushroom`` is a true full tie
(1.000 for all four); Demsar's chi2_F has no tie correction, which is the default of
:func:`evalteach.stats.friedman_test`. With both, the paper's numbers are reproduced
exactly (tests check this).
"""
from __future__ import annotations

import numpy as np

__all__ = ["DEMSAR_ALGORITHMS", "DEMSAR_DATASETS", "DEMSAR_AUC", "DEMSAR_AUC_PRINTED"]

DEMSAR_ALGORITHMS = ("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf")
DEMSAR_DATASETS = (
    "adult (sample)", "breast cancer", "breast cancer wisconsin", "cmc", "ionosphere", "iris",
    "liver disorders", "lung cancer", "lymphography", "mushroom", "primary tumor", "rheum",
    "voting", "wine",
)
#: The table as printed: rows are data sets (``DEMSAR_DATASETS``), columns algorithms
#: (``DEMSAR_ALGORITHMS``).
DEMSAR_AUC_PRINTED = np.array([
    [0.763, 0.768, 0.771, 0.798],
    [0.599, 0.591, 0.590, 0.569],
    [0.954, 0.971, 0.968, 0.967],
    [0.628, 0.661, 0.654, 0.657],
    [0.882, 0.888, 0.886, 0.898],
    [0.936, 0.931, 0.916, 0.931],
    [0.661, 0.668, 0.609, 0.685],
    [0.583, 0.583, 0.563, 0.625],
    [0.775, 0.838, 0.866, 0.875],
    [1.000, 1.000, 1.000, 1.000],
    [0.940, 0.962, 0.965, 0.962],
    [0.619, 0.666, 0.614, 0.669],
    [0.972, 0.981, 0.975, 0.975],
    [0.957, 0.978, 0.946, 0.970],
])
DEMSAR_AUC_PRINTED.setflags(write=False)

#: The printed table with the ``voting`` tie resolved as the paper ranks it (see above).
DEMSAR_AUC = DEMSAR_AUC_PRINTED.copy()
DEMSAR_AUC[DEMSAR_DATASETS.index("voting"), DEMSAR_ALGORITHMS.index("C4.5+cf")] = 0.9751
DEMSAR_AUC.setflags(write=False)
