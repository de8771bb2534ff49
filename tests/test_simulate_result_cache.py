"""Caches of computed results: bounded in bytes, least recently used first out, cleared at once."""
import dataclasses

import numpy as np
import pytest

from evalteach.simulate import cache_bytes, clear_caches
from evalteach import simulate
from evalteach.simulate import learner_scores
from evalteach.simulate.result_cache import ResultCache, cached, size_of

MB = 2**20


def array(mb, fill=0.0):
    return np.full(int(mb * MB) // 8, fill)


def test_size_of_counts_data_containers_and_each_object_once():
    a = np.zeros(1000)
    assert a.nbytes <= size_of(a) < a.nbytes + 200
    assert size_of(a[:10]) >= a.nbytes  # a view keeps its whole base alive
    assert size_of((a, a)) < 2 * a.nbytes  # the same array twice is held once
    assert size_of({"x": a, "y": [a[:5], 3]}) >= a.nbytes

    @dataclasses.dataclass
    class Pair:
        first: np.ndarray
        second: np.ndarray

    assert size_of(Pair(np.zeros(100), np.zeros(300))) >= 3200
    assert size_of(np.frombuffer(bytes(800))) >= 800  # data owned by something else


def test_the_least_recently_used_go_first_once_the_bytes_pass_the_bound():
    cache = ResultCache("test", max_bytes=3.5 * MB)
    for key in "abc":
        cache.get(key, lambda: array(1))
    assert len(cache) == 3 and cache.nbytes <= cache.max_bytes
    cache.get("a", lambda: pytest.fail("kept: not computed again"))  # a is now the most recent
    cache.get("d", lambda: array(1))
    assert "b" not in cache and {"a", "c", "d"} <= {k for k in "abcd" if k in cache}
    assert cache.nbytes <= cache.max_bytes


def test_a_value_larger_than_the_bound_is_returned_not_kept():
    cache = ResultCache("test", max_bytes=MB)
    cache.get("small", lambda: array(0.1))
    value = cache.get("large", lambda: array(2))
    assert value.nbytes == 2 * MB and "large" not in cache and "small" in cache


def test_a_value_that_grows_is_measured_again_when_read():
    cache = ResultCache("test", max_bytes=3 * MB, growing=True)
    grown = {"data": array(0.5)}
    cache.get("old", lambda: array(1))
    cache.get("growing", lambda: grown)
    grown["data"] = array(2.5)  # e.g. a stream of resamples drawn further
    cache.get("growing", lambda: None)
    assert cache.nbytes <= cache.max_bytes and "old" not in cache


def test_a_value_that_does_not_grow_is_measured_once(monkeypatch):
    """Reading a kept value does not measure it again (a bundle of scores read for every
    fold took 0.6 ms a read to measure), and still makes it the most recently used."""
    from evalteach.simulate import result_cache

    cache = ResultCache("test", max_bytes=2.5 * MB)
    cache.get("a", lambda: array(1))
    cache.get("b", lambda: array(1))
    measured = []
    monkeypatch.setattr(result_cache, "size_of", lambda value, _seen=None: measured.append(value) or size_of(value))
    for _ in range(3):
        cache.get("a", lambda: pytest.fail("kept: not computed again"))
        assert cache.lookup("a") is not None
    assert measured == []
    cache.get("c", lambda: array(1))  # measured when stored; b, the least recently used, goes
    assert len(measured) == 2 and "b" not in cache and "a" in cache


def test_kept_arrays_are_read_only():
    cache = ResultCache("test", max_bytes=MB)
    values = cache.get("k", lambda: (np.zeros(3), np.ones(2)))
    for a in values:
        with pytest.raises(ValueError):
            a[0] = 1


def test_the_decorator_keeps_results_by_arguments():
    calls = []

    @cached(max_bytes=MB, name="squares")
    def square(x, *, power=2):
        calls.append(x)
        return x ** power

    assert [square(3), square(3), square(3, power=3), square(3, power=3)] == [9, 9, 27, 27]
    assert calls == [3, 3] and len(square.cache) == 2
    square.cache_clear()
    assert len(square.cache) == 0


def test_clear_caches_empties_every_cache_and_cache_bytes_reports_them():
    cache = ResultCache("test: cleared", max_bytes=MB)
    cache.get("k", lambda: array(0.5))
    learner_scores.fold_errors("iris", "naive_bayes", 5, 0)
    sizes = cache_bytes()
    assert sizes["test: cleared"] >= 0.5 * MB and sizes["fitted fold errors"] > 0
    clear_caches()
    assert len(cache) == 0 and all(size == 0 for size in cache_bytes().values())


def test_every_cache_of_the_simulations_is_bounded():
    """The caches of evalteach.simulate, by name, each with a bound in bytes; their sum is
    what computed results can hold in a kernel."""
    import importlib

    for module in simulate.PUBLIC:  # the package imports a module at its first use: import them all
        importlib.import_module(f"evalteach.simulate.{module}")  # registers its caches
    names = set(cache_bytes())
    assert {"fitted fold errors", "fitted hold-out predictions", "fitted learning curves", "cross-validation folds",
            "resample streams", "resubstitution fits", "replicability", "paired experiments",
            "rounded latent scores"} <= names


def test_streams_of_resamples_for_many_seeds_stay_within_their_bound():
    """A student pressing 'Resample' again and again asks for a new stream each time."""
    cache = learner_scores._growing.cache
    values = np.array([0.02, -0.01, 0.03, 0.01, 0.0, 0.04, -0.02, 0.05])
    for seed in range(60):
        stream = learner_scores.growing_resamples(values, "sign-flip", seed)
        # measured again at this use: every stream kept, grown by its last use, fits the bound
        assert cache.nbytes <= cache.max_bytes and (len(cache) - 1) * 800_000 <= cache.max_bytes
        stream.first(100_000)  # 800 kB each
    assert len(cache) < 60
    cache.clear()


def test_simulate_has_one_cache_mechanism():
    """No functools caches and no module-level dictionaries of results in evalteach.simulate."""
    import ast
    from pathlib import Path

    import evalteach.simulate as simulate

    for path in Path(simulate.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                assert "lru_cache" not in {a.name for a in node.names} and "cache" not in {a.name for a in node.names}, path
        for node in tree.body:  # module level
            if isinstance(node, ast.Assign) and isinstance(node.value, (ast.Dict, ast.Call)):
                call = node.value
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Name):
                    assert call.func.id not in ("dict", "OrderedDict"), (path, ast.unparse(node))
                if isinstance(call, ast.Dict):
                    assert call.keys, (path, ast.unparse(node))  # an empty dict at module level: a cache
