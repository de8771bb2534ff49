"""Every question and prediction in a lesson has a stable id, unique in its lesson: the class
poll counts the answers of the same question in every student's kernel under that id."""
import re

import pytest

from conftest import lesson_params
from test_lessons import PREDICT, QUESTIONS, code_cells, et_calls, parse, read

ID = re.compile(r"[A-Za-z0-9_.-]{1,80}")


def lesson_ids(path):
    """``(ids, problems)``: the literal ``id=`` of every question and prediction, in order, and
    what is wrong with those that have none, or one that is not a literal string."""
    ids, problems = [], []
    for source in code_cells(read(path)):
        tree = parse(source)
        for call in et_calls(tree, QUESTIONS | {PREDICT}) if tree else []:
            given = [k.value for k in call.keywords if k.arg == "id"]
            line = source.splitlines()[call.lineno - 1].strip()
            if not given:
                problems.append(f"no id=: {line}")
            elif not isinstance(getattr(given[0], "value", None), str):
                problems.append(f"id= is not a literal string: {line}")
            else:
                ids.append(given[0].value)
    return ids, problems


@pytest.mark.parametrize("path", lesson_params())
def test_every_question_has_an_id_unique_in_its_lesson(path):
    ids, problems = lesson_ids(path)
    assert not problems, f"{path.name}: " + "; ".join(problems)
    assert all(ID.fullmatch(i) for i in ids), [i for i in ids if not ID.fullmatch(i)]
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    assert not repeated, f"{path.name}: ids used twice: {repeated}"
