"""The kernel's side of the class poll: whether there is one, which lesson runs, the requests.

The poll is on only when the Hub tells the kernel where the service is: ``EVALTEACH_POLL_URL``
(set through ``Spawner.environment`` by :func:`evalteach.poll.configure_hub`) together with
``JUPYTERHUB_API_TOKEN`` (the single-user server's own token, which its kernels inherit).
Without both, :func:`connection` returns None and nothing in this module touches the network;
on a laptop, on Binder or in JupyterLite nothing changes.

The lesson is the notebook's file name without ``.ipynb`` (``01_sample_error``): jupyter_server
starts a notebook's kernel with the notebook's path in ``JPY_SESSION_NAME``. A kernel with no
notebook (a console) takes no part. A student's copy (``01_sample_error-Copy1``) is a lesson of
its own, so the instructor and the class open the same file name.

All requests run in one background thread, in order; an instructor's live counts in a second
one; and a student's kernel keeps the lesson's list of live questions current in a third (a
request the service holds until the list changes), from the moment the lesson's first polled
question appears: it knows whether to hold an answer back before the student locks it in
(:mod:`evalteach.poll.live`). A lesson never waits for the network, and nothing here raises
into it.
"""
from __future__ import annotations

import concurrent.futures
import json
import os
import queue
import re
import threading
import time
import urllib.error
import urllib.request
from pathlib import PurePath
from typing import NamedTuple

from . import URL_VARIABLE, live

__all__ = ["connection", "lesson_from", "Connection", "Reply", "Unreachable"]

#: Seconds to wait for one request (the service answers in milliseconds).
TIMEOUT = 5.0
#: Seconds between an instructor's looks at the count.
TICK = 2.0
#: Looking (an instructor's count, a student's list of live questions) stops after this long
#: without a change or a click (minutes); a student's kernel looks on while it holds an answer.
WATCH_MINUTES = 30
#: Seconds one request for the lesson's live questions waits at the service for a change.
WAIT = 25
#: Seconds between tries while the lesson's live questions cannot be fetched.
RETRY = 5

_connections = {}
_lock = threading.Lock()


class Unreachable(Exception):
    """The service did not answer (no connection, a time-out, or a 5xx from it or the proxy)."""


class Reply(NamedTuple):
    """The service's answer: the HTTP status and its JSON body."""

    status: int
    body: dict


def lesson_from(environ=None):
    """The lesson id of the kernel's notebook (from ``JPY_SESSION_NAME``), or None.

    Characters an id may not hold become ``-``, and it is cut to 80 characters.
    """
    environ = os.environ if environ is None else environ
    path = environ.get("JPY_SESSION_NAME", "").strip()
    if not path.endswith(".ipynb"):
        return None
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", PurePath(path).stem)[:80]
    return stem or None


def connection(environ=None):
    """The kernel's connection to the class poll, or None when the Hub told it of none."""
    environ = os.environ if environ is None else environ
    url = environ.get(URL_VARIABLE, "").strip()
    token = environ.get("JUPYTERHUB_API_TOKEN", "").strip()
    lesson = lesson_from(environ)
    if not (url and token and lesson):
        return None
    key = (url, token, lesson)
    with _lock:
        if key not in _connections:
            _connections[key] = Connection(url, token, lesson)
        return _connections[key]


class Connection:
    """One kernel's link to the service: requests, a worker thread and a ticker thread.

    Parameters
    ----------
    url : str
        The service's address, ending in ``/services/evalteach-poll/``.
    token : str
        The JupyterHub token that names the user.
    lesson : str
        The lesson id every answer from this kernel belongs to.
    """

    def __init__(self, url, token, lesson):
        self.url = url.rstrip("/") + "/"
        self.token, self.lesson = token, lesson
        self._me = None
        #: Who the user is to the poll: None until ``api/me`` answers, then "student",
        #: "instructor" or "outside"; "unreachable" while it could not be asked.
        self.role = None
        #: The lesson's live questions as last heard (:meth:`keep_lesson_current`).
        self.live = live.Lesson()
        self._jobs = queue.SimpleQueue()
        self._worker = None
        self._watched = {}  # object with .tick() and .expired() -> monotonic time its watch ends
        self._ticker = None
        self._listeners = {}  # question id -> the object with .changed() and .stopped() shown for it
        self._keeping = False

    # --- requests ---------------------------------------------------------------------------

    def call(self, method, path, body=None, timeout=TIMEOUT):
        """One request; returns a :class:`Reply` (also for 4xx); raises :class:`Unreachable`."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.url + path, data=data, method=method,
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return Reply(response.status, _json(response.read()))
        except urllib.error.HTTPError as error:
            if error.code >= 500:
                raise Unreachable(f"the class poll answered {error.code}") from None
            return Reply(error.code, _json(error.read()))
        except (OSError, ValueError) as error:  # refused, reset, timed out, bad URL
            raise Unreachable(str(error)) from None

    def me(self):
        """``{"name", "instructor"}`` of this kernel's user, or None for a user who takes no part
        (neither student nor instructor: the service says 403). Asked once, then kept."""
        if self._me is None:
            try:
                reply = self.call("GET", "api/me")
                if reply.status not in (200, 403):
                    raise Unreachable(reply.body.get("error", f"api/me answered {reply.status}"))
            except Unreachable:
                self.role = self.role or live.UNREACHABLE
                raise
            self._me = reply.body if reply.status == 200 else {}
            self.role = ("outside" if not self._me else "instructor" if self._me.get("instructor")
                         else "student")
        return self._me or None

    def question_path(self, question):
        return f"api/lessons/{self.lesson}/questions/{question}"

    # --- background work ----------------------------------------------------------------------

    def run(self, job):
        """Run ``job()`` in the worker thread, after the jobs before it; returns a Future that
        holds its result or exception: nothing reaches the lesson."""
        future = concurrent.futures.Future()
        self._jobs.put((job, future))
        with _lock:
            if self._worker is None:  # a daemon: a kernel that shuts down does not wait for it
                self._worker = threading.Thread(target=self._work_forever, name="evalteach-poll",
                                                daemon=True)
                self._worker.start()
        return future

    def _work_forever(self):
        while True:
            job, future = self._jobs.get()
            try:
                future.set_result(job())
            except BaseException as exc:  # noqa: BLE001 - kept in the Future
                future.set_exception(exc)

    def watch(self, view, minutes=WATCH_MINUTES):
        """Call ``view.tick()`` every :data:`TICK` seconds for ``minutes`` from now (again from
        now if it is watched already); the ticker thread starts with the first watch."""
        with _lock:
            self._watched[view] = time.monotonic() + 60 * minutes
            if self._ticker is None:
                self._ticker = threading.Thread(target=self._tick_forever, name="evalteach-poll-ticker",
                                                daemon=True)
                self._ticker.start()

    def unwatch(self, view):
        with _lock:
            self._watched.pop(view, None)

    def listen(self, question, listener):
        """Tell ``listener`` (the latest view shown for ``question``) of news: ``changed()``
        when the role or the lesson's live questions change, ``stopped()`` when they are no
        longer kept current."""
        with _lock:
            self._listeners[question] = listener

    def tell(self, question=None):
        """Call ``changed()`` of the listener for ``question``, or of every listener."""
        with _lock:
            listeners = list(self._listeners.values()) if question is None else [self._listeners.get(question)]
        for listener in filter(None, listeners):
            _quietly(listener.changed)

    def keep_lesson_current(self):
        """Keep :attr:`live` current in a thread of its own (unless it runs already): a request
        the service holds until the list changes, for :data:`WATCH_MINUTES` after the last
        change and as long as a listener holds an answer back."""
        with _lock:
            if self._keeping:
                return
            self._keeping = True
        threading.Thread(target=self._keep_lesson_current, name="evalteach-poll-lesson", daemon=True).start()

    def _keep_lesson_current(self):
        path = f"api/lessons/{self.lesson}/questions"
        until = time.monotonic() + 60 * WATCH_MINUTES
        try:
            while time.monotonic() < until or self._holding():
                version = self.live.version
                query = "" if version is None else f"?wait={WAIT}&version={version}"
                try:
                    reply = self.call("GET", path + query, timeout=TIMEOUT + (WAIT if version else 0))
                    if reply.status != 200:
                        raise Unreachable(reply.body.get("error", f"the list answered {reply.status}"))
                except Unreachable:
                    if self.live.failed():
                        self.tell()
                    time.sleep(RETRY)
                    continue
                if self.live.heard(reply.body):
                    until = time.monotonic() + 60 * WATCH_MINUTES
                    self.tell()
        finally:
            with _lock:
                self._keeping = False
                self.live.forget()
                listeners = list(self._listeners.values())
            for listener in listeners:
                _quietly(listener.stopped)

    def _holding(self):
        with _lock:
            listeners = list(self._listeners.values())
        return any(getattr(listener, "holding", False) for listener in listeners)

    def _tick_forever(self):
        while True:
            time.sleep(TICK)
            now = time.monotonic()
            with _lock:
                due = [v for v, until in self._watched.items() if until > now]
                ended = [v for v, until in self._watched.items() if until <= now]
                for view in ended:
                    del self._watched[view]
            for view in ended:
                _quietly(view.expired)
            for view in due:
                _quietly(view.tick)


def _json(raw):
    try:
        body = json.loads(raw or b"{}")
    except ValueError:
        return {"error": raw[:200].decode(errors="replace")}
    return body if isinstance(body, dict) else {"value": body}


def _quietly(function):
    """Call ``function()``; a background thread has nobody to raise to."""
    try:
        function()
    except Exception:  # noqa: BLE001 - the view shows what it can; the lesson goes on
        pass
