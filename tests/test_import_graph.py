"""No two modules of evalteach import each other, at any level (issue 26, item 4).

The graph is built from the source (AST), so an import inside a function counts as much
as one at the top: a circle that only closes at call time is still a circle a maintainer
has to keep in their head. ``from package import name`` depends on the submodule
``package.name`` when there is one, else on the package's ``__init__``.
"""
from __future__ import annotations

import ast
from pathlib import Path

import evalteach

PACKAGE = Path(evalteach.__file__).parent


def module_files(package=PACKAGE):
    """Dotted module name -> file, for every module of the package."""
    found = {}
    for path in package.rglob("*.py"):
        parts = path.relative_to(package.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported(name, path, node, modules):
    """The package's modules that one import statement of module ``name`` depends on."""
    if isinstance(node, ast.Import):
        targets = [alias.name for alias in node.names]
    else:
        if node.level:
            base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
            base = base[:len(base) - node.level + 1]
            prefix = ".".join(base + ([node.module] if node.module else []))
        else:
            prefix = node.module or ""
        targets = [f"{prefix}.{alias.name}" if f"{prefix}.{alias.name}" in modules else prefix
                   for alias in node.names]
    return {target for target in targets if target in modules and target != name}


def import_graph(package=PACKAGE):
    """Module -> the package's modules it imports anywhere in its source."""
    modules = module_files(package)
    graph = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        graph[name] = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                graph[name] |= imported(name, path, node, modules)
    return graph


def find_cycle(graph):
    """One import circle as a list of modules (first == last), or None."""
    state = {}  # module -> "open" while on the path, "done" after

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = visit(nxt, path + [nxt])
                if cycle:
                    return cycle
        state[node] = "done"
        return None

    for start in sorted(graph):
        if start not in state:
            cycle = visit(start, [start])
            if cycle:
                return cycle
    return None


def test_no_module_of_evalteach_imports_itself_back():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle)


def test_the_graph_sees_imports_at_every_level():
    """Top-level, relative, inside a function, and ``from package import module``."""
    graph = import_graph()
    assert "evalteach.simulate.bundled_scores" in graph["evalteach.simulate.curves"]       # from . import x
    assert "evalteach.simulate.bundled_requests" in graph["evalteach.simulate.learner_scores"]
    assert "evalteach.simulate.bundled_scores" in graph["evalteach.simulate.sampling"]      # inside a function
    assert "evalteach.learners" in graph["evalteach.simulate.comparison"]                  # from ..learners import
    assert "evalteach.simulate" in graph["evalteach.widgets.algorithm_comparison"]         # a package's names
    assert graph["evalteach.simulate.bundled_requests"] == set()                            # the bottom layer


def test_a_circle_is_found_however_long():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"d"}, "d": {"b"}}) == ["b", "c", "d", "b"]


def test_a_circle_through_a_function_level_import_is_found(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text("def f():\n    from .high import g\n    return g\n")
    (package / "high.py").write_text("from . import low\n\ndef g():\n    return low\n")
    assert find_cycle(import_graph(package)) in (["pkg.high", "pkg.low", "pkg.high"],
                                                 ["pkg.low", "pkg.high", "pkg.low"])
