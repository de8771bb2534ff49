"""Pictures of results: the one figure that makes a result's logic visible.

Each result's ``plot(ax=None)`` delegates to one function here, which draws from the
result's own fields (it imports nothing from :mod:`evalteach.stats`: the statistics
do not depend on the pictures, nor the pictures on them). Every picture

* draws into the Axes it is given, or into a new figure sized for a notebook cell
  that shows as a PNG at twice the pixels of its size on screen, with the result's
  verdict as its text alternative (:class:`ResultFigure`);
* follows the theme (:func:`evalteach.presenter`) and the palette of the explorers;
* writes its numbers as the result's display does (``p_text``, ``pct``);
* names the artists that carry the result's numbers with a gid
  (``"p-value"``, ``"interval"``, ``"estimate"``, ``"statistic"``, ``"null"``), so a
  reader, or a test, can find what a shaded area or a line stands for.

Importing this package imports matplotlib: only a result's ``plot()`` does.
"""
from ._canvas import ResultFigure

__all__ = ["ResultFigure"]
