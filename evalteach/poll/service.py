"""The class-poll service: a small tornado app that JupyterHub starts and serves behind its proxy.

JupyterHub runs it as a managed service (``python -m evalteach.poll``, added by
:func:`evalteach.poll.configure_hub`) and tells it, in its environment, where to listen
(``JUPYTERHUB_SERVICE_URL``), its path (``JUPYTERHUB_SERVICE_PREFIX``, normally
``/services/evalteach-poll/``) and how to reach the Hub's API. Every request carries a
JupyterHub token (``Authorization: token ...``); the Hub says whose it is and which scopes
it holds (:class:`jupyterhub.services.auth.HubAuth`). The user is always the token's owner.

The REST API (JSON; errors are ``{"error": message}``, with ``"field"`` on a 400):

- ``GET api/me``: ``{"name", "instructor"}``.
- ``POST api/answers`` ``{"lesson", "question", "answer", "round"}``: record or replace the
  user's answer in that round; 403 unless the question is open in that round.
- ``GET api/lessons/{lesson}/questions``: ``{"questions": {question: {"state", "round"}},
  "version"}``, the questions run live (an instructor changed them within :data:`LIVE_HOURS`),
  for students and instructors, without answers. With ``?wait=S&version=V`` the answer waits up
  to S seconds (at most 60) while the list's version is still V: how a student's kernel knows,
  before its lock-in, whether to hold the answer back.
- ``GET api/lessons/{lesson}/questions/{question}``: ``{"state", "round", "live", "rounds": {"1":
  {"n", "answers": {answer: count}}, ...}}``; students get it only once it is revealed (before,
  a 403 that says the state and round, never the answers). With ``?wait=S&state=X&round=R``
  the answer waits up to S seconds (at most 60) while the question is still in state X, round R.
- ``POST api/lessons/{lesson}/questions/{question}/state`` ``{"state", "round"}``: instructors.
- ``GET api/lessons/{lesson}/export``: instructors; CSV counts per question and round, no names.

A user may write (POST) at most ten times within any second (429 past that), a body is at
most 4 KB and an answer at most 200 characters (400, naming the field).
"""
from __future__ import annotations

import argparse
import asyncio
import csv
import io
import json
import logging
import os
import signal
import sys
import time
from hashlib import sha1
from http import HTTPStatus
from ipaddress import ip_address
from urllib.parse import urlparse

from jupyterhub.services.auth import HubAuth
from tornado import web

from . import ANSWER_SCOPE, INSTRUCT_SCOPE, SERVICE_NAME, limits
from .store import Store

__all__ = ["make_app", "main"]

log = logging.getLogger("evalteach.poll")

#: The database file when ``EVALTEACH_POLL_DB`` is not set (in the service's working folder).
DEFAULT_DB = "evalteach-poll.sqlite"
#: Bodies up to this size are read and refused with a JSON 400 naming the body; tornado closes
#: the connection on larger ones.
READ_LIMIT = 64 * 1024
#: A question is run live for this long after an instructor last opened, closed or revealed it
#: (hours): longer than a class, so that a vote left open does not hold back the answer from
#: the students who reach the question on their own later.
LIVE_HOURS = 4
#: An id in a URL: anything up to the next slash, checked in the handler (a 400, not a 404).
_ID = r"([^/]+)"


class Refused(web.HTTPError):
    """An error the client is told about: the status, a message and extra JSON fields."""

    def __init__(self, status, message, **extra):
        super().__init__(status)
        self.message, self.extra = message, extra


class PollHandler(web.RequestHandler):
    """What every endpoint shares: the Hub's word on the token, JSON in and out."""

    def initialize(self, store, write_limit, hub_auth, changes):
        self.store, self.write_limit, self.hub_auth, self.changes = store, write_limit, hub_auth, changes

    async def prepare(self):
        model = await self.hub_auth.get_user(self, sync=False)
        if not model:
            raise Refused(403, "a valid JupyterHub token is needed (header 'Authorization: token ...')")
        if model.get("kind", "user") != "user":
            raise Refused(403, f"only users take part in the class poll, not the {model.get('kind')} "
                               f"{model.get('name')!r}")
        held = self.hub_auth.check_scopes({ANSWER_SCOPE, INSTRUCT_SCOPE}, model)
        if not held:
            raise Refused(403, f"user {model['name']!r} is neither a student nor an instructor of the "
                               "class poll (ask the hub's admin)")
        self.user = model["name"]
        self.instructor, self.student = INSTRUCT_SCOPE in held, ANSWER_SCOPE in held

    def write_error(self, status_code, **kwargs):
        exc = kwargs.get("exc_info", (None, None, None))[1]
        if isinstance(exc, Refused):
            body = {"error": exc.message, **exc.extra}
        elif isinstance(exc, web.HTTPError) and exc.log_message:
            body = {"error": exc.log_message % exc.args if exc.args else exc.log_message}
        else:
            body = {"error": HTTPStatus(status_code).phrase}
        self.set_header("Content-Type", "application/json; charset=UTF-8")
        self.finish(json.dumps(body))

    def reply(self, obj):
        self.set_header("Content-Type", "application/json; charset=UTF-8")
        self.finish(json.dumps(obj))

    def checked(self, read, *args):
        """``read(*args)``, with a :class:`limits.BadRequest` turned into a 400 naming the field."""
        try:
            return read(*args)
        except limits.BadRequest as exc:
            raise Refused(400, str(exc), field=exc.field) from None

    def ids(self, lesson, question=None):
        lesson = self.checked(limits.identifier, "lesson", lesson)
        if question is None:
            return lesson
        return lesson, self.checked(limits.identifier, "question", question)

    def body(self):
        """The JSON body of a write, after the user's write limit is checked."""
        if not self.write_limit.allow(self.user):
            self.set_header("Retry-After", "1")
            raise Refused(429, f"more than {self.write_limit.per_second} writes within one second; "
                               "try again in a second")
        return self.checked(limits.json_body, self.request.body)

    def need_instructor(self, what):
        if not self.instructor:
            raise Refused(403, f"only instructors may {what}")

    def live(self, lesson):
        """``{question: (state, round)}`` of the lesson's questions run live now."""
        return self.store.live(lesson, since=time.time() - 3600 * LIVE_HOURS)


class MeHandler(PollHandler):
    def get(self):
        self.reply({"name": self.user, "instructor": self.instructor})


class AnswersHandler(PollHandler):
    def post(self):
        if not self.student:
            raise Refused(403, "only students answer; an instructor's answers would count as the class's")
        lesson, question, answer, round_ = self.checked(limits.answer_fields, self.body())
        state, current = self.store.question(lesson, question)
        if state != "open" or round_ != current:
            shown = f"round {current} is {state}" if state != "open" else f"round {current} is open"
            raise Refused(403, f"question {question!r} takes no answers for round {round_}: {shown}",
                          state=state, round=current)
        self.store.record(lesson, question, round_, self.user, answer)
        self.reply({"lesson": lesson, "question": question, "round": round_, "answer": answer,
                    "state": state})


class LessonHandler(PollHandler):
    async def get(self, lesson):
        lesson = self.ids(lesson)
        wait, known = self.checked(limits.lesson_wait_fields, *(
            self.get_query_argument(name, None) for name in ("wait", "version")))
        questions, version = self.listing(lesson)
        if wait and version == known:
            await self.changes.wait(lesson, wait)  # a student's kernel keeping its list current
            questions, version = self.listing(lesson)
        self.reply({"questions": questions, "version": version})

    def listing(self, lesson):
        questions = {q: {"state": state, "round": round_} for q, (state, round_) in self.live(lesson).items()}
        return questions, sha1(json.dumps(questions, sort_keys=True).encode()).hexdigest()[:16]


class QuestionHandler(PollHandler):
    async def get(self, lesson, question):
        lesson, question = self.ids(lesson, question)
        wait, known_state, known_round = self.checked(limits.wait_fields, *(
            self.get_query_argument(name, None) for name in ("wait", "state", "round")))
        state, current = self.store.question(lesson, question)
        if wait and (state, current) == (known_state, known_round):
            await self.changes.wait((lesson, question), wait)  # a student's kernel waiting for the reveal
            state, current = self.store.question(lesson, question)
        if state != "revealed" and not self.instructor:
            # the state and the round, so a student's kernel knows when to vote again; no answers
            raise Refused(403, "the class's answers are shown once the instructor reveals them",
                          state=state, round=current)
        counts = self.store.counts(lesson, question)
        rounds = {str(r): {"n": sum(counts.get(r, {}).values()), "answers": counts.get(r, {})}
                  for r in range(1, max([current, *counts]) + 1)}
        self.reply({"state": state, "round": current, "live": question in self.live(lesson), "rounds": rounds})


class StateHandler(PollHandler):
    def post(self, lesson, question):
        self.need_instructor("open, close or reveal a question")
        lesson, question = self.ids(lesson, question)
        state, round_ = self.checked(limits.state_fields, self.body())
        _, current = self.store.question(lesson, question)
        if round_ not in (current, current + 1):
            raise Refused(400, f"round must be the current round {current} or the next, "
                               f"{current + 1}, to start it; got {round_}", field="round")
        self.store.set_state(lesson, question, state, round_)
        self.changes.changed((lesson, question))
        self.changes.changed(lesson)
        self.reply({"state": state, "round": round_})


class ExportHandler(PollHandler):
    def get(self, lesson):
        self.need_instructor("export the answers")
        lesson = self.ids(lesson)
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["question", "round", "state", "answer", "count"])
        for question, round_, state, answer, count in self.store.lesson_counts(lesson):
            writer.writerow([question, round_, state, spreadsheet_safe(answer), count])
        self.set_header("Content-Type", "text/csv; charset=UTF-8")
        self.set_header("Content-Disposition", f'attachment; filename="{lesson}-poll.csv"')
        self.finish(out.getvalue())


class NotFoundHandler(PollHandler):
    def prepare(self):  # noqa: D102 - unknown paths are 404 whoever asks
        raise Refused(404, f"no such endpoint: {self.request.method} {self.request.path}")


class Changes:
    """Requests waiting for a question, or any question of a lesson, to change state or round
    (long polling; the key is ``(lesson, question)`` or ``lesson``): a student's kernel learns
    of a live vote, a new round or the reveal at once, with one request every ``wait`` seconds
    instead of one every few seconds."""

    def __init__(self):
        self._events = {}

    async def wait(self, key, seconds):
        event = self._events.setdefault(key, asyncio.Event())
        try:
            await asyncio.wait_for(event.wait(), seconds)
        except asyncio.TimeoutError:
            pass

    def changed(self, key):
        event = self._events.pop(key, None)
        if event is not None:
            event.set()


def spreadsheet_safe(text):
    """``text`` for a CSV cell that a spreadsheet will not run as a formula (OWASP, "CSV
    Injection"): a leading ``= + - @`` gets a quote, unless the text is a number."""
    if text[:1] in ("=", "+", "-", "@"):
        try:
            float(text)
        except ValueError:
            return "'" + text
    return text


def make_app(store, prefix=f"/services/{SERVICE_NAME}/", hub_auth=None, write_limit=None):
    """The tornado application serving the API under ``prefix``."""
    prefix = "/" + prefix.strip("/") + "/"
    deps = {"store": store, "write_limit": write_limit or limits.WriteLimit(),
            "hub_auth": hub_auth or HubAuth(),  # the Hub's word on a token is kept 5 minutes
            "changes": Changes()}
    routes = [
        ("api/me", MeHandler),
        ("api/answers", AnswersHandler),
        (f"api/lessons/{_ID}/questions", LessonHandler),
        (f"api/lessons/{_ID}/questions/{_ID}", QuestionHandler),
        (f"api/lessons/{_ID}/questions/{_ID}/state", StateHandler),
        (f"api/lessons/{_ID}/export", ExportHandler),
    ]
    return web.Application([(prefix + path, handler, deps) for path, handler in routes],
                           default_handler_class=NotFoundHandler, default_handler_args=deps,
                           log_function=_log_refusals)


def _log_refusals(handler):
    """Log refused and failed requests only: 200 students polling would flood the log."""
    status = handler.get_status()
    if status >= 400:
        (log.error if status >= 500 else log.warning)(
            "%d %s %s", status, handler.request.method, handler.request.path)


def _bind_address(host):
    """Listen where the service's URL points if that is an address; on every interface if it
    is a name (``http://hub:10101`` in Kubernetes)."""
    if host == "localhost":
        return "127.0.0.1"
    try:
        return str(ip_address(host))
    except ValueError:
        return ""


def _parser():
    parser = argparse.ArgumentParser(
        prog="python -m evalteach.poll",
        description="The evalteach class poll, a JupyterHub-managed service (configure it with "
                    "evalteach.poll.configure_hub). With 'forget', delete stored answers instead.")
    parser.add_argument("--db", default=os.environ.get("EVALTEACH_POLL_DB") or DEFAULT_DB,
                        help="the SQLite file (default: $EVALTEACH_POLL_DB, else ./evalteach-poll.sqlite)")
    sub = parser.add_subparsers(dest="command")
    forget = sub.add_parser("forget", help="delete answers: a user's, a lesson's, or all")
    who = forget.add_mutually_exclusive_group(required=True)
    who.add_argument("--user", help="delete every answer of this user")
    who.add_argument("--lesson", help="delete every answer and question state of this lesson")
    who.add_argument("--all", action="store_true", help="delete every answer and question state")
    return parser


def main(argv=None):
    args = _parser().parse_args(argv)
    store = Store(args.db)
    try:
        if args.command == "forget":
            deleted = store.forget(user=args.user, lesson=args.lesson)
            print(f"deleted {deleted} answers from {args.db}")
        else:
            asyncio.run(_serve(store, args.db))
    finally:
        store.close()


async def _serve(store, db):
    url = os.environ.get("JUPYTERHUB_SERVICE_URL")
    if not url or not os.environ.get("JUPYTERHUB_API_URL"):
        sys.exit("python -m evalteach.poll runs as a JupyterHub service: add it with "
                 "evalteach.poll.configure_hub(c, instructors=[...]) in jupyterhub_config.py")
    logging.basicConfig(level=logging.INFO, format="[%(levelname)1.1s %(asctime)s %(name)s] %(message)s")
    where = urlparse(url)
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", f"/services/{SERVICE_NAME}/")
    server = make_app(store, prefix).listen(where.port or 80, address=_bind_address(where.hostname or ""),
                                            max_body_size=READ_LIMIT)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)  # the Hub stops us so
    log.info("class poll at %s%s, answers in %s", url.rstrip("/"), prefix, os.path.abspath(db))
    await stop.wait()
    server.stop()
