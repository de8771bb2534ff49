"""One walk through every explorer's states, running every per-state check of the contract.

Each explorer, opened by default, visits the default state, every mode and each slider at
both ends once (``explorer_contract.states``); in each state the walk checks that every
visible control changes the picture (issue 10), that ``_compute`` is pure, that cached
layers come before what is drawn over them, that the pasted picture equals the one drawn
afresh, and that no text overlaps text, data or the figure's edge (issue 13). At presenter
scale it runs the checks whose outcome depends on the scale. ``docs/explorers.md`` gives
the rules; ``explorer_contract.py`` the checks.

Explorers that still break a rule are listed in ``explorer_contract.WALK_TODO`` and fail
here as strict xfails, so fixing one makes this test say so.
"""
import pytest

from evalteach import widgets
from explorer_contract import WALK_TODO, walk


def _params():
    for name in widgets.EXPLORERS:
        for scale in ("laptop", "presenter"):
            marks = ([pytest.mark.xfail(strict=True, reason=f"{name}: {WALK_TODO[name]}")]
                     if name in WALK_TODO else [])
            yield pytest.param(name, scale, id=f"{name}-{scale}", marks=marks)


@pytest.mark.parametrize(("name", "scale"), list(_params()))
def test_every_state_keeps_the_contract(name, scale):
    walk(getattr(widgets, name), scale=scale)
