"""`import evalteach` stays light: scipy, scikit-learn and matplotlib load when first used.

The time itself is measured in ``benchmarks/import_time.py`` (``make bench``), not here:
a test checks what is imported, which is deterministic.
"""
from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import evalteach
from evalteach import simulate, stats, widgets

HEAVY = ("scipy", "sklearn", "matplotlib", "ipywidgets", "pandas")


def test_import_evalteach_loads_no_heavy_library():
    code = ("import sys, evalteach; "
            f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == []


def _heavy_after(code):
    """The heavy libraries loaded after ``import evalteach`` and ``code``, in a fresh interpreter."""
    script = f"import sys, evalteach\n{code}\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return out.stdout.split()


@pytest.mark.parametrize("code", [
    "assert not hasattr(evalteach, 'typo')",
    "assert not hasattr(evalteach.stats, 'typo') and not hasattr(evalteach.simulate, 'typo')",
    "assert not hasattr(evalteach.widgets, 'typo')",
    "assert 'paired_t_test' in dir(evalteach) and 'sample_errors' in dir(evalteach)",
])
def test_a_name_look_up_imports_nothing_heavy(code):
    assert _heavy_after(code) == []


def test_a_name_is_imported_with_its_module_only():
    assert _heavy_after("evalteach.z_critical") == ["scipy"]


@pytest.mark.parametrize("package", [stats, simulate])
def test_the_name_map_matches_every_submodule(package):
    for module, names in package.PUBLIC.items():
        assert tuple(importlib.import_module(f"{package.__name__}.{module}").__all__) == names, module
    assert len(set(package.__all__)) == len(package.__all__)


def test_every_simulation_and_explorer_name_resolves_from_evalteach():
    for name in simulate.__all__:
        assert getattr(evalteach, name) is getattr(simulate, name)
    for name in widgets.__all__:
        assert getattr(evalteach, name) is getattr(widgets, name)
    assert evalteach.simulate.curves is importlib.import_module("evalteach.simulate.curves")


def test_an_unknown_name_raises_attribute_error_naming_it():
    for package in (evalteach, stats, simulate, widgets):
        with pytest.raises(AttributeError, match="typo"):
            package.typo


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
