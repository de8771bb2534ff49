"""Live votes in a student's kernel: whether a polled answer is shown at once or held for the reveal.

Peer instruction asks every student to vote alone, discuss, and vote again before anyone sees the
answer (Crouch and Mazur 2001, *Am. J. Phys.* 69:970). So while an instructor runs a question
*live* (they opened, closed or revealed it lately: the service lists the lesson's live
questions), a student's lock-in or "Check" is sent as a vote and its answer, feedback and
revealed explorer are held until the instructor reveals the question. A question no instructor
runs live, a kernel that cannot reach the service, an instructor's own kernel and everyone off
a Hub see the answer at once, as on a laptop.

Everything here is plain state, without widgets or network, so the rules can be tested alone:

- :func:`verdict`: show, hold or wait (until the kernel knows), from who the user is and what
  the kernel knows of the question;
- :class:`Lesson`: the lesson's live questions as the kernel last heard of them;
- :class:`Gate`: one question's answer in a student's kernel: not voted, waiting, held, shown;
- :func:`note`: the sentence under the question.
"""
from __future__ import annotations

import time

__all__ = ["SHOW", "HOLD", "WAIT", "SELF_PACED", "UNREACHABLE", "verdict", "Lesson", "Gate", "note",
           "shown_unrevealed"]

#: Verdicts: show the answer now, hold it for the reveal, or wait until the kernel knows which.
SHOW, HOLD, WAIT = "show", "hold", "wait"
#: A question's status when no instructor runs it live, or when the service cannot be reached.
SELF_PACED, UNREACHABLE = "self-paced", "unreachable"
#: Roles (from ``api/me``) whose answers are never held: not a student, or unknown for good.
NEVER_HELD = ("instructor", "outside", UNREACHABLE)
#: Seconds a kernel keeps what it last heard while the service cannot be reached (the Hub
#: restarts a service that died within about half a minute); then held answers are shown.
PATIENCE = 300.0


def verdict(role, status):
    """Whether a student's answer is shown now (SHOW), held for the reveal (HOLD), or waits (WAIT).

    Parameters
    ----------
    role : str or None
        ``"student"``, ``"instructor"``, ``"outside"`` (neither), ``"unreachable"`` (``api/me``
        failed), or None before the service has said.
    status : tuple or str or None
        The question's ``(state, round)`` while it is run live, :data:`SELF_PACED`,
        :data:`UNREACHABLE`, or None before the kernel has heard of the lesson.
    """
    if role in NEVER_HELD:
        return SHOW
    if role is None or status is None:
        return WAIT
    if status in (SELF_PACED, UNREACHABLE):
        return SHOW
    return SHOW if status[0] == "revealed" else HOLD


class Lesson:
    """The lesson's live questions as this kernel last heard of them (``GET api/lessons/{lesson}/questions``).

    Parameters
    ----------
    clock : callable, default time.monotonic
        Seconds, for tests.
    patience : float, default :data:`PATIENCE`
        Seconds of failed requests after which what was heard no longer counts.
    """

    def __init__(self, clock=time.monotonic, patience=PATIENCE):
        self.clock, self.patience = clock, patience
        self.questions = None  # {question: (state, round)} once heard
        self.version = None
        self._failing_since = None
        self._told = None  # what the last True of heard() or failed() stood for

    def heard(self, body):
        """Take in the service's list; True if any question's status changed."""
        self.questions = {q: (v["state"], v["round"]) for q, v in body["questions"].items()}
        self.version, self._failing_since = body["version"], None
        return self._news()

    def failed(self):
        """A request failed; True if that changed what :meth:`status` says: at the first failure
        before anything was heard, and once failures have lasted ``patience``."""
        if self._failing_since is None:
            self._failing_since = self.clock()
        return self._news()

    def forget(self):
        """Nobody keeps the list current any more: know nothing until it is heard again."""
        self.questions = self.version = self._failing_since = self._told = None

    def status(self, question):
        """``(state, round)`` of a live question, :data:`SELF_PACED`, :data:`UNREACHABLE`, or
        None when nothing is known yet."""
        if self._unreachable():
            return UNREACHABLE
        if self.questions is None:
            return None
        return self.questions.get(question, SELF_PACED)

    def _unreachable(self):
        return self._failing_since is not None and (
            self.questions is None or self.clock() - self._failing_since >= self.patience)

    def _news(self):
        now = UNREACHABLE if self._unreachable() else self.questions
        changed, self._told = now != self._told, now
        return changed


class Gate:
    """One question's answer in a student's kernel.

    ``phase`` is ``"none"`` before any vote, ``"waiting"`` after a vote while the kernel does not
    yet know whether the question is live, ``"held"`` while the answer waits for the reveal, and
    ``"shown"`` once it is shown (then it stays shown).
    """

    def __init__(self):
        self.phase = "none"

    @property
    def holding(self):
        """Whether a vote's answer is not shown yet."""
        return self.phase in ("waiting", "held")

    def vote(self, decided):
        """The student voted; ``decided`` is the :func:`verdict` now. Returns the phase."""
        if self.phase != "shown":
            self.phase = {SHOW: "shown", HOLD: "held", WAIT: "waiting"}[decided]
        return self.phase

    def update(self, decided):
        """What the kernel knows changed; True if the held answer is to be shown now."""
        if self.phase == "waiting" and decided != WAIT or self.phase == "held" and decided == SHOW:
            self.phase = "shown" if decided == SHOW else "held"
            return self.phase == "shown"
        return False


def note(phase, status, sent, mine=None, sending=False):
    """The sentence under a question in a student's kernel (after "Class poll: "), or None to
    leave it as it is.

    Parameters
    ----------
    phase : str
        The question's :attr:`Gate.phase`.
    status : tuple or str or None
        What :meth:`Lesson.status` says of it.
    sent : collection of int
        The rounds in which this student's vote was counted.
    mine : str, optional
        Their last vote, as sent.
    sending : bool, default False
        Whether a vote is on its way (its acknowledgement will say where it is).
    """
    reveal = "The answer appears when your instructor reveals it."
    live = isinstance(status, tuple) and status[0] != "revealed"
    if phase == "none":  # before a vote: only that a live vote runs
        if not live:
            return ""
        state, round_ = status
        return f"live vote, round {round_}. {reveal}" if state == "open" else f"voting closed (round {round_})."
    if phase != "held" or not live or sending:
        return None  # the vote's own note stays, or the class's answers replace it
    state, round_ = status
    if state == "closed":
        counted = "" if round_ in sent else "; your answer was not counted"
        return f"voting closed (round {round_}){counted}. {reveal}"
    if round_ in sent:
        return f"your answer ({mine}) is in (round {round_}). {reveal}"
    return f"round {round_} is open: after the discussion, vote again."


def shown_unrevealed(status):
    """Why a held answer is shown without a reveal (after "Class poll: "), or None for a reveal."""
    if status == UNREACHABLE:
        return "the service cannot be reached, so the answer is shown."
    if status == SELF_PACED:
        return "the live vote has ended without a reveal, so the answer is shown."
    return None
