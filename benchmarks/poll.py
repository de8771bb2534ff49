"""Class poll capacity: a lecture hall of students votes on one question through the Hub's proxy.

Starts a real JupyterHub on 127.0.0.1 as ``benchmarks/classroom.py`` does, with the class poll
added by :func:`evalteach.poll.configure_hub` (every user a student, one instructor), and
creates N Hub users, each with their own token (as each student's server has its own). Then,
as in class: every student's kernel opens the question (its first request, ``api/me``, which
has the service ask the Hub whose token it is), and every student answers it, at moments spread
evenly over ``--spread`` seconds, through the Hub's proxy, while the instructor's count is read
through the proxy every 50 ms. It prints the p50 and p95 of a vote (request sent to answer
acknowledged) and of the first request, when the last vote was acknowledged, how long after the
last vote was sent the instructor's count showed it, and checks that every answer was counted
exactly once. Last, every student's kernel waits, as it does in class, for the lesson's list of
live questions to change (a request the service holds), and the instructor reveals: how long
until all of them have read the class's answers (the list, then the question's counts). The instructor's panel in a kernel counts every ``client.TICK`` seconds, which
comes on top of the last number.

Usage: ``python benchmarks/poll.py [--students 200] [--spread 5] [--json results.json]``
(``make classroom-poll`` installs what it needs).
"""
from __future__ import annotations

import argparse
import collections
import concurrent.futures
import json
import os
import signal
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np

from classroom import CHP, ROOT, Hub, free_port

LESSON, QUESTION = "bench", "q1"
OPTIONS = ("a", "b", "c", "d")


class PollHub(Hub):
    """A :class:`classroom.Hub` with the class poll, configured by ``configure_hub``."""

    def __init__(self, workdir, instructors, students=None, lessons=ROOT / "lessons"):
        super().__init__(lessons, workdir)
        self.instructors, self.students = list(instructors), students
        self.poll_port = free_port()
        self.db = self.dir / "poll.sqlite"

    def config(self):
        return super().config() + f"""
# the benchmark's service also makes each user's token
c.JupyterHub.load_roles.append({{"name": "poll-benchmark", "scopes": ["tokens"],
                                "services": ["classroom-benchmark"]}})
from evalteach.poll import configure_hub
configure_hub(c, instructors={self.instructors!r}, students={self.students!r},
              service_url="http://127.0.0.1:{self.poll_port}", db={str(self.db)!r})
"""

    @property
    def poll_url(self):
        return f"{self.url}/services/evalteach-poll/"

    def start(self):
        super().start()
        self.wait(lambda: self.poll("GET", "api/me", None)[0] == 403, 60, "the class poll to start")

    def add_users(self, users):
        """Create ``users`` and return ``{user: token}``, each token the user's own."""
        self.api("POST", "/hub/api/users", {"usernames": list(users)})
        tokens = {}
        for user in users:
            reply = self.api("POST", f"/hub/api/users/{user}/tokens", {"note": "poll benchmark"})
            if not reply or "token" not in reply:
                raise RuntimeError(f"could not make a token for {user}")
            tokens[user] = reply["token"]
        return tokens

    def poll(self, method, path, token, body=None, raw=None, timeout=30):
        """``(status, JSON body)`` of a request to the class poll through the proxy."""
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"token {token}"
        request = urllib.request.Request(self.poll_url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, _body(response.read(), response.headers)
        except urllib.error.HTTPError as error:
            return error.code, _body(error.read(), error.headers)
        except OSError:
            return None, {}


def _body(raw, headers):
    if "json" in headers.get("Content-Type", ""):
        return json.loads(raw)
    return raw.decode()


def spread_over(seconds, n, start, request, workers=32):
    """Run ``request(i)`` for i < n at moments spread evenly over ``seconds`` from ``start``;
    return the seconds each took (None where it failed), and the failures."""
    took, failures = [None] * n, []

    def one(i):
        time.sleep(max(0.0, start + seconds * i / n - time.monotonic()))
        sent = time.monotonic()
        status, body = request(i)
        if status != 200:
            failures.append(f"{i}: {status} {body}")
            return
        took[i] = (sent, time.monotonic())

    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        list(pool.map(one, range(n)))
    return took, failures


def percentiles(took):
    ms = 1000 * np.array([done - sent for sent, done in (t for t in took if t is not None)])
    if not len(ms):
        return {"p50_ms": float("nan"), "p95_ms": float("nan"), "max_ms": float("nan")}
    return {"p50_ms": float(np.percentile(ms, 50)), "p95_ms": float(np.percentile(ms, 95)),
            "max_ms": float(ms.max())}


def class_votes(hub, tokens, instructor_token, *, spread=5.0, lesson=LESSON, question=QUESTION, round_=1,
                cold=False):
    """The class opens the question, then every student in ``tokens`` answers it once.

    First each student's kernel asks ``api/me``, as it does when the lesson's question cell
    runs (the service then asks the Hub whose token it is, once per token); then every
    student votes, at moments spread over ``spread`` seconds, while the instructor's count is
    read. With ``cold``, the kernels skip ``api/me``: the vote is each token's first request.
    Returns the measurements and whether the count and distribution match exactly.
    """
    users = list(tokens)
    answers = {u: OPTIONS[i % len(OPTIONS)] for i, u in enumerate(users)}
    n = len(users)
    opened, open_failures = ([], []) if cold else spread_over(
        spread, n, time.monotonic() + 0.2, lambda i: hub.poll("GET", "api/me", tokens[users[i]]))
    path = f"api/lessons/{lesson}/questions/{question}"
    counted = {}
    start = time.monotonic() + 0.5

    def watch():  # the instructor's count, read through the proxy
        deadline = start + spread + 60
        while time.monotonic() < deadline:
            status, body = hub.poll("GET", path, instructor_token)
            if status == 200 and body["rounds"].get(str(round_), {}).get("n") == n:
                counted["at"] = time.monotonic()
                return
            time.sleep(0.05)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    voted, failures = spread_over(spread, n, start, lambda i: hub.poll("POST", "api/answers", tokens[users[i]], {
        "lesson": lesson, "question": question, "answer": answers[users[i]], "round": round_}))
    watcher.join(timeout=spread + 90)
    status, final = hub.poll("GET", path, instructor_token)
    reveal = reveal_reaches(hub, tokens, instructor_token, lesson, question, round_)
    expected = dict(collections.Counter(answers.values()))
    done = [t for t in voted if t is not None]
    return {
        "students": n,
        "acknowledged": len(done),
        "failures": (open_failures + failures)[:5],
        **percentiles(voted),
        "open": percentiles(opened),
        "last_ack_s": max(d for _, d in done) - start if done else float("nan"),
        # from the moment the last student sent their vote until the instructor's count included it
        "count_after_last_vote_ms": (1000 * (counted["at"] - max(s for s, _ in done))
                                     if "at" in counted and done else float("nan")),
        "counted_once": status == 200 and final["rounds"][str(round_)] == {"n": n, "answers": expected},
        "reveal": reveal,
    }


def reveal_reaches(hub, tokens, instructor_token, lesson, question, round_, settle=2.0):
    """Every student's kernel waits for the lesson's live questions to change (a held request
    each, as ``client.Connection.keep_lesson_current`` does); the instructor reveals; each kernel
    then shows the held answer and reads the class's answers. Returns how long after the reveal
    the students knew of it (the answer shows) and had the class's answers, and how many were
    still waiting when it came (all, unless the service answered a held request early)."""
    path, listing = f"api/lessons/{lesson}/questions/{question}", f"api/lessons/{lesson}/questions"
    seen, known = {}, {}

    def wait(user):
        status, body = hub.poll("GET", f"{listing}?wait=60&version={version}", tokens[user], timeout=90)
        if status == 200 and body["questions"].get(question, {}).get("state") == "revealed":
            known[user] = time.monotonic()  # the kernel shows the held answer now
            status, _ = hub.poll("GET", path, tokens[user])  # the class's answers, readable once revealed
        seen[user] = (status, time.monotonic())

    hub.poll("POST", path + "/state", instructor_token, {"state": "closed", "round": round_})
    version = hub.poll("GET", listing, instructor_token)[1]["version"]
    with concurrent.futures.ThreadPoolExecutor(len(tokens)) as pool:
        for user in tokens:
            pool.submit(wait, user)
        time.sleep(settle)  # every request reaches the service and waits there
        still_waiting = len(tokens) - len(seen)
        revealed = time.monotonic()
        hub.poll("POST", path + "/state", instructor_token, {"state": "revealed", "round": round_})
    ms = 1000 * np.array([t - revealed for status, t in seen.values() if status == 200])
    answer_ms = 1000 * np.array([t - revealed for t in known.values()])
    return {"waiting": still_waiting, "shown": len(ms),
            "p50_ms": float(np.percentile(ms, 50)) if len(ms) else float("nan"),
            "max_ms": float(ms.max()) if len(ms) else float("nan"),
            "answer_p50_ms": float(np.percentile(answer_ms, 50)) if len(answer_ms) else float("nan"),
            "answer_max_ms": float(answer_ms.max()) if len(answer_ms) else float("nan")}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--spread", type=float, default=5.0,
                        help="the students vote at moments spread evenly over this many seconds")
    parser.add_argument("--cold", action="store_true",
                        help="no api/me first: each vote is its token's first request to the service")
    parser.add_argument("--json", type=Path, help="also write the measurements to this file")
    args = parser.parse_args(argv)
    if not CHP.exists():
        sys.exit(f"configurable-http-proxy is missing: run `make classroom-poll` (it installs it into {CHP.parent})")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))
    with tempfile.TemporaryDirectory(prefix="evalteach-poll-") as tmp:
        hub = PollHub(tmp, instructors=["teacher"])
        try:
            hub.start()
            students = [f"student{i:03d}" for i in range(args.students)]
            tokens = hub.add_users(students)
            teacher = hub.add_users(["teacher"])["teacher"]
            r = class_votes(hub, tokens, teacher, spread=args.spread, cold=args.cold)
        finally:
            hub.stop()
    print(f"{os.cpu_count()} cores; load average over the last minute after the run: {os.getloadavg()[0]:.1f}")
    print(f"{r['students']} students voted over {args.spread:g} s through the Hub's proxy, each with their own token")
    print(f"acknowledged: {r['acknowledged']} of {r['students']}, the last {r['last_ack_s']:.2f} s after the first "
          f"was due; every answer counted exactly once: {r['counted_once']}")
    print(f"a vote: p50 {r['p50_ms']:.0f} ms, p95 {r['p95_ms']:.0f} ms, max {r['max_ms']:.0f} ms")
    if not args.cold:
        print(f"before it, each kernel's first request (api/me, which has the service ask the Hub whose token it "
              f"is): p50 {r['open']['p50_ms']:.0f} ms, p95 {r['open']['p95_ms']:.0f} ms, "
              f"max {r['open']['max_ms']:.0f} ms")
    print(f"the instructor's count showed the last vote {r['count_after_last_vote_ms']:.0f} ms after it was "
          "sent (read every 50 ms; the panel in a kernel reads every 2 s)")
    v = r["reveal"]
    print(f"the reveal: {v['waiting']} students' kernels were waiting for it (a held request each); "
          f"they knew of it (and show the held answer) p50 {v['answer_p50_ms']:.0f} ms and the last "
          f"{v['answer_max_ms']:.0f} ms after the instructor revealed; {v['shown']} had the class's answers, "
          f"p50 {v['p50_ms']:.0f} ms and the last {v['max_ms']:.0f} ms after it")
    if r["failures"]:
        print("failures:", *r["failures"], sep="\n  ")
    if args.json:
        args.json.write_text(json.dumps(r, indent=1))
    ok = (r["counted_once"] and r["acknowledged"] == r["students"] and r["last_ack_s"] <= 10
          and v["shown"] == v["waiting"] == r["students"])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
