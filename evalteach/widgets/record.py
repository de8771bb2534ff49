"""Where the student stands in this lesson: questions answered, predictions made.

Every question and every :class:`~evalteach.widgets.predict.Predict` registers here
when it is created; :func:`progress` summarises them. The record lives in the kernel
only (no files, no network): restarting the kernel starts it afresh. Re-running a
cell replaces that cell's question (the same kind and prompt) in place, so the
summary follows what is on screen.
"""
from __future__ import annotations

import html

import ipywidgets as W

from .. import plotting

__all__ = ["progress", "Progress"]

_items = {}  # (kind, prompt) -> question or prediction, in the order they were first made
_displays = []  # Progress objects to refresh (kept alive: a displayed one may have no other owner)


def register(item):
    """Record a new question or prediction (called from their constructors)."""
    _items[(type(item).__name__, item.prompt)] = item
    changed()


def changed():
    """Refresh every progress display on screen (called after each answer or lock-in)."""
    for display in list(_displays):
        display.refresh()


def clear():
    """Forget every question and prediction (for tests; a new kernel starts empty)."""
    _items.clear()
    changed()


def _show(x):
    return f"{x:.4g}"


def _prediction_line(p):
    """One sentence on a prediction: what was predicted and how close it came."""
    if not p.locked:
        return f"not yet locked in: {p.prompt}"
    line = f"{p.prompt} You predicted {p.guess_text}"
    if p.held:  # a live vote: nothing of the answer before the instructor reveals it
        return line + "; the answer appears when your instructor reveals it."
    if p.answer is None:
        return line + "."
    if p.options is not None:
        return line + (", which is right." if p.correct else f"; the answer is {p.answer_text}.")
    line += f"; the answer is {p.answer_text}, off by {_show(abs(p.guess - p.answer))}"
    if p.correct is None:
        return line + "."
    return line + (" (within the tolerance)." if p.correct else " (outside the tolerance).")


class Progress:
    """A summary of the lesson so far; it updates itself as the student goes on.

    Attributes
    ----------
    questions, answered, solved, first_try : int
        Questions in the lesson; answered at least once; answered right; right at the
        first attempt without "Show answer".
    predictions, locked, hits, judged : int
        Predictions in the lesson; locked in; locked in and within the tolerance
        (or the right option); locked in with an answer to compare against.
    lines : list of str
        One line per prediction, saying how close it came.
    """

    def __init__(self):
        self.widget = W.HTML()
        self.widget.add_class("evalteach-progress")
        self.refresh()
        _displays.append(self)

    def refresh(self):
        """Recount from the current questions and predictions."""
        items = list(_items.values())
        questions = [q for q in items if hasattr(q, "attempts")]
        predictions = [p for p in items if hasattr(p, "locked")]
        self.questions = len(questions)
        self.answered = sum(q.attempts > 0 or q.held for q in questions)
        self.solved = sum(q.solved for q in questions)
        self.first_try = sum(q.first_try for q in questions)
        self.open_questions = [q.prompt for q in questions if not q.solved]
        self.predictions = len(predictions)
        self.locked = sum(p.locked for p in predictions)
        judged = [p for p in predictions if p.locked and p.correct is not None]
        self.judged = len(judged)
        self.hits = sum(p.correct for p in judged)
        self.lines = [_prediction_line(p) for p in predictions]
        self.widget.value = self._html()

    def _headline(self):
        questions = (f"Questions: {self.answered} of {self.questions} answered, {self.solved} right "
                     f"({self.first_try} at the first try).")
        predictions = f"Predictions: {self.locked} of {self.predictions} locked in"
        if self.judged:
            predictions += f", {self.hits} of {self.judged} close to the answer"
        return questions, predictions + "."

    def __str__(self):
        questions, predictions = self._headline()
        lines = ["Your progress in this lesson", questions]
        lines += [f"  still open: {prompt}" for prompt in self.open_questions]
        lines.append(predictions)
        lines += [f"  {line}" for line in self.lines]
        return "\n".join(lines)

    def _html(self):
        questions, predictions = self._headline()
        size = plotting.theme().control_font

        def listing(lines):
            items = "".join(f"<li>{html.escape(line)}</li>" for line in lines)
            return f"<ul>{items}</ul>" if items else ""

        still_open = [f"still open: {prompt}" for prompt in self.open_questions]
        return (f"<div class='evalteach-progress' role='status' aria-live='polite' "
                f"style='font-size:{size}'><b>Your progress in this lesson</b>"
                f"<p>{html.escape(questions)}</p>{listing(still_open)}"
                f"<p>{html.escape(predictions)}</p>{listing(self.lines)}</div>")

    def restyle(self):
        """Follow the theme's font size (called by :func:`evalteach.presenter`)."""
        self.refresh()

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs) or {}
        bundle["text/plain"] = str(self)
        bundle["text/html"] = self._html()
        return bundle

    def __repr__(self):
        return str(self)


def progress():
    """Where the student stands: questions answered and predictions made in this kernel.

    Leave it as the last expression of a lesson's final cell; it updates itself as
    questions are answered and predictions locked in afterwards. The record is kept
    in the kernel only, never written anywhere.

    Returns
    -------
    Progress

    Examples
    --------
    >>> import evalteach as et
    >>> et.progress()  # doctest: +SKIP
    Your progress in this lesson
    Questions: 2 of 3 answered, 2 right (1 at the first try).
    ...
    """
    p = Progress()
    plotting.listen(p)
    return p
