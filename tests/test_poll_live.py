"""Live votes in a student's kernel, without a Hub: the rules (:mod:`evalteach.poll.live`) alone,
then the kernel side (Predict, the questions, the class poll's connection and views) against the
real service app (``make_app`` with its SQLite store, over HTTP on 127.0.0.1), where only the
Hub's word on a token is stood in for by a table of tokens. (The same on a real Hub, through
its proxy, is in ``test_poll_hub.py``.)
"""
import asyncio
import html
import json
import sqlite3
import threading
import time
import urllib.error
import urllib.request

import ipywidgets as W
import pytest

import evalteach as et
import evalteach.widgets.predict  # noqa: F401 - its shared style widget, made before any test closes widgets
from evalteach.poll import ANSWER_SCOPE, INSTRUCT_SCOPE, client, live, views
from evalteach.poll.live import HOLD, SELF_PACED, SHOW, UNREACHABLE, WAIT, Gate, Lesson, note, verdict
from evalteach.poll.service import LIVE_HOURS, make_app
from evalteach.poll.store import Store
from evalteach.widgets import record

# --- the rules --------------------------------------------------------------------------------


@pytest.mark.parametrize("role, status, expected", [
    (None, None, WAIT), (None, ("open", 1), WAIT),  # who the user is is not known yet
    ("student", None, WAIT),  # the lesson's live questions are not known yet
    ("student", SELF_PACED, SHOW), ("student", UNREACHABLE, SHOW),
    ("student", ("open", 1), HOLD), ("student", ("closed", 2), HOLD), ("student", ("revealed", 2), SHOW),
    ("instructor", ("open", 1), SHOW), ("instructor", None, SHOW),
    ("outside", ("open", 1), SHOW), (UNREACHABLE, None, SHOW), (UNREACHABLE, ("open", 1), SHOW),
])
def test_the_verdict(role, status, expected):
    assert verdict(role, status) == expected


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def listing(questions, version="v1"):
    return {"questions": {q: {"state": s, "round": r} for q, (s, r) in questions.items()}, "version": version}


def test_the_lesson_as_the_kernel_last_heard_of_it():
    clock = Clock()
    lesson = Lesson(clock=clock, patience=300)
    assert lesson.status("q") is None and lesson.version is None
    assert lesson.heard(listing({"q": ("open", 1)}))
    assert lesson.status("q") == ("open", 1) and lesson.status("other") == SELF_PACED and lesson.version == "v1"
    assert not lesson.heard(listing({"q": ("open", 1)}))  # nothing new
    assert lesson.heard(listing({"q": ("closed", 1)}, "v2")) and lesson.status("q") == ("closed", 1)

    # the service cannot be reached: what was heard counts for `patience` seconds, then not
    assert not lesson.failed() and lesson.status("q") == ("closed", 1)
    clock.now += 299
    assert not lesson.failed() and lesson.status("q") == ("closed", 1)
    clock.now += 1
    assert lesson.failed() and lesson.status("q") == UNREACHABLE and lesson.status("other") == UNREACHABLE
    assert not lesson.failed()  # said once
    assert lesson.heard(listing({"q": ("closed", 1)}, "v2")) and lesson.status("q") == ("closed", 1)

    lesson.forget()  # nobody keeps it current: unknown until heard again
    assert lesson.status("q") is None and lesson.version is None


def test_a_lesson_never_heard_of_is_unreachable_at_the_first_failure():
    lesson = Lesson(clock=Clock())
    assert lesson.failed() and lesson.status("q") == UNREACHABLE
    assert lesson.heard(listing({})) and lesson.status("q") == SELF_PACED


def test_the_gate():
    gate = Gate()
    assert gate.phase == "none" and not gate.holding
    assert not gate.update(HOLD) and gate.phase == "none"  # no vote, nothing to show
    assert gate.vote(WAIT) == "waiting" and gate.holding
    assert not gate.update(WAIT) and gate.phase == "waiting"
    assert not gate.update(HOLD) and gate.phase == "held"  # the kernel learns it is a live vote
    assert not gate.update(WAIT) and gate.phase == "held"  # held stays held until it is shown
    assert gate.vote(HOLD) == "held"  # a changed vote
    assert gate.update(SHOW) and gate.phase == "shown" and not gate.holding  # the reveal
    assert gate.vote(HOLD) == "shown" and not gate.update(SHOW)  # shown stays shown

    waiting = Gate()
    waiting.vote(WAIT)
    assert waiting.update(SHOW) and waiting.phase == "shown"  # self-paced after all
    assert Gate().vote(SHOW) == "shown"


def test_the_notes():
    reveal = "The answer appears when your instructor reveals it."
    assert note("none", ("open", 1), {}) == f"live vote, round 1. {reveal}"
    assert note("none", ("closed", 1), {}) == "voting closed (round 1)."
    assert note("none", SELF_PACED, {}) == note("none", ("revealed", 1), {}) == note("none", None, {}) == ""
    assert note("held", ("open", 1), {1: "a"}, "a") == f"your answer (a) is in (round 1). {reveal}"
    assert note("held", ("closed", 1), {1: "a"}, "a") == f"voting closed (round 1). {reveal}"
    assert note("held", ("closed", 1), {}) == f"voting closed (round 1); your answer was not counted. {reveal}"
    assert note("held", ("open", 2), {1: "a"}, "a") == "round 2 is open: after the discussion, vote again."
    # the vote's own note stays: while waiting, once shown, and when the class's answers replace it
    assert note("waiting", ("open", 1), {}) is None and note("held", ("open", 2), {1: "a"}, "a", sending=True) is None
    assert note("shown", ("closed", 1), {1: "a"}, "a") is None and note("held", ("revealed", 1), {1: "a"}) is None
    # a held answer shown without a reveal says why
    assert live.shown_unrevealed(UNREACHABLE) == "the service cannot be reached, so the answer is shown."
    assert live.shown_unrevealed(SELF_PACED) == "the live vote has ended without a reveal, so the answer is shown."
    assert live.shown_unrevealed(("revealed", 1)) is None


# --- the kernel side against the real service, without a Hub ---------------------------------

TOKENS = {"t-teacher": ("teacher", [INSTRUCT_SCOPE]), "t-ann": ("ann", [ANSWER_SCOPE])}


class TokenTable:
    """The Hub's word on a token (``HubAuth``'s two methods the service uses), from a table."""

    async def get_user(self, handler, sync=False):
        name, scopes = TOKENS.get(handler.request.headers.get("Authorization", "").partition(" ")[2], (None, None))
        return name and {"kind": "user", "name": name, "scopes": scopes}

    def check_scopes(self, required, model):
        return set(required) & set(model["scopes"])


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    """The service's SQLite file."""
    return tmp_path_factory.mktemp("poll") / "poll.sqlite"


@pytest.fixture(scope="module")
def service(db):
    """The service app on a free port of 127.0.0.1, in a thread with its own event loop."""
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    where = {}

    def serve():  # the store is used in the thread that made it, as in the service
        asyncio.set_event_loop(loop)
        store = Store(db)
        server = make_app(store, hub_auth=TokenTable()).listen(0, address="127.0.0.1")
        where["port"] = next(iter(server._sockets.values())).getsockname()[1]
        ready.set()
        loop.run_forever()
        server.stop()
        store.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert ready.wait(30)
    yield f"http://127.0.0.1:{where['port']}/services/evalteach-poll/"
    loop.call_soon_threadsafe(loop.stop)
    thread.join(30)


def instruct(url, lesson, question, state, round_):
    """The instructor's click: POST a question's state."""
    request = urllib.request.Request(f"{url}api/lessons/{lesson}/questions/{question}/state", method="POST",
                                     data=json.dumps({"state": state, "round": round_}).encode(),
                                     headers={"Authorization": "token t-teacher"})
    with urllib.request.urlopen(request, timeout=10) as reply:
        assert reply.status == 200


def counts(url, lesson, question):
    request = urllib.request.Request(f"{url}api/lessons/{lesson}/questions/{question}",
                                     headers={"Authorization": "token t-teacher"})
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.loads(reply.read())


def until(check, seconds=30):
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.02)


@pytest.fixture
def student(service, monkeypatch, request):
    """This process as ann's kernel, in a lesson of the test's own."""
    lesson = request.node.name.replace("[", "-").replace("]", "")[:80]
    monkeypatch.setenv("EVALTEACH_POLL_URL", service)
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "t-ann")
    monkeypatch.setenv("JPY_SESSION_NAME", f"/home/ann/{lesson}.ipynb")
    return lesson


def text(poll):
    return html.unescape(poll.note.value)


def test_a_live_vote_holds_the_answer_until_the_reveal(service, student):
    lesson = student
    record.clear()  # the progress below counts this test's questions only
    p = et.Predict("Which?", options=["a", "b", "c"], answer="b", explanation="Because b.",
                   reveals=W.HTML("what answers it"), id="p")
    q = et.MultipleChoice("Pick", ["x", "y"], 1, explanation="y it is.", id="q")
    until(lambda: p.poll.status == SELF_PACED)  # known before any lock-in
    assert not q._show_button.disabled

    instruct(service, lesson, "p", "open", 1)  # the instructor starts the live votes
    instruct(service, lesson, "q", "open", 1)
    until(lambda: p.poll.status == ("open", 1) and q._show_button.disabled)  # no peeking at q
    assert "live vote, round 1" in text(p.poll)

    assert p.lock("a") and q.check("x") is False  # the API still says whether it is right
    assert p.held and q.held
    assert p._outcome.value == "" and p._revealed.layout.display == "none" and p.correct is None
    assert "You predicted a." in p.feedback and q.feedback == ""
    until(lambda: "your answer (a) is in (round 1). The answer appears when your instructor reveals it." in text(p.poll))
    assert not p._input.disabled and p._lock_button.description == "Change vote"
    progress = et.progress()
    assert progress.answered == 1 and progress.solved == 0 and progress.judged == 0
    assert "the answer appears when your instructor reveals it" in progress.lines[0]

    assert p.lock("c") and q.check("y")  # they change their votes while the round is open
    until(lambda: "your answer (c) is in (round 1)" in text(p.poll) and "(y) is in (round 1)" in text(q.poll))
    assert counts(service, lesson, "p")["rounds"]["1"]["answers"] == {"c": 1}  # replaced, not added
    assert counts(service, lesson, "q")["rounds"]["1"]["answers"] == {"y": 1}  # every held check is a vote

    instruct(service, lesson, "p", "closed", 1)
    until(lambda: "voting closed (round 1). The answer appears" in text(p.poll))
    until(lambda: p._lock_button.description == "Voting closed")
    assert p._input.disabled and not p.lock("a") and p.guess == "c" and p.held
    assert "Voting is closed: you predicted c." in p.feedback

    instruct(service, lesson, "p", "open", 2)  # after the discussion
    until(lambda: "round 2 is open: after the discussion, vote again." in text(p.poll))
    until(lambda: p._lock_button.description == "Vote again" and not p._input.disabled)
    assert p.lock("b")
    until(lambda: "your answer (b) is in (round 2)" in text(p.poll))
    assert p.held and p._outcome.value == ""

    instruct(service, lesson, "p", "revealed", 2)
    until(lambda: not p.held)
    assert "Right." in p._outcome.value and "Because b." in p._outcome.value
    assert p._revealed.layout.display == "flex" and p._input.disabled and p.correct is True
    until(lambda: "your answer" in p.poll.view.bars.value)
    assert "the answer, revealed by your instructor, and the class's answers" in text(p.poll)
    bars = p.poll.view.bars.value
    assert "Round 1 (1 answer)" in bars and "Round 2 (1 answer)" in bars and "✓ right answer" in bars
    assert q.held and q.feedback == ""  # q is not revealed yet

    instruct(service, lesson, "q", "revealed", 1)
    until(lambda: not q.held)
    assert "Correct." in q.feedback and "y it is." in q.feedback and q.solved and q.attempts == 1
    assert not q._show_button.disabled
    until(lambda: "← your answer" in q.poll.view.bars.value)


def test_a_self_paced_question_shows_its_answer_at_once(service, student):
    lesson = student
    p = et.Predict("Which?", options=["a", "b"], answer="a", id="self-paced")
    q = et.NumericQuestion("Share?", 0.3, id="self-paced-q")
    until(lambda: p.poll.status == SELF_PACED)
    assert p.lock("b") and not p.held and "The answer is a." in p._outcome.value
    assert not q.check("0.25") and "Not quite" in q.feedback and q.check("0.3") and "Correct" in q.feedback
    until(lambda: "your answer (b) is in, round 1" in text(p.poll) and "(0.25) is in, round 1" in text(q.poll))
    assert counts(service, lesson, "self-paced-q")["rounds"]["1"]["answers"] == {"0.25": 1}  # the first check only
    assert p.poll.view.bars.value == ""

    # an instructor who runs it live later changes nothing the student has seen; the reveal adds the class
    instruct(service, lesson, "self-paced", "revealed", 1)
    until(lambda: "your answer" in p.poll.view.bars.value)
    assert "The answer is a." in p._outcome.value


def test_a_lock_in_before_the_kernel_knows_waits_for_it(service, student):
    """The lesson's first question appears and the student locks in at once: the answer waits the
    moment it takes to ask the service, then shows (self-paced) or stays held (live)."""
    lesson = student
    instruct(service, lesson, "live-one", "open", 1)
    p = et.Predict("Which?", options=["a", "b"], answer="a", id="self-paced-one")
    live_one = et.Predict("Which?", options=["a", "b"], answer="a", id="live-one")
    assert p.lock("b") and live_one.lock("a")
    until(lambda: not p.held)
    assert "The answer is a." in p._outcome.value
    until(lambda: "your answer (a) is in (round 1)" in text(live_one.poll))
    assert live_one.held and live_one._outcome.value == ""


def test_an_instructors_kernel_sees_its_own_answers_and_starts_live_votes(service, monkeypatch):
    lesson = "instructors-kernel"
    monkeypatch.setenv("EVALTEACH_POLL_URL", service)
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "t-teacher")
    monkeypatch.setenv("JPY_SESSION_NAME", f"/home/teacher/{lesson}.ipynb")
    p = et.Predict("Which?", options=["a", "b"], answer="a", id="p")
    p.poll.ready.result(30)
    panel = p.poll.view
    assert isinstance(panel, views.InstructorPanel) and not panel.live
    assert "self-paced (students see the answer at once) · round 1 · voting open" in panel.status.value
    assert panel.start.layout.display is None
    instruct(service, lesson, "p", "open", 1)
    panel.tick()
    assert panel.live and "live vote · round 1 · voting open" in panel.status.value
    assert panel.start.layout.display == "none"
    assert p.lock("b") and not p.held  # the instructor's own prediction shows at once, and is not sent
    p.poll.connection.run(lambda: None).result(30)
    assert counts(service, lesson, "p")["rounds"]["1"]["n"] == 0


def test_start_live_vote_keeps_answers_given_at_the_students_own_pace_apart(service, student):
    """Pressed on a question some students answered at their own pace (they saw its answer), the
    live vote starts a new round; on a question nobody answered, it opens round 1."""
    lesson = student
    p = et.Predict("Which?", options=["a", "b"], answer="a", id="early")
    until(lambda: p.poll.status == SELF_PACED)
    p.lock("b")
    until(lambda: "is in, round 1" in text(p.poll))
    teacher = client.Connection(p.poll.connection.url, "t-teacher", lesson)
    for question, expected in (("early", 2), ("untouched", 1)):
        poll = views.ClassPoll(teacher, question, options=["a", "b"], correct="a")
        panel = poll.ready.result(30)
        panel.start.click()
        teacher.run(lambda: None).result(30)
        assert counts(service, lesson, question)["round"] == expected and panel.live
        assert f"live vote · round {expected} · voting open" in panel.status.value


def test_the_list_of_live_questions_waits_for_a_change(service):
    lesson = "waiting-list"
    ann = client.Connection(service, "t-ann", lesson)
    first = ann.call("GET", f"api/lessons/{lesson}/questions")
    assert first.status == 200 and first.body["questions"] == {}
    started = time.monotonic()
    threading.Timer(0.5, instruct, (service, lesson, "q", "closed", 1)).start()
    held = ann.call("GET", f"api/lessons/{lesson}/questions?wait=20&version={first.body['version']}", timeout=30)
    assert time.monotonic() - started < 15  # woken by the change, not by the end of the wait
    assert held.body["questions"] == {"q": {"state": "closed", "round": 1}}  # state and round, no counts
    assert held.body["version"] != first.body["version"]
    bad = ann.call("GET", f"api/lessons/{lesson}/questions?wait=5&version=a%20b")
    assert bad.status == 400 and bad.body["field"] == "version"


def test_an_unreachable_service_shows_answers_at_once_with_a_note(monkeypatch):
    with socket_closed() as url:
        monkeypatch.setenv("EVALTEACH_POLL_URL", url)
        monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "t-ann")
        monkeypatch.setenv("JPY_SESSION_NAME", "/home/ann/unreachable-live.ipynb")
        monkeypatch.setattr(views, "RETRY_SECONDS", (0.05,))
        p = et.Predict("Which?", options=["a", "b"], answer="a", id="p")
        assert p.lock("b")
        until(lambda: not p.held)
        assert "The answer is a." in p._outcome.value and p.poll.connection.role == UNREACHABLE
        until(lambda: "not counted" in text(p.poll))


class socket_closed:
    """A service URL on a local port where nothing listens."""

    def __enter__(self):
        import socket

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        return f"http://127.0.0.1:{port}/services/evalteach-poll/"

    def __exit__(self, *exc):
        return False


def test_a_kernel_that_loses_the_service_keeps_a_held_answer_for_a_while_then_shows_it(service, student,
                                                                                     monkeypatch):
    lesson = student
    instruct(service, lesson, "p", "open", 1)
    p = et.Predict("Which?", options=["a", "b"], answer="a", id="p")
    until(lambda: p.poll.status == ("open", 1))
    assert p.lock("b") and p.held
    connection = p.poll.connection
    clock = Clock()
    connection.live.clock = clock  # the service is gone from here on
    monkeypatch.setattr(connection, "url", "http://127.0.0.1:9/services/evalteach-poll/")
    monkeypatch.setattr(client, "RETRY", 0.05)
    instruct(service, lesson, "p", "closed", 1)  # wakes the held request, whose next one fails
    until(lambda: connection.live._failing_since is not None)
    time.sleep(0.3)
    assert p.held  # a service the Hub restarts is back within about half a minute
    clock.now += live.PATIENCE
    until(lambda: not p.held)
    assert "The answer is a." in p._outcome.value
    assert "the service cannot be reached, so the answer is shown." in text(p.poll)


def test_a_live_vote_left_open_ends_and_shows_the_held_answer(service, db, student):
    """Four hours after the instructor's last click the question is self-paced again: a kernel
    that holds its answer shows it (the service's clock is moved by ageing the question's row)."""
    lesson = student
    instruct(service, lesson, "p", "open", 1)
    p = et.Predict("Which?", options=["a", "b"], answer="a", id="p")
    until(lambda: p.poll.status == ("open", 1))
    assert p.lock("b") and p.held
    until(lambda: "your answer (b) is in (round 1)" in text(p.poll))
    ageing = sqlite3.connect(db)
    with ageing:
        ageing.execute("UPDATE questions SET changed = changed - ? WHERE lesson = ? AND question = 'p'",
                       (3600 * LIVE_HOURS + 1, lesson))
    ageing.close()
    instruct(service, lesson, "other", "open", 1)  # any change to the lesson wakes the held request
    until(lambda: not p.held)
    assert "The answer is a." in p._outcome.value and p.poll.status == SELF_PACED
    assert "the live vote has ended without a reveal, so the answer is shown." in text(p.poll)
