"""Issue 10's rule for every explorer, present and future: in every mode (each option of
each choice control, each state of each check box), every visible, enabled control
changes the picture; a control a mode does not use is hidden by ``Explorer._hidden``.

Explorers that still break the rule are listed in ``explorer_contract.CONTROLS_TODO``
and fail here as strict xfails, so fixing one makes this test say so.
"""
import pytest

from evalteach import widgets
from explorer_contract import CONTROLS_TODO, check_visible_controls_act


def _params():
    for name in widgets.EXPLORERS:
        marks = ([pytest.mark.xfail(strict=True, reason=f"{name}: {CONTROLS_TODO[name]}")]
                 if name in CONTROLS_TODO else [])
        yield pytest.param(name, id=name, marks=marks)


@pytest.mark.parametrize("name", list(_params()))
def test_every_visible_control_changes_the_picture(name):
    check_visible_controls_act(getattr(widgets, name))
