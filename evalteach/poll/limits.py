"""What a request to the class poll may carry, and how often one user may write.

Each check raises :class:`BadRequest` naming the field that is wrong, so the service can
answer 400 with a message a person can act on. :class:`WriteLimit` refuses a user's
eleventh write within one second.
"""
from __future__ import annotations

import collections
import json
import time
import unicodedata

from .. import _validate
from .store import STATES

__all__ = ["BadRequest", "MAX_BODY", "MAX_ANSWER", "WRITES_PER_SECOND", "MAX_WAIT", "identifier", "json_body",
           "answer_fields", "state_fields", "wait_fields", "lesson_wait_fields", "WriteLimit"]

#: Largest request body, in bytes.
MAX_BODY = 4096
#: Longest answer, in characters.
MAX_ANSWER = 200
#: Writes one user may make within any one second.
WRITES_PER_SECOND = 10
#: Longest wait for a question to change, in seconds (``?wait=`` of a question's GET).
MAX_WAIT = 60


class BadRequest(ValueError):
    """A request the service refuses with 400; ``field`` names what is wrong."""

    def __init__(self, field, message):
        super().__init__(message)
        self.field = field


def _checked(field, check, *args, **kwargs):
    """Run one of :mod:`evalteach._validate`'s checks, turning its error into a BadRequest."""
    try:
        return check(field, *args, **kwargs)
    except (TypeError, ValueError) as exc:
        raise BadRequest(field, str(exc)) from None


def identifier(field, value):
    """A lesson or question id: 1 to 80 letters, digits, ``_``, ``.`` or ``-``."""
    return _checked(field, _validate.identifier, value)


def json_body(raw):
    """The JSON object in a request body of at most :data:`MAX_BODY` bytes."""
    if len(raw) > MAX_BODY:
        raise BadRequest("body", f"body must be at most {MAX_BODY} bytes, got {len(raw)}")
    try:
        body = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadRequest("body", f"body must be a JSON object: {exc}") from None
    if not isinstance(body, dict):
        raise BadRequest("body", f"body must be a JSON object, got {type(body).__name__}")
    return body


def _required(body, field):
    if field not in body:
        raise BadRequest(field, f"{field} is missing")
    return body[field]


def _round(body):
    return _checked("round", _validate.integer, _required(body, "round"), low=1)


def answer_fields(body):
    """``(lesson, question, answer, round)`` from the body of ``POST api/answers``.

    Other fields (a ``user``, say) are ignored: the answer is always the token owner's.
    """
    lesson = identifier("lesson", _required(body, "lesson"))
    question = identifier("question", _required(body, "question"))
    answer = _required(body, "answer")
    if not isinstance(answer, str):
        raise BadRequest("answer", f"answer must be a string, got {type(answer).__name__}")
    answer = answer.strip()
    if not 1 <= len(answer) <= MAX_ANSWER:
        raise BadRequest("answer", f"answer must be 1 to {MAX_ANSWER} characters, got {len(answer)}")
    if any(unicodedata.category(ch) == "Cc" for ch in answer):
        raise BadRequest("answer", "answer must not contain control characters")
    return lesson, question, answer, _round(body)


def state_fields(body):
    """``(state, round)`` from the body of ``POST .../state``."""
    state = _checked("state", _validate.choice, _required(body, "state"), STATES)
    return state, _round(body)


def wait_fields(wait, state, round_):
    """``(seconds, state, round)`` from a question's GET query ``?wait=&state=&round=`` (strings,
    as a URL has them): wait up to ``seconds`` while the question is still in that state and round.
    Without ``wait``, ``(0, None, None)``: answer at once."""
    if wait is None:
        return 0.0, None, None
    seconds = _seconds(wait)
    state = _checked("state", _validate.choice, state, STATES)
    if round_ is None or not round_.isdigit():
        raise BadRequest("round", f"round must be a whole number with wait=, got {round_!r}")
    return seconds, state, _checked("round", _validate.integer, int(round_), low=1)


def lesson_wait_fields(wait, version):
    """``(seconds, version)`` from the query ``?wait=&version=`` of a lesson's list of live
    questions: wait up to ``seconds`` while the list's version is still ``version``. Without
    ``wait``, ``(0, None)``: answer at once."""
    if wait is None:
        return 0.0, None
    return _seconds(wait), identifier("version", version)


def _seconds(wait):
    try:
        seconds = float(wait)
    except ValueError:
        raise BadRequest("wait", f"wait must be a number of seconds, got {wait!r}") from None
    return _checked("wait", _validate.real, seconds, low=0, high=MAX_WAIT)


class WriteLimit:
    """At most ``per_second`` writes by one user within any one second.

    Parameters
    ----------
    per_second : int, default :data:`WRITES_PER_SECOND`
    clock : callable, default time.monotonic
        Seconds, for tests that need a clock of their own.
    """

    def __init__(self, per_second=WRITES_PER_SECOND, clock=time.monotonic):
        self.per_second = per_second
        self.clock = clock
        self._recent = collections.defaultdict(collections.deque)  # user -> times of allowed writes

    def allow(self, user):
        """Count a write by ``user`` and say whether it may go ahead (refused ones do not count)."""
        now = self.clock()
        recent = self._recent[user]
        while recent and recent[0] <= now - 1.0:
            recent.popleft()
        if len(recent) >= self.per_second:
            return False
        recent.append(now)
        return True
