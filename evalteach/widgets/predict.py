"""Predict, commit, reveal: the student locks in a guess before seeing what answers it.

Committing to a prediction before the observation is what makes the observation stick
(White & Gunstone 1992, *Probing Understanding*, ch. 3, "Prediction-Observation-
Explanation"; Crouch et al. 2004, "Classroom demonstrations: learning tools or
entertainment?", Am. J. Phys. 72(6)). :class:`Predict` holds back the explorer, question
or result that answers the question until the student has typed a number (or picked an
option) and pressed "Lock in".
"""
from __future__ import annotations

import base64
import html
import io
import re
import sys
import threading

import ipywidgets as W
from IPython.core.formatters import format_display_data

from .. import _validate, plotting, poll
from . import _cells, record
from .quiz import (_ANSWER, _BAD, _GOOD, CHOICE_STYLE, _show, _text, choice_buttons, option_index,
                   parse_number, parse_options)

__all__ = ["Predict"]

_RICH = ("_repr_mimebundle_", "_repr_html_", "_repr_markdown_", "_repr_png_", "_repr_svg_",
         "_repr_latex_")


def _as_widget(obj):
    """The widget that shows ``obj``: its own, or an Output holding its rich display."""
    if isinstance(obj, W.Widget):
        return obj
    if isinstance(getattr(obj, "widget", None), W.Widget):  # explorers, questions, progress
        return obj.widget
    out = W.Output()
    out.append_display_data(obj)
    return out


class _Picture:
    """A matplotlib figure held back until lock-in: a PNG, as a widget and as static HTML.

    ``et.Predict(..., reveals=result.plot())`` hands over the Axes of a figure that pyplot
    would otherwise show at the end of the cell, before the lock-in; the figure is rendered
    here and closed in pyplot, so only the prediction shows it.
    """

    def __init__(self, figure):
        if callable(getattr(figure, "png", None)):  # a result's picture: crisp, with its verdict as alt
            self.png, css_dpi = figure.png(), figure.css_dpi
        else:
            buffer = io.BytesIO()
            figure.savefig(buffer, format="png", dpi=figure.dpi)
            self.png, css_dpi = buffer.getvalue(), figure.dpi
        self.alt = getattr(figure, "alt", "") or ""
        self.width = round(figure.get_size_inches()[0] * css_dpi)  # shown at its size on screen
        pyplot = sys.modules.get("matplotlib.pyplot")
        if pyplot is not None:
            pyplot.close(figure)
        self.widget = W.Image(value=self.png, format="png", layout=W.Layout(width=f"{self.width}px"))

    def _repr_html_(self):
        data = base64.b64encode(self.png).decode("ascii")
        return (f'<img src="data:image/png;base64,{data}" alt="{html.escape(self.alt)}" '
                f'width="{self.width}" style="max-width:100%">')


def _matplotlib_figure(item):
    """The Figure that ``item`` (an Axes or a Figure) draws in, or None for anything else."""
    figure_module = sys.modules.get("matplotlib.figure")  # not loaded: item is no figure
    if figure_module is None:
        return None
    if isinstance(item, figure_module.Figure):
        return item
    figure = getattr(item, "figure", None)
    return figure if isinstance(figure, figure_module.Figure) and hasattr(item, "get_position") else None


def _static_html(obj):
    """How ``obj`` looks where widgets cannot run: its HTML fallback or its picture."""
    if isinstance(obj, (W.HTML, W.HTMLMath)):
        return obj.value
    data = {} if isinstance(obj, W.Widget) else format_display_data(obj)[0]
    if "text/html" in data:
        return data["text/html"]
    if "text/markdown" in data:
        return _markdown_html(data["text/markdown"])
    parts = []
    if "image/png" in data:
        parts.append(f'<img src="data:image/png;base64,{data["image/png"]}" alt="" '
                     'style="max-width:100%">')
    if "text/plain" in data:
        parts.append(f"<pre>{html.escape(data['text/plain'])}</pre>")
    return "".join(parts) or f"<p><i>(an interactive {html.escape(type(obj).__name__)})</i></p>"


def _markdown_html(text):
    """The little Markdown a result's display uses, as HTML: paragraphs, **bold** and pipe
    tables; ``$...$`` and ``$$...$$`` stay as they are, for the page's MathJax to typeset."""
    blocks = []
    for block in filter(None, (b.strip() for b in text.split("\n\n"))):
        lines = block.splitlines()
        if all(line.startswith("|") for line in lines):
            rows = [[_bold(cell.strip()) for cell in line.strip("|").split("|")]
                    for line in lines if not set(line) <= set("|-: ")]
            blocks.append("<table>" + "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>"
                                              for row in rows) + "</table>")
        else:
            blocks.append(f"<p>{_bold(block)}</p>")
    return "".join(blocks)


def _bold(text):
    return re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", html.escape(text, quote=False))


def _check_reveals(reveals):
    if reveals is None:
        return ()
    items = list(reveals) if isinstance(reveals, (list, tuple)) else [reveals]
    items = [_Picture(figure) if (figure := _matplotlib_figure(item)) is not None else item
             for item in items]
    for item in items:
        if isinstance(item, (str, bytes, list, tuple, dict)) or not (
                isinstance(item, W.Widget) or isinstance(getattr(item, "widget", None), W.Widget)
                or any(hasattr(item, name) for name in _RICH)):
            raise TypeError("reveals must be an explorer, a question, a widget, a displayable "
                            f"result, a picture (a result's .plot()) or a list of them, got {item!r}")
    return tuple(items)


class Predict:
    """Ask for a prediction; show what answers it only after the student locks it in.

    Parameters
    ----------
    prompt : str
        The question, e.g. "What fraction of the 100 intervals will miss the true error?".
    answer : float or str or int, optional
        The right answer, computed with the library. A number, or with ``options``
        the right option (its text or index). Without it the guess is only recorded.
    options : sequence of str, optional
        At least two different choices; without them the student types a number
        (``0.3``, ``30%`` and ``12/40`` all work).
    tolerance : float, optional
        For a numeric ``answer``: how far a guess may be from it and still count as
        close. Without it the guess is compared by its distance only, with no verdict.
    reveals : object or list of objects, optional
        What answers the question: an explorer, a question, any ipywidget, a result
        (anything Jupyter can display), a picture (the Axes a result's ``.plot()``
        returns, or a matplotlib Figure), or a list of them. Hidden until lock-in, then
        shown below the prediction. Do not display them separately.
    explanation : str, optional
        Shown with the answer after lock-in.
    id : str, optional
        A stable name for the prediction, unique within its lesson (1 to 80 letters, digits,
        ``_``, ``.`` or ``-``, e.g. ``"training-error"``): the same prediction has the same id
        in every student's kernel, so a class poll can count the answers.

    Attributes
    ----------
    locked : bool
        Whether the guess is locked in.
    guess : float or str or None
        The locked-in guess (a number, or the option's text); None before lock-in.
    correct : bool or None
        After lock-in, whether the guess is the right option or within ``tolerance``
        of ``answer``; None when there is nothing to judge by.
    widget : ipywidgets.VBox
        The interactive view; the revealed widgets are its last child.
    poll : evalteach.poll.views.ClassPoll or None
        On a JupyterHub with the class poll (and with an ``id``): the locked-in guess is sent
        to it in the background, and an instructor sees the class's answers here. None
        elsewhere, and then no network call is made.
    held : bool
        Whether the guess is locked in and its answer held back: while an instructor runs the
        prediction as a live vote, the answer, the explanation and what it reveals appear when
        they reveal it, and until voting closes the student may change their vote.

    Notes
    -----
    Where widgets cannot run (nbconvert HTML, GitHub) the prediction shows as text,
    with the revealed objects' pictures and the answer folded under "Reveal", so a
    reader of the static page can still predict before looking.

    Examples
    --------
    >>> import evalteach as et
    >>> explorer = et.SamplingErrorExplorer(error=0.3, n=160, seed=0)  # doctest: +SKIP
    >>> p = et.Predict("n goes from 40 to 160. By what factor does the spread shrink?",
    ...                answer=2, tolerance=0.25, reveals=explorer,  # doctest: +SKIP
    ...                explanation="The standard error falls like 1/sqrt(n): four times the "
    ...                            "data, half the spread.")
    >>> p.lock("4")  # doctest: +SKIP
    True
    """

    #: Whether :meth:`close` has run: then the prediction holds nothing else.
    closed = False

    def __init__(self, prompt, *, answer=None, options=None, tolerance=None, reveals=None,
                 explanation=None, id=None):
        self.id = _validate.identifier("id", id, optional=True)
        self.prompt = _text("prompt", prompt)
        self.options = None if options is None else parse_options(options)
        if self.options is None:
            self.answer = None if answer is None else _validate.real("answer", answer)
        else:
            self.answer = None if answer is None else self.options[
                option_index(self.options, answer, name="answer")]
        if tolerance is not None:
            if self.options is not None:
                raise ValueError("tolerance applies to a numeric answer, not to options; "
                                 f"got tolerance={tolerance!r} with options")
            if self.answer is None:
                raise ValueError(f"tolerance needs an answer to measure from; got "
                                 f"tolerance={tolerance!r} and answer=None")
            tolerance = _validate.real("tolerance", tolerance, low=0.0)
        self.tolerance = tolerance
        self.explanation = _text("explanation", explanation, optional=True)
        self.reveals = _check_reveals(reveals)
        self.guess = None
        self.correct = None
        self._shown = False  # the answer and what it reveals are on screen
        self._showing = threading.Lock()  # the poll may show a held answer from another thread
        self._voted_round = None  # the live vote's round of the last lock-in
        self._make_view()
        self.restyle()
        plotting.listen(self)
        record.register(self)
        self.poll = poll.attach(self.id, options=self.options, correct=self.answer, changed=self._poll_changed)
        if self.poll is not None:  # on a Hub with the class poll: under the outcome, above the reveal
            children = list(self.widget.children)
            children.insert(children.index(self._revealed), self.poll.widget)
            self.widget.children = children

    def _make_view(self):
        self._prompt = W.HTMLMath(f"<b>Predict:</b> {html.escape(self.prompt)}")
        if self.options is None:
            self._input = W.Text(placeholder="type a number", description="Your prediction:",
                                 continuous_update=True, style={"description_width": "initial"})
            self._input.on_msg(self._on_message)
        else:
            self._input = choice_buttons(self.options)
        self._lock_button = W.Button(description="Lock in", button_style="primary", icon="lock",
                                     tooltip="Commit to your prediction; then the answer appears")
        self._lock_button.on_click(lambda _: self._on_lock())
        self._status = W.HTMLMath()
        self._outcome = W.HTMLMath()
        self._revealed = W.VBox([_as_widget(item) for item in self.reveals],
                                layout=W.Layout(display="none"))
        self._revealed.add_class("evalteach-revealed")
        self._input.add_class("evalteach-predict-input")  # the guess, apart from revealed widgets' inputs
        style = [] if self.options is None else [CHOICE_STYLE]
        self.widget = W.VBox([*style, self._prompt, W.HBox([self._input, self._lock_button]),
                              self._status, self._outcome, self._revealed])
        self.widget.add_class("evalteach-predict")

    # --- behaviour ------------------------------------------------------------------------

    @property
    def locked(self):
        """Whether the student has locked in a guess."""
        return self.guess is not None

    @property
    def held(self):
        """Whether the guess is locked in and its answer held back for the instructor's reveal."""
        return self.locked and not self._shown

    @property
    def guess_text(self):
        """The guess as shown to the student ("" before lock-in)."""
        if self.guess is None:
            return ""
        return self.guess if self.options is not None else _show(self.guess)

    @property
    def answer_text(self):
        """The answer as shown to the student ("" if there is none)."""
        if self.answer is None:
            return ""
        return self.answer if self.options is not None else _show(self.answer)

    @property
    def feedback(self):
        """What the student sees under the prompt, as HTML: status, then the outcome."""
        return self._status.value + self._outcome.value

    def _read(self, value):
        """The guess that ``value`` names, or None if it cannot be read."""
        if self.options is None:
            return parse_number(value)
        try:
            return self.options[option_index(self.options, value, name="prediction")]
        except (TypeError, ValueError):
            return None

    def lock(self, value):
        """Lock in ``value`` as the prediction, as the "Lock in" button does.

        Returns True if the guess was locked in. An unreadable value (text that is
        not a number, an option that does not exist) is not an error: it returns
        False and says so under the prompt. Once locked, the guess is frozen and
        further calls return False; only in a live vote's open round (:attr:`held`)
        does a new guess replace the vote.
        """
        if self.locked and not (self.held and self.poll.voting):
            already = "Voting is closed" if self.held else "Already locked in"
            self._say(_ANSWER, f"{already}: you predicted {self.guess_text}.")
            return False
        guess = self._read(value)
        if guess is None:
            if self.options is None:
                self._say(_BAD, f"Please type a number (for example 0.25, 25% or 12/40); "
                                f"{value!r} is not one.")
            else:
                self._say(_BAD, "Please pick one of the options first.")
            return False
        self.guess = guess
        self._say(_ANSWER, f"You predicted {self.guess_text}.")
        if self.poll is not None and self.poll.vote(self.guess):  # a live vote: held for the reveal
            status = self.poll.status
            self._voted_round = status[1] if isinstance(status, tuple) else None
            self._poll_changed(self.poll)
        else:
            self._show()
        record.changed()
        return True

    def _show(self):
        """Freeze the guess; show the answer, the explanation and what the prediction reveals."""
        with self._showing:
            if self._shown:
                return
            self._shown = True
        self._input.disabled = True
        self._lock_button.disabled = True
        self._lock_button.description = "Locked in"
        self._compare()
        self._revealed.layout.display = "flex"

    def _poll_changed(self, poll):
        """News from the class poll (a background thread): show a held answer once it is time;
        until then the vote may change while its round is open."""
        if not self.held:
            return
        if not poll.holding:
            self._show()
            record.changed()
            return
        voting = poll.voting
        status = poll.status
        if isinstance(status, tuple) and self._voted_round is None:  # locked in before the kernel knew
            self._voted_round = status[1]
        again = isinstance(status, tuple) and status[1] != self._voted_round
        self._input.disabled = self._lock_button.disabled = not voting
        self._lock_button.description = ("Vote again" if again else "Change vote") if voting else "Voting closed"

    def _on_lock(self):
        try:
            self.lock(self._input.value)
        except Exception as exc:  # noqa: BLE001 - a widget never raises into the kernel
            self._say(_BAD, f"Could not lock in: {type(exc).__name__}: {exc}")

    def _on_message(self, _widget, content, _buffers):
        # Enter in the number box locks in, as it checks a question (the value is synced per key)
        if content.get("event") == "submit":
            self._on_lock()

    def _compare(self):
        if self.answer is None:
            self._outcome.value = self._paragraph(None, None, self.explanation)
            return
        if self.options is not None:
            self.correct = self.guess == self.answer
            headline = "Right." if self.correct else f"The answer is {self.answer_text}."
        else:
            off = abs(self.guess - self.answer)
            headline = f"The answer is {self.answer_text}; you were off by {_show(off)}"
            if self.tolerance is None:
                headline += "."
            else:
                # a little slack for binary rounding, as in NumericQuestion
                self.correct = off <= self.tolerance + 1e-12 * max(1.0, abs(self.answer))
                headline += (f", within {_show(self.tolerance)}: a good prediction."
                             if self.correct else f", more than {_show(self.tolerance)}.")
        color = {True: _GOOD, False: _BAD, None: _ANSWER}[self.correct]
        self._outcome.value = self._paragraph(color, headline, self.explanation)

    @staticmethod
    def _paragraph(color, headline, detail):
        body = f"<b style='color:{color}'>{html.escape(headline)}</b>" if headline else ""
        if detail:
            body += f" {html.escape(detail)}"
        return f"<div>{body}</div>" if body else ""

    def _say(self, color, text):
        self._status.value = (f"<div role='status' aria-live='polite'>"
                              f"<b style='color:{color}'>{html.escape(text)}</b></div>")

    def restyle(self):
        """Follow the theme's control sizes (called by :func:`evalteach.presenter`)."""
        if self.closed:
            return
        t = plotting.theme()
        for part in (self._prompt, self._status, self._outcome, self._lock_button, self._input):
            if "font_size" in part.style.keys:
                part.style.font_size = t.control_font
        if self.options is None:
            self._input.layout.width = t.control_width

    # --- display --------------------------------------------------------------------------

    def _text_plain(self):
        lines = [f"Predict: {self.prompt}"]
        if self.options is not None:
            lines += [f"({chr(ord('a') + i)}) {t}" for i, t in enumerate(self.options)]
        if self.locked:
            lines.append(f"You predicted {self.guess_text}.")
        return "\n".join(lines)

    def _html(self):
        parts = [f"<p><b>Predict.</b> {html.escape(self.prompt)}</p>"]
        if self.options is not None:
            parts.append("<ul>" + "".join(f"<li>{html.escape(t)}</li>" for t in self.options)
                         + "</ul>")
        parts.append("<p><i>Write down your prediction before you open what answers it.</i></p>")
        revealed = "".join(_static_html(item) for item in self.reveals)
        if self.answer is not None:
            answer = f"<b>{html.escape(self.answer_text)}</b>."
            if self.explanation:
                answer += " " + html.escape(self.explanation)
            revealed += f"<p>Answer: {answer}</p>"
        elif self.explanation:
            revealed += f"<p>{html.escape(self.explanation)}</p>"
        if revealed:
            parts.append(f"<details><summary>Reveal</summary>{revealed}</details>")
        return f"<div class='evalteach-predict'>{''.join(parts)}</div>"

    def close(self):
        """Close this prediction's widgets and let go of everything it holds, as
        :meth:`Explorer.close` does. What it reveals stays open: it is the caller's. When a
        cell that showed a prediction runs again, the prediction is closed for you, and what
        it revealed too unless something else holds it (:mod:`._cells`)."""
        if self.closed:
            return
        theirs = [child for child, item in zip(self._revealed.children, self.reveals)
                  if child is item or child is getattr(item, "widget", None)]
        _cells.close_widgets([self.widget], keep=theirs)
        self.__dict__.clear()
        self.closed = True

    def _repr_mimebundle_(self, **kwargs):
        if self.closed:
            return {"text/plain": repr(self)}
        _cells.shown(self)
        bundle = self.widget._repr_mimebundle_(**kwargs) or {}
        bundle["text/plain"] = self._text_plain()
        bundle["text/html"] = self._html()
        # No top-level image/png: a front end that prefers pictures to HTML (a PDF export)
        # would show what the prediction hides. The HTML folds the revealed pictures away.
        return bundle

    def __repr__(self):
        if self.closed:
            return "<Predict closed>"
        state = f"guess={self.guess!r}" if self.locked else "not locked in"
        return f"<Predict {self.prompt!r}, {state}>"
