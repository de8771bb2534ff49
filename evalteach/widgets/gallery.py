"""A gallery of every explorer: pick one from a list, read what it shows, use it.

The Voila app ``apps/gallery.ipynb`` is this widget with the code hidden; in a notebook,
``et.Gallery()`` as the last expression of a cell shows the same thing.
"""
from __future__ import annotations

import html
import importlib
import inspect

import ipywidgets as W

from .. import _validate

__all__ = ["Gallery"]


def _explanation(cls):
    """The first paragraph of an explorer's docstring, the part written for a reader."""
    doc = inspect.getdoc(cls) or ""
    return " ".join(doc.split("\n\n")[0].split())


class Gallery:
    """Every explorer of :mod:`evalteach.widgets` behind one drop-down list.

    Each explorer is built the first time it is picked (with ``seed``) and kept, so
    switching back shows it as it was left.

    Parameters
    ----------
    start : str, optional
        Class name of the explorer shown first, e.g. ``"ROCExplorer"``; default the first.
    seed : int, default 0
        Seed of every explorer's random draws.

    Attributes
    ----------
    explorers : dict of str -> Explorer
        The explorers built so far, by class name.
    current : Explorer
        The explorer on screen.
    widget : ipywidgets.VBox
    """

    def __init__(self, start=None, *, seed=0):
        widgets = importlib.import_module("evalteach.widgets")
        self._classes = {name: getattr(widgets, name) for name in widgets.EXPLORERS}
        if start is None:
            start = next(iter(self._classes))
        if start not in self._classes:
            raise ValueError(f"start must be one of {list(self._classes)}, got {start!r}")
        self.seed = _validate.integer("seed", seed, low=0)
        self.explorers = {}
        self.current = None
        self._picker = W.Dropdown(
            options=[(cls.title or name, name) for name, cls in self._classes.items()],
            value=start, description="Explorer", style={"description_width": "initial"},
            layout=W.Layout(width="min(100%, 640px)"))
        self._about = W.HTML()
        self._stage = W.Box()
        self.widget = W.VBox([self._picker, self._about, self._stage])
        self.widget.add_class("evalteach-gallery")
        self._picker.observe(lambda change: self.show(change["new"]), names="value")
        self.show(start)

    @property
    def names(self):
        """Class names of the explorers the gallery offers, in order."""
        return list(self._classes)

    def show(self, name):
        """Put explorer ``name`` on screen (building it on first use); return it."""
        if name not in self._classes:
            raise ValueError(f"name must be one of {self.names}, got {name!r}")
        cls = self._classes[name]
        if name not in self.explorers:
            try:
                self.explorers[name] = cls(seed=self.seed)
            except Exception as exc:  # noqa: BLE001 - shown in the page, never raised into the kernel
                self._about.value = (f"<div role='alert'>Could not open {html.escape(name)}: "
                                     f"<code>{html.escape(str(exc))}</code></div>")
                return None
        self.current = self.explorers[name]
        if self._picker.value != name:
            self._picker.value = name  # the observer calls back here and finds it built
        self._about.value = f"<p>{html.escape(_explanation(cls))}</p>"
        self._stage.children = [self.current.widget]
        return self.current

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs) or {}
        if self.current is not None:  # the static picture, where widgets cannot run
            bundle["image/png"] = self.current._repr_mimebundle_()["image/png"]
        bundle["text/plain"] = f"Gallery of {len(self._classes)} explorers, showing {type(self.current).__name__}"
        return bundle
