"""`import evalteach` stays light: scipy, scikit-learn and matplotlib load when first used.

The time itself is measured in ``benchmarks/import_time.py`` (``make bench``), not here:
a test checks what is imported, which is deterministic.
"""
from __future__ import annotations

import importlib
import subprocess
import sys

import evalteach
from evalteach import stats

HEAVY = ("scipy", "sklearn", "matplotlib", "ipywidgets", "pandas")


def test_import_evalteach_loads_no_heavy_library():
    code = ("import sys, evalteach; "
            f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == []


def test_the_name_map_matches_every_submodule():
    for module, names in stats.PUBLIC.items():
        assert tuple(importlib.import_module(f"evalteach.stats.{module}").__all__) == names, module
    assert len(set(stats.__all__)) == len(stats.__all__)


def test_every_public_name_resolves_from_both_packages():
    for name in stats.__all__:
        assert getattr(evalteach, name) is getattr(stats, name) is getattr(
            importlib.import_module(f"evalteach.stats.{stats._WHERE[name]}"), name)
    for name in evalteach.__all__:
        assert getattr(evalteach, name) is not None
    assert set(stats.__all__) <= set(dir(evalteach))


def test_from_import_works_on_the_lazy_packages():
    namespace = {}
    exec("from evalteach.stats import proportion_interval, paired_t_test\n"
         "from evalteach import wilcoxon_test, Predict", namespace)
    assert namespace["proportion_interval"](12, 40).high > 0.44


def test_demsar_table_is_public_without_scipy():
    from evalteach import example_scores

    assert evalteach.DEMSAR_AUC is example_scores.DEMSAR_AUC and evalteach.DEMSAR_AUC.shape == (14, 4)
    assert len(evalteach.DEMSAR_ALGORITHMS) == 4 and len(evalteach.DEMSAR_DATASETS) == 14
    assert {"DEMSAR_AUC", "DEMSAR_ALGORITHMS", "DEMSAR_DATASETS"} <= set(evalteach.__all__) & set(dir(evalteach))
    code = "import sys, evalteach; evalteach.DEMSAR_AUC; print('scipy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
