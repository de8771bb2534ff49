"""The class poll under one question: the instructor's panel, or the student's line.

:func:`evalteach.poll.attach` makes a :class:`ClassPoll` for every question with an ``id=``
when the Hub told the kernel where the poll is. It asks the service once who the kernel's
user is (in the background), then shows

- to an instructor, a :class:`InstructorPanel`: the live count; "Start live vote" (while the
  question is self-paced); "Show answers" (bars per option, a histogram for numbers, every
  round side by side); "Mark right answer" (only when chosen); "Close voting" / "Reopen
  voting", "Start round 2" and "Reveal to class";
- to a student, a :class:`StudentLine`: where their vote is; while the question is run live,
  that the answer appears when the instructor reveals it (the question holds it back,
  :mod:`evalteach.poll.live`), "Voting closed", a new round; after the reveal, the class's
  answers beside their own. Before the reveal a student sees nothing of the others' answers.
  The kernel keeps the lesson's list of live questions current with one request that the
  service holds until the list changes, so it knows before a lock-in whether to hold it.

Everything that talks to the service runs in the connection's background threads
(:mod:`evalteach.poll.client`); a failure becomes a short note, never an exception.
"""
from __future__ import annotations

import html
import threading
import time

import ipywidgets as W

from .. import plotting
from . import bars, live
from .client import Unreachable

__all__ = ["ClassPoll", "InstructorPanel", "StudentLine"]

#: Seconds between tries while the service cannot be reached: about five minutes in all, at
#: most ten seconds apart (the Hub restarts a service that died within about half a minute).
RETRY_SECONDS = (1, 2, 4, 8) + (10,) * 28


def _note(text, color=None):
    style = f" style='color:{color}'" if color else ""
    return (f"<div role='status' aria-live='polite' style='font-size:{plotting.theme().control_font}'>"
            f"<i{style}>Class poll: {html.escape(text)}</i></div>")


class ClassPoll:
    """The class poll's part of one question (made by :func:`evalteach.poll.attach`).

    Parameters
    ----------
    connection : evalteach.poll.client.Connection
    question : str
        The question's id.
    options : sequence of str, optional
        The options; None for a numeric answer.
    correct : str or float, optional
        The right option's text or the right number.
    changed : callable, optional
        Called with this ClassPoll (from a background thread) when whether the question's answer
        is held may have changed: the question then shows a held answer (:attr:`holding` is
        False) or lets the student change their vote (:attr:`voting`).

    Attributes
    ----------
    widget : ipywidgets.VBox
        Empty until the service says who the user is.
    view : InstructorPanel or StudentLine or None
        None until then, and for a user who takes no part in the poll.
    ready : concurrent.futures.Future
        Done when ``view`` is set (or the service could not be reached).
    gate : evalteach.poll.live.Gate
        Whether this kernel's vote is shown, held or waiting.
    """

    def __init__(self, connection, question, *, options=None, correct=None, changed=None):
        self.connection, self.question = connection, question
        self.options = None if options is None else list(options)
        self.correct = correct
        self.on_change = changed
        self.gate = live.Gate()
        self._deciding = threading.Lock()  # a vote and news must not pass each other
        self._sending = 0  # votes on their way to the service
        self.note = W.HTML()
        self.widget = W.VBox([self.note])
        self.widget.add_class("evalteach-poll")
        self.view = None
        connection.listen(question, self)
        self.ready = connection.run(self._start)

    def _start(self):
        """Ask who the user is (once per kernel) and build their view. Worker thread. A user who
        is neither student nor instructor gets no view, and their answers are not sent. A
        student's kernel starts keeping the lesson's live questions current."""
        if self.view is None:
            try:
                me = self.connection.me()
            finally:
                self.changed()  # the role is known now, or the service cannot be reached
            if me is None:
                return None
            self.view = (InstructorPanel if me.get("instructor") else StudentLine)(self)
            self.widget.children = (self.note, self.view.widget)
            if isinstance(self.view, StudentLine):
                self.connection.keep_lesson_current()
                self.changed()
        return self.view

    # --- what the question asks -------------------------------------------------------------

    @property
    def status(self):
        """What this kernel knows of the question: ``(state, round)`` while it is run live,
        ``"self-paced"``, ``"unreachable"``, or None before it knows."""
        return self.connection.live.status(self.question)

    @property
    def holding(self):
        """Whether the student's vote is in and its answer not shown yet."""
        return self.gate.holding

    @property
    def hides_answer(self):
        """Whether the question is run live and unrevealed for this student (no "Show answer")."""
        return live.verdict(self.connection.role, self.status) == live.HOLD

    @property
    def voting(self):
        """Whether this student's kernel holds a vote in a round that is open."""
        status = self.status
        return self.holding and isinstance(status, tuple) and status[0] == "open"

    def vote(self, value):
        """The student locked in or checked ``value``: send it in the background (an instructor's
        own answers are not sent). Returns True if the question is to hold its answer back; it is
        then told by ``changed`` when to show it. Never raises, never waits for the network."""
        with self._deciding:
            phase = self.gate.vote(live.verdict(self.connection.role, self.status))
            self._sending += 1
        if self.connection.role == "student":
            self.connection.keep_lesson_current()  # again, if it stopped after a quiet half hour
        self.send(value)
        return phase != "shown"

    def send(self, value):
        """Send ``value`` as this user's answer in the question's current round, retrying for
        about five minutes while the service cannot be reached. Returns a Future. While the
        answer is shown (self-paced), only the round's first answer counts; a held vote is
        replaced by the next."""
        def attempt():
            view = self._start()
            if isinstance(view, StudentLine):
                view.send(bars.answer_text(value), first=not self.gate.holding)

        def job():
            try:
                self._retrying(attempt)
            finally:
                with self._deciding:
                    self._sending -= 1

        return self.connection.run(job)

    @property
    def sending(self):
        """Whether a vote is on its way to the service."""
        return self._sending > 0

    def _retrying(self, attempt, gave_up="could not reach the service, so this answer was not counted."):
        """Run ``attempt()`` until the service answers, about five minutes at most; True if it did."""
        for wait in (*RETRY_SECONDS, None):
            try:
                attempt()
                return True
            except Unreachable:
                if wait is None:
                    self.say(gave_up, plotting.PALETTE["vermillion"])
                    return False
                self.say(f"cannot reach the service; trying again in {wait} s. The lesson goes on.")
                time.sleep(wait)

    # --- news from the connection (background threads) ----------------------------------------

    def changed(self):
        """The user's role or the lesson's live questions changed: show a held answer when it is
        time, and say where the vote is."""
        with self._deciding:
            was = self.gate.phase
            released = self.gate.update(live.verdict(self.connection.role, self.status))
        if isinstance(self.view, StudentLine):
            self.view.changed()
            if released and was == "held" and live.shown_unrevealed(self.status):
                self.say(live.shown_unrevealed(self.status))
        if self.on_change is not None:
            self.on_change(self)
        return released

    def stopped(self):
        """The lesson's live questions are no longer kept current."""
        if isinstance(self.view, StudentLine):
            self.view.stopped()

    def say(self, text, color=None):
        self.note.value = _note(text, color) if text else ""


class StudentLine:
    """What a student sees: where their vote is; the round's state while the question is run
    live; the class's answers once revealed."""

    def __init__(self, poll):
        self.poll = poll
        self.round = 1  # the round to vote in, while the question is self-paced
        self.sent = {}  # round -> the answer counted in it
        self.revealed_round = None  # the round whose reveal is on screen, or being fetched
        self.bars = W.HTML()
        self.look = W.Button(description="Look again", tooltip="Ask the class poll whether the answers are revealed",
                             layout=W.Layout(display="none"))
        self.look.on_click(lambda _: self._on_look())
        self.widget = W.VBox([self.look, self.bars])

    @property
    def mine(self):
        """The answer this student sent last (None before any)."""
        return self.sent[max(self.sent)] if self.sent else None

    def send(self, text, *, first=False):
        """POST the answer for the current round (worker thread; raises Unreachable to be retried).

        With ``first``, an answer already counted in this round is not replaced (a question's
        later checks, after its feedback).
        """
        status = self.poll.status
        round_ = status[1] if isinstance(status, tuple) else self.round
        if first and round_ in self.sent:
            return
        self.poll.say("sending your answer…")
        reply = self.poll.connection.call("POST", "api/answers", {
            "lesson": self.poll.connection.lesson, "question": self.poll.question,
            "answer": text, "round": round_})
        if reply.status == 429:
            raise Unreachable("too many answers at once")  # retried a second later
        if reply.status == 200:
            self.sent[round_] = text
            self.look.layout.display = "none"
            self._say_where(f"your answer ({text}) is in, round {round_}. The class's answers appear "
                            "here when your instructor reveals them.")
        elif reply.status == 403 and "state" in reply.body:
            self.round = reply.body["round"]
            self._say_where("voting on this question is closed, so this answer was not counted.")
            if reply.body["state"] == "revealed":
                self._reveal(self.round)
        else:
            self.poll.say(f"the answer was refused: {reply.body.get('error', reply.status)}",
                          plotting.PALETTE["vermillion"])

    def _say_where(self, otherwise):
        """Say where the vote just sent is: the live vote's note if there is one, else ``otherwise``."""
        text = live.note(self.poll.gate.phase, self.poll.status, self.sent, self.mine)
        self.poll.say(text if text is not None else otherwise)

    def changed(self):
        """The question's status may have changed (a background thread)."""
        status = self.poll.status
        text = live.note(self.poll.gate.phase, status, self.sent, self.mine, sending=self.poll.sending)
        if text is not None:
            self.poll.say(text)
        if isinstance(status, tuple) and status[0] == "revealed" and self.poll.gate.phase != "none":
            self._reveal(status[1])

    def stopped(self):
        if self.sent and self.revealed_round is None:
            self.look.layout.display = "flex"

    def _reveal(self, round_):
        """Show the class's answers, revealed in ``round_``, once (fetched in the worker thread)."""
        if self.revealed_round == round_:
            return
        self.revealed_round = round_

        def job():
            if not self.poll._retrying(self._show_class, "could not reach the service to show the class's answers."):
                self.revealed_round = None
                self.look.layout.display = "flex"

        self.poll.connection.run(job)

    def _show_class(self):
        """Fetch the class's answers (students may read them once revealed) and show them."""
        reply = self.poll.connection.call("GET", self.poll.connection.question_path(self.poll.question))
        if reply.status != 200:
            return
        body = reply.body
        self.look.layout.display = "none"
        self.poll.say("the answer, revealed by your instructor, and the class's answers:")
        self.bars.value = bars.to_html(bars.tally(body["rounds"], self.poll.options),
                                       correct=self.poll.correct, mine=self._mine_value())

    def _mine_value(self):
        if self.mine is None or self.poll.options is not None:
            return self.mine
        return float(self.mine)

    def _on_look(self):
        self.look.layout.display = "none"
        self.poll.connection.keep_lesson_current()
        self.changed()


class InstructorPanel:
    """What an instructor sees under a question: the live count, the answers, the round's controls."""

    def __init__(self, poll):
        self.poll = poll
        self.data = None  # the service's last word: {"state", "round", "rounds"}
        self.status = W.HTML()
        def fit():  # ipywidgets' fixed button width wraps an icon and a longer label
            return W.Layout(width="auto")

        self.show = W.ToggleButton(description="Show answers", icon="bar-chart", layout=fit(),
                                   tooltip="Show the distribution of the class's answers")
        self.mark = W.ToggleButton(description="Mark right answer", icon="check", layout=fit(),
                                   tooltip="Mark the right answer in the distribution")
        self.mark.layout.display = "none" if poll.correct is None else None
        self.start = W.Button(description="Start live vote", icon="play", button_style="primary", layout=fit(),
                              tooltip="Students' answers are held back until you reveal them")
        self.close = W.Button(description="Close voting", icon="lock", layout=fit())
        self.next_round = W.Button(description="Start round 2", icon="repeat", layout=fit(),
                                   tooltip="Open the same question again, after the discussion")
        self.reveal = W.Button(description="Reveal to class", icon="eye", layout=fit(),
                               tooltip="Students see the class's answers beside their own")
        self.refresh_button = W.Button(description="Refresh", icon="refresh", layout=fit(),
                                       tooltip="Count again now")
        for toggle in (self.show, self.mark):
            toggle.observe(lambda _: self._draw(), names="value")
        self.start.on_click(lambda _: self._act(self.start_live_vote))
        self.close.on_click(lambda _: self._act(self._close_or_reopen))
        self.next_round.on_click(lambda _: self._act(lambda: self.set_state("open", self.round + 1)))
        self.reveal.on_click(lambda _: self._act(lambda: self.set_state("revealed", self.round)))
        self.refresh_button.on_click(lambda _: self._act(lambda: None))
        self.bars = W.HTML()
        self.widget = W.VBox([self.status, W.HBox([self.start, self.show, self.mark, self.close, self.next_round,
                                                   self.reveal, self.refresh_button],
                                                  layout=W.Layout(flex_flow="row wrap")), self.bars])
        self.widget.add_class("evalteach-poll-panel")
        self.tick()
        poll.connection.watch(self)

    @property
    def state(self):
        return self.data["state"] if self.data else "open"

    @property
    def round(self):
        return self.data["round"] if self.data else 1

    @property
    def live(self):
        """Whether the question is run live (students' answers held until the reveal)."""
        return bool(self.data and self.data.get("live"))

    @property
    def count(self):
        """How many answered in the current round (0 before the first look)."""
        return self.data["rounds"].get(str(self.round), {}).get("n", 0) if self.data else 0

    def tick(self):
        """Count again (ticker or worker thread)."""
        try:
            reply = self.poll.connection.call("GET", self.poll.connection.question_path(self.poll.question))
        except Unreachable as exc:
            self.poll.say(f"cannot reach the service ({exc}); the count shown may be old.",
                          plotting.PALETTE["vermillion"])
            return
        if reply.status != 200:
            self.poll.say(f"the service said: {reply.body.get('error', reply.status)}",
                          plotting.PALETTE["vermillion"])
            return
        if reply.body != self.data:
            self.data = reply.body
            self.poll.connection.watch(self)  # live for another half hour after each change
        self.poll.say("")
        self._draw()

    def expired(self):
        self.poll.say("not live any more (nothing changed for 30 minutes); press Refresh.")

    def set_state(self, state, round_):
        """Ask the service to give the question ``state`` in ``round_`` (worker thread)."""
        reply = self.poll.connection.call("POST", self.poll.connection.question_path(self.poll.question) + "/state",
                                          {"state": state, "round": round_})
        if reply.status != 200:
            self.poll.say(f"the service refused: {reply.body.get('error', reply.status)}",
                          plotting.PALETTE["vermillion"])

    def start_live_vote(self):
        """Run the question live (worker thread): in its round if nobody has answered it yet,
        else in a new round, apart from the answers given at the students' own pace."""
        fresh = self.state == "open" and self.count == 0
        self.set_state("open", self.round if fresh else self.round + 1)

    def _close_or_reopen(self):
        self.set_state("closed" if self.state == "open" else "open", self.round)

    def _act(self, change):
        """A click: change the question in the background, then count again."""
        def job():
            try:
                change()
                self.tick()
            except Unreachable as exc:
                self.poll.say(f"cannot reach the service ({exc}); try again.", plotting.PALETTE["vermillion"])
            self.poll.connection.watch(self)
        self.poll.connection.run(job)

    def _draw(self):
        if self.data is None:
            return
        rounds = self.data["rounds"]
        state = {"open": "voting open", "closed": "voting closed", "revealed": "revealed to the class"}[self.state]
        earlier = ", ".join(f"round {r}: {rounds[r]['n']}" for r in sorted(rounds, key=int)
                            if int(r) != self.round)
        answers = f"{self.count} answer{'' if self.count == 1 else 's'}"
        self.status.value = (f"<div role='status' aria-live='polite' style='font-size:"
                             f"{plotting.theme().control_font}'><b>Class poll</b> · "
                             f"{'live vote' if self.live else 'self-paced (students see the answer at once)'}"
                             f" · round {self.round} · {state} · <b>{answers}</b>"
                             f"{f' ({earlier})' if earlier else ''}</div>")
        self.start.layout.display = "none" if self.live else None
        self.close.description = "Close voting" if self.state == "open" else "Reopen voting"
        self.close.icon = "lock" if self.state == "open" else "unlock"
        self.next_round.description = f"Start round {self.round + 1}"
        self.reveal.disabled = self.close.disabled = self.state == "revealed"
        if self.show.value:
            t = bars.tally(rounds, self.poll.options)
            self.bars.value = bars.to_html(t, correct=self.poll.correct if self.mark.value else None)
        else:
            self.bars.value = ""
