"""The class poll in a kernel without a Hub: nothing changes and no network call is made; with
a Hub that cannot be reached, a lesson goes on and the student reads a short note.

(The whole flow with a real Hub is in ``test_poll_hub.py``.)
"""
import json
import os
import socket
import subprocess
import sys
import threading
import time

import pytest

import evalteach as et
import evalteach.widgets.predict  # noqa: F401 - its shared style widget, made before any test closes widgets
from evalteach.poll import client, views

HUB_ENV = {"EVALTEACH_POLL_URL", "JUPYTERHUB_API_TOKEN", "JPY_SESSION_NAME"}

#: A lesson's questions answered in a fresh interpreter that records every attempt to open a
#: network connection (and every thread started).
LESSON = """
import json, socket, threading
calls = []
real_connect = socket.socket.connect
def connect(self, address):
    calls.append(repr(address))
    return real_connect(self, address)
socket.socket.connect = connect
socket.create_connection = lambda *a, **k: calls.append(repr(a)) or (_ for _ in ()).throw(OSError("no"))
import evalteach as et
p = et.Predict("Which?", options=["a", "b"], answer="a", id="q1")
n = et.Predict("How many?", answer=3, id="q2")
m = et.MultipleChoice("Pick", ["a", "b"], 0, id="q3")
x = et.NumericQuestion("Share?", 0.3, id="q4")
p.lock("b"); n.lock("4"); m.check("a"); x.check("0.25"); x.check("0.3")
print(json.dumps({"calls": calls, "threads": threading.active_count(),
                  "polls": [i.poll is None for i in (p, n, m, x)]}))
"""


@pytest.mark.parametrize("env", [
    {},  # a laptop, Binder, JupyterLite: nothing from a Hub
    {"JUPYTERHUB_API_TOKEN": "t", "JPY_SESSION_NAME": "/home/ann/01_sample_error.ipynb"},  # a Hub without the poll
    {"EVALTEACH_POLL_URL": "http://127.0.0.1:9/services/evalteach-poll/",
     "JPY_SESSION_NAME": "/home/ann/01_sample_error.ipynb"},  # no token
    {"EVALTEACH_POLL_URL": "http://127.0.0.1:9/services/evalteach-poll/", "JUPYTERHUB_API_TOKEN": "t"},  # a console
], ids=["no-hub", "hub-without-poll", "no-token", "no-notebook"])
def test_without_the_poll_no_network_call_is_made(env):
    clean = {k: v for k, v in os.environ.items() if k not in HUB_ENV}
    run = subprocess.run([sys.executable, "-c", LESSON], env={**clean, **env}, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen == {"calls": [], "threads": 1, "polls": [True] * 4}


@pytest.mark.parametrize("path, lesson", [
    ("/home/ann/lessons/01_sample_error.ipynb", "01_sample_error"),
    ("01_sample_error.ipynb", "01_sample_error"),
    ("/home/ann/Untitled Folder/my lesson (copy).ipynb", "my-lesson-copy-"),
    ("/home/ann/" + "x" * 100 + ".ipynb", "x" * 80),
    ("/home/ann/script.py", None),
    ("", None),
])
def test_the_lesson_is_the_notebooks_name(path, lesson):
    assert client.lesson_from({"JPY_SESSION_NAME": path}) == lesson


def test_a_question_without_an_id_takes_no_part(monkeypatch):
    monkeypatch.setenv("EVALTEACH_POLL_URL", "http://127.0.0.1:9/services/evalteach-poll/")
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "t")
    monkeypatch.setenv("JPY_SESSION_NAME", "/home/ann/lesson.ipynb")
    assert et.Predict("Which?", options=["a", "b"]).poll is None
    assert et.NumericQuestion("Share?", 0.3).poll is None


def closed_port():
    """A local port where nothing listens (connections are refused at once)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_poll_never_blocks_or_breaks_a_lesson(monkeypatch):
    monkeypatch.setenv("EVALTEACH_POLL_URL", f"http://127.0.0.1:{closed_port()}/services/evalteach-poll/")
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "t")
    monkeypatch.setenv("JPY_SESSION_NAME", "/home/ann/unreachable.ipynb")
    monkeypatch.setattr(views, "RETRY_SECONDS", (0.05, 0.05))
    p = et.Predict("Which?", options=["a", "b"], answer="a", id="q1")
    q = et.MultipleChoice("Pick", ["a", "b"], 0, id="q2")
    started = time.perf_counter()
    assert p.lock("b") and not q.check("b")  # the lesson goes on at once
    assert time.perf_counter() - started < 1.0
    p.poll.connection.run(lambda: None).result(timeout=60)  # the sends have run their course
    # the answers show as soon as the kernel knows it cannot ask whether they are live votes
    assert "Not quite" in q.feedback and p.guess == "b" and not p.held and "The answer is a." in p.feedback
    for item in (p, q):
        assert "could not reach the service, so this answer was not counted" in item.poll.note.value
        assert item.poll.view is None  # nobody said who the user is: no panel, no line
    assert p.poll.ready.exception() is not None  # kept in the Future, never raised


def test_the_worker_keeps_a_jobs_exception_in_its_future():
    connection = client.Connection("http://127.0.0.1:9/", "t", "lesson")
    failed = connection.run(lambda: 1 / 0)
    assert isinstance(failed.exception(timeout=30), ZeroDivisionError)
    assert connection.run(lambda: 42).result(timeout=30) == 42  # and goes on working
    assert any(t.name == "evalteach-poll" and t.daemon for t in threading.enumerate())
