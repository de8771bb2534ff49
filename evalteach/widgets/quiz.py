"""Self-check questions for the lessons: a number with a tolerance, or one of several options.

A question is displayed by leaving it as the last expression of a cell. The student
types or picks an answer and presses "Check"; the feedback appears under the question:
"Correct" with the explanation, or "Not quite" with what went wrong. A wrong answer that
the lesson foresaw (``feedback=`` per option, ``mistakes=`` per typical wrong number) gets
the text written for that misconception; any other wrong answer gets the hint. "Show
answer" reveals the answer and the explanation. Where widgets cannot run (a static HTML
page), the question is shown as text with the answer folded away.

Every question reports to :func:`evalteach.progress`.
"""
from __future__ import annotations

import html
import math
import numbers
import threading

import ipywidgets as W

from .. import _validate, plotting, poll
from . import record

#: ipywidgets gives each radio option one line of fixed height: a longer option wraps, its
#: second line lies over the next option, and that option takes the clicks meant for the
#: first. This style (in the page once per question; repeats are harmless) lets every
#: option be as tall as its text.
CHOICE_STYLE_CSS = (".evalteach-choices label {height: auto; line-height: 1.35; margin-bottom: 6px}"
                    " .evalteach-choices input {align-self: flex-start}")


class _Style(W.HTML):
    """A ``<style>`` element in the page (an HTML widget that shows nothing)."""


CHOICE_STYLE = _Style(f"<style>{CHOICE_STYLE_CSS}</style>")


def choice_buttons(options):
    """Radio buttons for ``options``, none chosen, each option as tall as its text
    (with :data:`CHOICE_STYLE` in the page)."""
    buttons = W.RadioButtons(options=[(text, i) for i, text in enumerate(options)], value=None,
                             layout=W.Layout(width="auto"))
    buttons.add_class("evalteach-choices")
    return buttons

__all__ = ["NumericQuestion", "MultipleChoice"]

_GOOD = plotting.PALETTE["green"]
_BAD = plotting.PALETTE["vermillion"]
_ANSWER = plotting.PALETTE["blue"]


def _text(name, value, *, optional=False):
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {value!r}")
    if not value.strip():
        raise ValueError(f"{name} must not be empty, got {value!r}")
    return value.strip()


def _show(x):
    """A number as a student would write it: up to 4 significant figures."""
    return f"{x:.4g}"


def parse_number(text):
    """Read a number a student typed: ``0.3``, ``0,3``, ``30%``, ``12/40``; None if it is not one."""
    if isinstance(text, (bool, type(None))):
        return None
    if isinstance(text, numbers.Real):
        x = float(text)
        return x if math.isfinite(x) else None
    if not isinstance(text, str):
        return None
    s = text.strip().replace(" ", "")
    scale = 1.0
    if s.endswith("%"):
        s, scale = s[:-1], 0.01
    if "," in s and "." not in s:
        s = s.replace(",", ".")
    try:
        if s.count("/") == 1:
            num, den = s.split("/")
            x = float(num) / float(den)
        else:
            x = float(s)
    except (ValueError, ZeroDivisionError):
        return None
    x *= scale
    return x if math.isfinite(x) else None


def parse_options(options):
    """Validate ``options``: at least two different, non-empty strings; return them as a tuple."""
    if isinstance(options, (str, bytes)) or not hasattr(options, "__iter__"):
        raise TypeError(f"options must be a list of strings, got {options!r}")
    options = tuple(_text("options", o) for o in options)
    if len(options) < 2:
        raise ValueError(f"options must hold at least 2 choices, got {len(options)}")
    if len(set(options)) < len(options):
        raise ValueError(f"options must all differ, got {list(options)!r}")
    return options


def option_index(options, value, *, name):
    """The index in ``options`` that ``value`` names (an index or an option's text)."""
    if isinstance(value, str):
        if value.strip() not in options:
            raise ValueError(f"{name} must be one of the options {list(options)!r}, got {value!r}")
        return options.index(value.strip())
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an option's index or text, got {value!r}")
    if not 0 <= value < len(options):
        raise ValueError(f"{name} must be an index from 0 to {len(options) - 1}, got {value!r}")
    return int(value)


class _Question:
    """What both kinds of question share: prompt, feedback area, buttons, display."""

    def __init__(self, prompt, hint, explanation, id):
        self.id = _validate.identifier("id", id, optional=True)
        self.prompt = _text("prompt", prompt)
        self.hint = _text("hint", hint, optional=True)
        self.explanation = _text("explanation", explanation, optional=True)
        self.attempts = 0
        self.solved = False
        self.first_try = False
        self.answer_shown = False
        self._held_value = None  # a live vote's answer, judged when the instructor reveals it
        self._releasing = threading.Lock()
        self._prompt = W.HTMLMath(f"<b>{html.escape(self.prompt)}</b>")
        self._check_button = W.Button(description="Check", button_style="primary",
                                      tooltip="Check your answer")
        self._show_button = W.Button(description="Show answer", tooltip="Reveal the answer")
        self._check_button.on_click(lambda _: self._on_check())
        self._show_button.on_click(lambda _: self.show_answer())
        self._feedback = W.HTMLMath()
        self.widget = W.VBox([self._prompt, self._input_row(),
                              W.HBox([self._check_button, self._show_button]), self._feedback])
        self.widget.add_class("evalteach-question")
        self.restyle()
        plotting.listen(self)
        record.register(self)
        # on a Hub with the class poll: answers go to it, an instructor sees the class's here
        self.poll = poll.attach(self.id, options=getattr(self, "options", None),
                                correct=self._poll_answer(self.answer), changed=self._poll_changed)
        if self.poll is not None:
            self.widget.children = (*self.widget.children, self.poll.widget)

    # --- subclasses provide these ---------------------------------------------------------

    def _input_row(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def _current(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def _judge(self, value):  # pragma: no cover - abstract
        """Return (correct, message) for an answer; message is None unless it is unreadable."""
        raise NotImplementedError

    def _answer_text(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def _poll_answer(self, value):  # pragma: no cover - abstract
        """A readable answer as the class poll counts it: a number, or the option's text."""
        raise NotImplementedError

    def _diagnose(self, value):
        """The text foreseen for this wrong answer (a known mistake), or None."""
        return None

    def _plain_lines(self):
        return []

    # --- behaviour ------------------------------------------------------------------------

    @property
    def feedback(self):
        """The feedback shown under the question, as HTML ("" before any answer)."""
        return self._feedback.value

    @property
    def held(self):
        """Whether a checked answer waits, without feedback, for the instructor's reveal (while
        the question is run as a live vote; each check until then replaces the vote)."""
        return self._held_value is not None

    def check(self, value):
        """Check an answer, show the feedback and return True if it is right.

        Unreadable answers (text that is not a number, an option that does not
        exist) are not errors: they return False and say so in the feedback.
        While the question is run as a live vote (:attr:`held`), the answer is sent as
        the student's vote and its feedback waits for the instructor's reveal.
        """
        correct, message = self._judge(value)
        if message is not None:  # could not read the answer: tell the student, count nothing
            self._say(_BAD, message)
            return False
        # an answer after "Show answer" is no vote
        if self.poll is not None and not self.answer_shown and self.poll.vote(self._poll_answer(value)):
            self._held_value = value
            self._feedback.value = ""
            self._poll_changed(self.poll)  # shown already, if the poll has decided meanwhile
            record.changed()
            return correct
        self._respond(value, correct)
        return correct

    def _poll_changed(self, poll):
        """News from the class poll (a background thread): no "Show answer" during a live vote;
        the feedback on a held answer once the instructor reveals it."""
        self._show_button.disabled = poll.hides_answer
        with self._releasing:
            if self._held_value is None or poll.holding:
                return
            value, self._held_value = self._held_value, None
        self._respond(value, self._judge(value)[0])

    def _respond(self, value, correct):
        """Count the attempt and show its feedback."""
        self.attempts += 1
        if correct:
            self.first_try = self.first_try or (self.attempts == 1 and not self.answer_shown)
            self.solved = True
            self._say(_GOOD, "Correct.", self.explanation)
        else:
            diagnosis = self._diagnose(value)
            if diagnosis is None:
                diagnosis = f"Hint: {self.hint}" if self.hint else "Try again."
            self._say(_BAD, "Not quite.", diagnosis)
        record.changed()

    def show_answer(self):
        """Reveal the answer and the explanation."""
        self.answer_shown = True
        self._say(_ANSWER, f"Answer: {self._answer_text()}.", self.explanation)
        record.changed()

    def _on_check(self):
        self.check(self._current())

    def _say(self, color, headline, detail=None):
        body = f"<b style='color:{color}'>{html.escape(headline)}</b>"
        if detail:
            body += f" {html.escape(detail)}"
        self._feedback.value = f"<div role='status' aria-live='polite'>{body}</div>"

    def restyle(self):
        """Follow the theme's control font size (called by :func:`evalteach.presenter`)."""
        size = plotting.theme().control_font
        for part in (self._prompt, self._feedback, self._check_button, self._show_button):
            part.style.font_size = size

    # --- display --------------------------------------------------------------------------

    def _text_plain(self):
        lines = [f"Question: {self.prompt}", *self._plain_lines()]
        if self.hint:
            lines.append(f"Hint: {self.hint}")
        return "\n".join(lines)

    def _html(self):
        items = "".join(f"<li>{html.escape(line)}</li>" for line in self._plain_lines())
        parts = [f"<p><b>Question.</b> {html.escape(self.prompt)}</p>"]
        if items:
            parts.append(f"<ul>{items}</ul>")
        if self.hint:
            parts.append(f"<p><i>Hint:</i> {html.escape(self.hint)}</p>")
        answer = f"<b>{html.escape(self._answer_text())}</b>."
        if self.explanation:
            answer += " " + html.escape(self.explanation)
        parts.append(f"<details><summary>Answer</summary><p>{answer}</p></details>")
        return f"<div class='evalteach-question'>{''.join(parts)}</div>"

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs) or {}
        bundle["text/plain"] = self._text_plain()
        bundle["text/html"] = self._html()
        return bundle

    def __repr__(self):
        return f"<{type(self).__name__} {self.prompt!r}>"


class NumericQuestion(_Question):
    """A question whose answer is a number, accepted within a tolerance.

    Parameters
    ----------
    prompt : str
        The question.
    answer : float
        The right answer; compute it with the library, e.g.
        ``et.proportion_interval(12, 40).low``.
    tolerance : float, default 0.01
        How far an answer may be from ``answer`` and still count as right.
    relative : bool, default False
        If True, ``tolerance`` is a fraction of ``abs(answer)`` (0.01 = within 1%).
    hint : str, optional
        Shown after a wrong answer that matches none of ``mistakes``.
    explanation : str, optional
        Shown after a right answer or after "Show answer".
    mistakes : dict of float -> str, optional
        Typical wrong numbers and what went wrong in each, e.g. the two-sided
        instead of the one-sided critical value. An answer within the question's
        tolerance of such a number gets that text instead of the hint (the nearest
        one if several match). Compute the wrong numbers with the library too.
    id : str, optional
        A stable name for the question, unique within its lesson (1 to 80 letters, digits,
        ``_``, ``.`` or ``-``, e.g. ``"training-error"``): the same question has the same id
        in every student's kernel, so a class poll can count the answers.

    Students may type ``0.3``, ``0,3``, ``30%`` or ``12/40``.

    Examples
    --------
    >>> import evalteach as et
    >>> q = et.NumericQuestion("Error rate for 12 mistakes in 40 tests?", 12 / 40)
    >>> q.check("0.3"), q.check(0.25), q.check("thirty")
    (True, False, False)
    >>> z = et.NumericQuestion("One-sided 95% critical z?", et.z_critical(0.95, sided="one"),
    ...                        mistakes={et.z_critical(0.95): "That is the two-sided value."})
    >>> z.check(1.96), "two-sided" in z.feedback
    (False, True)
    """

    def __init__(self, prompt, answer, *, tolerance=0.01, relative=False, hint=None,
                 explanation=None, mistakes=None, id=None):
        self.answer = _validate.real("answer", answer)
        self.tolerance = _validate.real("tolerance", tolerance, low=0.0)
        self.relative = _validate.boolean("relative", relative)
        self.mistakes = self._check_mistakes(mistakes)
        super().__init__(prompt, hint, explanation, id)

    def _check_mistakes(self, mistakes):
        if mistakes is None:
            return {}
        if not isinstance(mistakes, dict):
            raise TypeError(f"mistakes must be a dict of wrong number -> text, got {mistakes!r}")
        checked = {}
        for value, text in mistakes.items():
            x = _validate.real("mistakes", value)
            if self._near(x, self.answer):
                raise ValueError(f"mistakes must be wrong answers, but {value!r} is within the "
                                 f"tolerance of the answer {_show(self.answer)}")
            checked[x] = _text(f"mistakes[{value!r}]", text)
        return checked

    def _input_row(self):
        self._input = W.Text(placeholder="type a number", description="Your answer:",
                             continuous_update=False, style={"description_width": "initial"})
        self._input.observe(lambda change: change["new"].strip() and self._on_check(),
                            names="value")
        return self._input

    def _current(self):
        return self._input.value

    def _near(self, x, target):
        """Whether ``x`` is within the question's tolerance of ``target``."""
        allowed = self.tolerance * abs(target) if self.relative else self.tolerance
        # a little slack for binary rounding, so that exactly-at-tolerance counts as right
        return abs(x - target) <= allowed + 1e-12 * max(1.0, abs(target))

    def _close(self, x):
        return self._near(x, self.answer)

    def _diagnose(self, value):
        x = parse_number(value)
        matches = [m for m in self.mistakes if self._near(x, m)]
        return self.mistakes[min(matches, key=lambda m: abs(x - m))] if matches else None

    def _judge(self, value):
        x = parse_number(value)
        if x is None:
            return False, f"Please type a number (for example 0.25 or 25%); {value!r} is not one."
        return self._close(x), None

    def _respond(self, value, correct):
        super()._respond(value, correct)
        x = parse_number(value)
        if not correct and x is not None and self._diagnose(x) is None and abs(self.answer) <= 1 \
                and 1 < abs(x) <= 100 and self._close(x / 100):
            self._say(_BAD, "Almost:", f"write it as a fraction, {_show(x / 100)}, or add a % sign.")

    def _answer_text(self):
        return _show(self.answer)

    def _poll_answer(self, value):
        return parse_number(value)


class MultipleChoice(_Question):
    """A question with one right option among several.

    Parameters
    ----------
    prompt : str
        The question.
    options : sequence of str
        At least two different options, shown in this order.
    answer : int or str
        The right option: its index in ``options`` or its text.
    hint : str, optional
        Shown after a wrong pick that has no text of its own in ``feedback``.
    explanation : str, optional
        Shown after a right answer or after "Show answer".
    feedback : dict of (str or int) -> str, optional
        For wrong options (by text or index): why the option is tempting and why
        it is wrong. Shown instead of the hint when the student picks it.
    id : str, optional
        A stable name for the question, unique within its lesson (1 to 80 letters, digits,
        ``_``, ``.`` or ``-``, e.g. ``"training-error"``): the same question has the same id
        in every student's kernel, so a class poll can count the answers.

    Examples
    --------
    >>> import evalteach as et
    >>> q = et.MultipleChoice("Which test is more conservative?", ["one-sided", "two-sided"], 1,
    ...                       feedback={"one-sided": "It needs a smaller z, so it rejects sooner."})
    >>> q.check("two-sided"), q.check(0), "smaller z" in q.feedback
    (True, False, True)
    """

    def __init__(self, prompt, options, answer, *, hint=None, explanation=None, feedback=None,
                 id=None):
        self.options = parse_options(options)
        self.answer = self._index(answer, name="answer")
        self.option_feedback = self._check_feedback(feedback)
        super().__init__(prompt, hint, explanation, id)

    def _index(self, value, *, name):
        return option_index(self.options, value, name=name)

    def _check_feedback(self, feedback):
        if feedback is None:
            return {}
        if not isinstance(feedback, dict):
            raise TypeError(f"feedback must be a dict of option -> text, got {feedback!r}")
        checked = {}
        for option, text in feedback.items():
            index = self._index(option, name="feedback key")
            if index == self.answer:
                raise ValueError(f"feedback is for wrong options, but {option!r} is the answer; "
                                 "use explanation= for the right one")
            checked[index] = _text(f"feedback[{option!r}]", text)
        return checked

    def _diagnose(self, value):
        return self.option_feedback.get(self._index(value, name="choice"))

    def _input_row(self):
        self._choice = choice_buttons(self.options)
        return W.VBox([CHOICE_STYLE, self._choice])

    def _current(self):
        return self._choice.value

    def _judge(self, value):
        try:
            index = self._index(value, name="choice")
        except (TypeError, ValueError):
            return False, "Please pick one of the options first."
        return index == self.answer, None

    def _answer_text(self):
        return self.options[self.answer]

    def _poll_answer(self, value):
        return self.options[self._index(value, name="choice")]

    def _plain_lines(self):
        return [f"({chr(ord('a') + i)}) {text}" for i, text in enumerate(self.options)]
