"""Public names imported on first use: the one mechanism ``evalteach`` and its subpackages share.

A package lists where each public name lives; importing the package imports none of
them, so ``import evalteach`` stays light (scipy.stats alone takes longer to import
than numpy, matplotlib and ipywidgets together, which costs seconds in JupyterLite).
A name is imported when it is first read (module-level ``__getattr__``, PEP 562) and
then kept in the package, so later reads skip the look-up; a name the package does not
list raises ``AttributeError`` at once, importing nothing.
"""
from __future__ import annotations

import importlib
import sys


def lazy_names(package, where, modules=()):
    """``__getattr__`` and ``__dir__`` for a package whose public names are imported on first use.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    where : dict
        Public name -> the module that defines it, relative to the package
        (``"intervals"``, or a subpackage such as ``"stats"`` that resolves it in turn).
    modules : iterable of str
        Submodules that may be read as attributes of the package.

    Returns
    -------
    (__getattr__, __dir__)
        To assign at the package's top level.

    Examples
    --------
    >>> __getattr__, __dir__ = lazy_names(__name__, {"z_critical": "intervals"}, ("intervals",))  # doctest: +SKIP
    """
    modules = frozenset(modules)

    def __getattr__(name):
        if name in modules:
            return importlib.import_module(f".{name}", package)
        if name in where:
            value = getattr(importlib.import_module(f".{where[name]}", package), name)
            setattr(sys.modules[package], name, value)  # later reads find it without this function
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__():
        return sorted(set(vars(sys.modules[package])) | set(where) | modules)

    return __getattr__, __dir__
