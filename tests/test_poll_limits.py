"""What a request to the class poll may carry (a 400 names the field) and the write limit."""
import json

import pytest

from evalteach.poll import limits
from evalteach.poll.limits import BadRequest, WriteLimit

GOOD = {"lesson": "01_sample_error", "question": "training-error", "answer": "0.3", "round": 1}


def refused(read, *args):
    with pytest.raises(BadRequest) as caught:
        read(*args)
    return caught.value


def test_a_good_answer_is_read_and_a_user_field_changes_nothing():
    assert limits.answer_fields(dict(GOOD, user="bob")) == ("01_sample_error", "training-error", "0.3", 1)
    assert limits.answer_fields(dict(GOOD, answer="  b  "))[2] == "b"


@pytest.mark.parametrize("field, value", [
    ("lesson", "01 sample error"), ("lesson", "x" * 81), ("lesson", ""), ("lesson", 7),
    ("question", "a/b"), ("question", None), ("question", "é"),
    ("answer", "x" * 201), ("answer", ""), ("answer", "   "), ("answer", 0.3), ("answer", ["a"]),
    ("answer", "line\nbreak"), ("round", 0), ("round", "1"), ("round", True), ("round", 1.5),
])
def test_a_bad_field_is_named(field, value):
    error = refused(limits.answer_fields, dict(GOOD, **{field: value}))
    assert error.field == field and field in str(error)


@pytest.mark.parametrize("field", ["lesson", "question", "answer", "round"])
def test_a_missing_field_is_named(field):
    body = {k: v for k, v in GOOD.items() if k != field}
    error = refused(limits.answer_fields, body)
    assert error.field == field and f"{field} is missing" in str(error)


def test_answers_of_200_characters_pass_201_do_not():
    assert len(limits.answer_fields(dict(GOOD, answer="x" * 200))[2]) == 200
    assert "200 characters, got 201" in str(refused(limits.answer_fields, dict(GOOD, answer="y" * 201)))


def test_the_body_is_a_json_object_of_at_most_4_kb():
    assert limits.json_body(json.dumps(GOOD).encode()) == GOOD
    padded = json.dumps(dict(GOOD, note="x" * (4096 - len(json.dumps(dict(GOOD, note=""))))))
    assert len(padded) == 4096 and limits.json_body(padded.encode())["note"]
    for raw, words in [(b"x" * 4097, "at most 4096 bytes, got 4097"), (b"{not json", "JSON object"),
                       (b"[1, 2]", "got list"), (b"\xff\xfe", "JSON object")]:
        error = refused(limits.json_body, raw)
        assert error.field == "body" and words in str(error)


def test_a_state_is_one_of_three_with_a_round():
    assert limits.state_fields({"state": "revealed", "round": 2}) == ("revealed", 2)
    assert refused(limits.state_fields, {"state": "shown", "round": 1}).field == "state"
    assert refused(limits.state_fields, {"state": "open", "round": -1}).field == "round"
    assert refused(limits.state_fields, {"round": 1}).field == "state"


def test_a_wait_is_read_from_the_query_strings():
    assert limits.wait_fields(None, None, None) == (0.0, None, None)  # no wait: answer at once
    assert limits.wait_fields("25", "open", "2") == (25.0, "open", 2)
    assert limits.wait_fields("0.5", "revealed", "1") == (0.5, "revealed", 1)
    for args, field in [(("soon", "open", "1"), "wait"), (("61", "open", "1"), "wait"), (("-1", "open", "1"), "wait"),
                        (("nan", "open", "1"), "wait"), (("5", "shown", "1"), "state"), (("5", None, "1"), "state"),
                        (("5", "open", None), "round"), (("5", "open", "0"), "round"), (("5", "open", "1.5"), "round")]:
        error = refused(limits.wait_fields, *args)
        assert error.field == field and field in str(error)


def test_a_wait_for_the_lessons_live_questions_is_read_from_the_query_strings():
    assert limits.lesson_wait_fields(None, None) == (0.0, None)
    assert limits.lesson_wait_fields("25", "3f2a9c01") == (25.0, "3f2a9c01")
    for args, field in [(("soon", "3f"), "wait"), (("61", "3f"), "wait"), (("5", None), "version"),
                        (("5", "a b"), "version"), (("5", "x" * 81), "version")]:
        error = refused(limits.lesson_wait_fields, *args)
        assert error.field == field and field in str(error)


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_ten_writes_a_second_pass_the_eleventh_does_not():
    clock = Clock()
    limit = WriteLimit(clock=clock)
    assert [limit.allow("ann") for _ in range(11)] == [True] * 10 + [False]
    assert limit.allow("bob")  # each user has their own limit
    clock.now += 0.999
    assert not limit.allow("ann")
    clock.now += 0.002  # a second after the first ten: room again
    assert [limit.allow("ann") for _ in range(11)] == [True] * 10 + [False]


def test_a_steady_pace_just_under_ten_a_second_is_never_refused():
    clock = Clock()
    limit = WriteLimit(clock=clock)
    allowed = []
    for i in range(100):
        clock.now = 100.0 + 0.101 * i
        allowed.append(limit.allow("ann"))
    assert all(allowed)
