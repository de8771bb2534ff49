"""No private matplotlib or ipywidgets names in ``evalteach/`` (issue 26, item 3).

A private name (``_layout``, ``_property_lock``, ``ax._left_title``) can change or vanish
in any release of its library, and code built on one breaks, or switches itself off,
without warning. The scan reads every module of ``evalteach/`` and flags:

* an attribute ``x._name`` where ``_name`` is a private name of matplotlib or ipywidgets
  (a module-level name, a class's attribute or method, or an attribute their code sets on
  ``self``) and not a name ``evalteach`` defines itself;
* ``getattr``/``setattr``/``hasattr`` with such a name as a string;
* ``from matplotlib... import _name``, ``import matplotlib._private`` and the like;
* a private method of a library class overridden by a subclass in ``evalteach``.

Names that start and end with an underscore (IPython's ``_repr_png_``,
``_repr_mimebundle_``) are display protocols, not private.
"""
from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import warnings
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "evalteach"
LIBRARIES = ("matplotlib", "ipywidgets")


def private(name):
    return name.startswith("_") and not name.endswith("_")


def _defined_in(tree, skip=lambda class_name, attribute: False):
    """Names a module's code defines: functions, classes, arguments, assignments to names and
    to attributes; ``skip(class_name, attribute)`` leaves out an attribute a class sets on
    ``self`` (one it inherits from a library class is the library's, not ours)."""
    names = set()

    def visit(node, class_name=None):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                names.add(child.name)
                visit(child, child.name)
                continue
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if not (class_name and skip(class_name, child.name)):
                    names.add(child.name)
            elif isinstance(child, ast.arg):
                names.add(child.arg)
            elif isinstance(child, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                for target in child.targets if isinstance(child, ast.Assign) else [child.target]:
                    for part in ast.walk(target):
                        if isinstance(part, ast.Name):
                            names.add(part.id)
                        elif isinstance(part, ast.Attribute):
                            on_self = isinstance(part.value, ast.Name) and part.value.id == "self"
                            if not (on_self and class_name and skip(class_name, part.attr)):
                                names.add(part.attr)
            visit(child, class_name)

    visit(tree)
    return names


@lru_cache(maxsize=None)
def _parsed(path):
    return ast.parse(Path(path).read_text(encoding="utf-8"))


def _self_attributes(cls):
    """The private attributes a library class sets on ``self`` in its source."""
    try:
        tree = _parsed(inspect.getsourcefile(cls))
    except (TypeError, OSError):  # compiled
        return set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            return {part.attr for part in ast.walk(node) if isinstance(part, ast.Attribute)
                    and isinstance(part.value, ast.Name) and part.value.id == "self" and private(part.attr)}
    return set()


@lru_cache(maxsize=None)
def inherited_private(cls):
    """Private names ``cls`` inherits from matplotlib, ipywidgets or traitlets classes."""
    names = set()
    for base in cls.__mro__:
        if base.__module__.split(".")[0] in (*LIBRARIES, "traitlets"):
            names |= {name for name in vars(base) if private(name)} | _self_attributes(base)
    return frozenset(names)


@lru_cache(maxsize=1)
def library_private_names():
    """Every private name of matplotlib's and ipywidgets' modules, classes and instances."""
    names = set()
    for library in LIBRARIES:
        package = importlib.import_module(library)
        modules = [package]
        for info in pkgutil.walk_packages(package.__path__, f"{library}.", onerror=lambda name: None):
            if ".tests." in info.name or info.name.endswith(".tests"):
                continue
            try:
                with warnings.catch_warnings():  # deprecated modules still count
                    warnings.simplefilter("ignore")
                    modules.append(importlib.import_module(info.name))
            except Exception:  # noqa: BLE001 - a backend whose toolkit is not installed
                continue
        for module in modules:
            for name, value in list(vars(module).items()):
                names.add(name)
                if isinstance(value, type):
                    names.update(dir(value))  # also methods of compiled classes (FT2Font._layout)
            source = getattr(module, "__file__", None)
            if source and source.endswith(".py"):
                names.update(_defined_in(_parsed(source)))
    return {name for name in names if private(name)}


def _our_modules():
    """evalteach's modules, less ``__main__`` ones: importing those runs a program."""
    return sorted(p for p in PACKAGE.rglob("*.py") if p.name != "__main__.py")


def _module_name(path):
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@lru_cache(maxsize=1)
def our_names():
    """Names evalteach defines itself (not those its classes inherit from the libraries)."""
    names = set()
    for path in _our_modules():
        module = importlib.import_module(_module_name(path))

        def inherited(class_name, attribute, module=module):
            cls = getattr(module, class_name, None)
            return isinstance(cls, type) and attribute in inherited_private(cls)

        names |= _defined_in(ast.parse(path.read_text(encoding="utf-8")), skip=inherited)
    return names


def private_uses(source, theirs, ours):
    """(line, what) of each use of a private library name in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and private(node.attr) and node.attr in theirs - ours:
            found.append((node.lineno, f".{node.attr}"))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "setattr", "hasattr", "delattr") and len(node.args) >= 2
              and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
              and private(node.args[1].value) and node.args[1].value in theirs - ours):
            found.append((node.lineno, f"{node.func.id}(..., {node.args[1].value!r})"))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in LIBRARIES:
            if any(private(part) for part in node.module.split(".")):
                found.append((node.lineno, f"from {node.module} import ..."))
            found += [(node.lineno, f"from {node.module} import {alias.name}")
                      for alias in node.names if private(alias.name)]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, f"import {alias.name}") for alias in node.names
                      if alias.name.split(".")[0] in LIBRARIES and any(private(p) for p in alias.name.split("."))]
    return found


def test_the_scan_knows_the_private_names_that_were_used():
    theirs = library_private_names()
    # those the explorers once used (matplotlib 3.11's _render_glyph and _layout are not in
    # the releases the package supports) and two a text cache reaches for
    for name in ("_set_transform", "_find_fonts_by_props", "_lastKey", "_property_lock", "_left_title",
                 "_prepare_font", "_get_layout"):
        assert name in theirs, name


@pytest.mark.parametrize("source, expected", [
    ("font = renderer._prepare_font(prop)", [(1, "._prepare_font")]),
    ("x = change['owner']._property_lock", [(1, "._property_lock")]),
    ("t = [ax._left_title, ax.title]", [(1, "._left_title")]),
    ("getattr(canvas, '_lastKey', None)", [(1, "getattr(..., '_lastKey')")]),
    ("from matplotlib.backends.backend_agg import _fetch", [(1, "from matplotlib.backends.backend_agg import _fetch")]),
    ("from matplotlib._path import affine", [(1, "from matplotlib._path import ...")]),
    ("import matplotlib._mathtext", [(1, "import matplotlib._mathtext")]),
    ("self._dynamic.append(a); w._repr_mimebundle_()", []),  # our own name; a display protocol
])
def test_the_scan_finds_private_uses(source, expected):
    assert private_uses(source, library_private_names() | {"_fetch"}, our_names() - {"_fetch"}) == expected


def private_overrides(path):
    """(line, what) of each private method of a library class that a class in ``path`` overrides."""
    module = importlib.import_module(_module_name(path))
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        cls = getattr(module, node.name, None) if isinstance(node, ast.ClassDef) else None
        if isinstance(cls, type):
            found += [(item.lineno, f"{node.name}.{item.name} overrides a private method")
                      for item in node.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                      and item.name in inherited_private(cls)]
    return found


def test_evalteach_uses_no_private_matplotlib_or_ipywidgets_name():
    theirs, ours = library_private_names(), our_names()
    found = [f"{path.relative_to(ROOT)}:{line}: {what}" for path in _our_modules()
             for line, what in private_uses(path.read_text(encoding="utf-8"), theirs, ours) + private_overrides(path)]
    assert not found, "private matplotlib or ipywidgets names:\n" + "\n".join(found)
