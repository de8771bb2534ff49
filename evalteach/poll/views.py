"""The class poll under one question: the instructor's panel, or the student's line.

:func:`evalteach.poll.attach` makes a :class:`ClassPoll` for every question with an ``id=``
when the Hub told the kernel where the poll is. It asks the service once who the kernel's
user is (in the background), then shows

- to an instructor, a :class:`InstructorPanel`: the live count; "Show answers" (bars per
  option, a histogram for numbers, every round side by side); "Mark right answer" (only when
  chosen); "Close voting" / "Reopen voting", "Start round 2" and "Reveal to class";
- to a student, a :class:`StudentLine`: nothing until they answer; then where their answer
  is; an answer box when the instructor starts a new round; after the reveal, the class's
  answers beside their own. Before the reveal a student sees nothing of the others' answers.
  The kernel learns of a new round or the reveal at once: the service holds its request until
  the question changes (for the two questions answered last).

Everything that talks to the service runs in the connection's background threads
(:mod:`evalteach.poll.client`); a failure becomes a short note, never an exception.
"""
from __future__ import annotations

import html
import time

import ipywidgets as W

from .. import plotting
from . import bars, client
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
    parse : callable, optional
        Reads a typed number, for a student's answer in a later round.

    Attributes
    ----------
    widget : ipywidgets.VBox
        Empty until the service says who the user is.
    view : InstructorPanel or StudentLine or None
        None until then, and for a user who takes no part in the poll.
    ready : concurrent.futures.Future
        Done when ``view`` is set (or the service could not be reached).
    """

    def __init__(self, connection, question, *, options=None, correct=None, parse=None):
        self.connection, self.question = connection, question
        self.options = None if options is None else list(options)
        self.correct, self.parse = correct, parse
        self.note = W.HTML()
        self.widget = W.VBox([self.note])
        self.widget.add_class("evalteach-poll")
        self.view = None
        self.ready = connection.run(self._start)

    def _start(self):
        """Ask who the user is (once per kernel) and build their view. Worker thread. A user who
        is neither student nor instructor gets no view, and their answers are not sent."""
        if self.view is None:
            me = self.connection.me()
            if me is None:
                return None
            self.view = (InstructorPanel if me.get("instructor") else StudentLine)(self)
            self.widget.children = (self.note, self.view.widget)
        return self.view

    def answered(self, value):
        """The student locked in or checked ``value``: send it in the background. Returns a
        Future; never raises. An instructor's own answers are not sent."""
        return self.send(value, first=True)

    def send(self, value, *, first=False):
        """Send ``value`` as this user's answer in the question's current round, retrying for
        about five minutes while the service cannot be reached. Returns a Future."""
        def attempt():
            view = self._start()
            if isinstance(view, StudentLine):
                view.send(bars.answer_text(value), first=first)

        return self.connection.run(lambda: self._retrying(attempt))

    def _retrying(self, attempt):
        for wait in (*RETRY_SECONDS, None):
            try:
                attempt()
                return
            except Unreachable:
                if wait is None:
                    self.say("could not reach the service, so this answer was not counted.",
                             plotting.PALETTE["vermillion"])
                    return
                self.say(f"cannot reach the service; trying again in {wait} s. The lesson goes on.")
                time.sleep(wait)

    def say(self, text, color=None):
        self.note.value = _note(text, color) if text else ""


class StudentLine:
    """What a student sees: where their answer is; later rounds; the class's answers once revealed."""

    #: Seconds one request waits for the question to change (the service holds it meanwhile).
    WAIT = 25

    def __init__(self, poll):
        self.poll = poll
        self.state, self.round = "open", 1
        self.sent = {}  # round -> the answer sent in it
        self.stopped = False
        self.bars = W.HTML()
        self.entry = (W.Text(placeholder="type a number", layout=W.Layout(width="12em"))
                      if poll.options is None else
                      W.Dropdown(options=poll.options, value=None, layout=W.Layout(width="auto")))
        send = W.Button(description="Send", button_style="primary", tooltip="Send this answer to the class poll")
        send.on_click(lambda _: self._on_send())
        self.again = W.HBox([self.entry, send], layout=W.Layout(display="none"))
        self.look = W.Button(description="Look again", tooltip="Ask the class poll whether the answers are revealed",
                             layout=W.Layout(display="none"))
        self.look.on_click(lambda _: self._on_look())
        self.widget = W.VBox([self.again, self.look, self.bars])

    @property
    def mine(self):
        """The answer this student sent last (None before any)."""
        return self.sent[max(self.sent)] if self.sent else None

    def send(self, text, *, first=False):
        """POST the answer for the current round (worker thread; raises Unreachable to be retried).

        A question's later checks (``first``) do not replace the answer already sent in this round.
        """
        if first and self.round in self.sent:
            return
        self.poll.say("sending your answer…")
        round_ = self.round
        reply = self.poll.connection.call("POST", "api/answers", {
            "lesson": self.poll.connection.lesson, "question": self.poll.question,
            "answer": text, "round": round_})
        if reply.status == 429:
            raise Unreachable("too many answers at once")  # retried a second later
        if reply.status == 200:
            self.sent[round_] = text
            self.again.layout.display = "none"
            self.poll.say(f"your answer ({text}) is in, round {round_}. The class's answers appear "
                          "here when your instructor reveals them.")
        elif reply.status == 403 and "state" in reply.body:
            self.poll.say("voting on this question is closed, so this answer was not counted.")
            self._learn(reply.body["state"], reply.body["round"])
        else:
            self.poll.say(f"the answer was refused: {reply.body.get('error', reply.status)}",
                          plotting.PALETTE["vermillion"])
            return
        self.poll.connection.follow(self)

    def follow(self):
        """Wait for a new round or the reveal, for half an hour after the last change (a thread
        of its own; each request waits at the service until the question changes)."""
        path = self.poll.connection.question_path(self.poll.question)
        until = time.monotonic() + 60 * client.WATCH_MINUTES
        while not self.stopped and time.monotonic() < until:
            query = "" if self.state == "revealed" else f"?wait={self.WAIT}&state={self.state}&round={self.round}"
            try:
                reply = self.poll.connection.call("GET", path + query, timeout=self.WAIT + client.TIMEOUT)
            except Unreachable:
                time.sleep(5)
                continue
            if reply.status == 200:
                self._reveal(reply.body)
                return
            if reply.status == 403 and "state" in reply.body:
                if self._learn(reply.body["state"], reply.body["round"]):
                    until = time.monotonic() + 60 * client.WATCH_MINUTES
            else:
                time.sleep(5)
        self.look.layout.display = "flex"

    def stop(self):
        """Stop waiting (a later answered question is followed instead); "Look again" resumes."""
        self.stopped = True

    def _learn(self, state, round_):
        """Take in the question's state and round; True if they changed."""
        changed = (state, round_) != (self.state, self.round)
        self.state, self.round = state, round_
        if state == "open" and round_ not in self.sent and self.sent:
            self.again.layout.display = "flex"
            self.poll.say(f"round {round_} is open. After the discussion, answer again:")
        elif changed and state == "closed":
            self.again.layout.display = "none"
            if round_ not in self.sent:
                self.poll.say(f"round {round_} is closed.")
        return changed

    def _reveal(self, body):
        self.state, self.round = body["state"], body["round"]
        self.again.layout.display = self.look.layout.display = "none"
        self.poll.say("the class's answers, revealed by your instructor:")
        self.bars.value = bars.to_html(bars.tally(body["rounds"], self.poll.options),
                                       correct=self.poll.correct, mine=self._mine_value())

    def _mine_value(self):
        if self.mine is None or self.poll.options is not None:
            return self.mine
        return float(self.mine)

    def _on_send(self):
        value = self.entry.value
        if self.poll.options is None:
            value = self.poll.parse(value) if self.poll.parse else None
            if value is None:
                self.poll.say(f"please type a number; {self.entry.value!r} is not one.")
                return
        elif value is None:
            self.poll.say("please pick an answer first.")
            return
        self.poll.send(value)

    def _on_look(self):
        self.look.layout.display = "none"
        self.stopped = False
        self.poll.connection.follow(self)


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
        self.close = W.Button(description="Close voting", icon="lock", layout=fit())
        self.next_round = W.Button(description="Start round 2", icon="repeat", layout=fit(),
                                   tooltip="Open the same question again, after the discussion")
        self.reveal = W.Button(description="Reveal to class", icon="eye", layout=fit(),
                               tooltip="Students see the class's answers beside their own")
        self.refresh_button = W.Button(description="Refresh", icon="refresh", layout=fit(),
                                       tooltip="Count again now")
        for toggle in (self.show, self.mark):
            toggle.observe(lambda _: self._draw(), names="value")
        self.close.on_click(lambda _: self._act(self._close_or_reopen))
        self.next_round.on_click(lambda _: self._act(lambda: self.set_state("open", self.round + 1)))
        self.reveal.on_click(lambda _: self._act(lambda: self.set_state("revealed", self.round)))
        self.refresh_button.on_click(lambda _: self._act(lambda: None))
        self.bars = W.HTML()
        self.widget = W.VBox([self.status, W.HBox([self.show, self.mark, self.close, self.next_round,
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
                             f"{plotting.theme().control_font}'><b>Class poll</b> · round {self.round} · "
                             f"{state} · <b>{answers}</b>{f' ({earlier})' if earlier else ''}</div>")
        self.close.description = "Close voting" if self.state == "open" else "Reopen voting"
        self.close.icon = "lock" if self.state == "open" else "unlock"
        self.next_round.description = f"Start round {self.round + 1}"
        self.reveal.disabled = self.close.disabled = self.state == "revealed"
        if self.show.value:
            t = bars.tally(rounds, self.poll.options)
            self.bars.value = bars.to_html(t, correct=self.poll.correct if self.mark.value else None)
        else:
            self.bars.value = ""
