"""The explorer gallery (``et.Gallery``), the widget behind the Voila app ``apps/gallery.ipynb``."""
from __future__ import annotations

import base64

import nbformat
import pytest

import evalteach as et
from conftest import ROOT
from evalteach.widgets import EXPLORERS


def test_offers_every_explorer_and_opens_on_the_first():
    g = et.Gallery()
    assert g.names == list(EXPLORERS)
    assert type(g.current).__name__ == EXPLORERS[0]
    assert g._stage.children == (g.current.widget,)
    assert g.current.title in [label for label, _ in g._picker.options]


def test_picking_shows_that_explorer_with_its_explanation_and_keeps_the_others():
    g = et.Gallery(seed=3)
    g._picker.value = "ROCExplorer"  # what the user's pick does
    roc = g.current
    assert type(roc).__name__ == "ROCExplorer" and roc.seed == 3
    assert g._stage.children == (roc.widget,)
    assert "threshold" in g._about.value
    g.show(EXPLORERS[0])
    assert g._picker.value == EXPLORERS[0]
    g._picker.value = "ROCExplorer"
    assert g.current is roc  # built once, kept as the user left it


def test_static_picture_of_the_current_explorer():
    g = et.Gallery("LossExplorer")
    bundle = g._repr_mimebundle_()
    assert base64.b64decode(bundle["image/png"]) == g.current.image
    assert "LossExplorer" in bundle["text/plain"]


@pytest.mark.parametrize("kwargs, error", [
    ({"start": "NoSuchExplorer"}, ValueError),
    ({"start": "ROCExplorer", "seed": -1}, ValueError),
    ({"seed": 1.5}, TypeError),
])
def test_bad_arguments_name_the_parameter(kwargs, error):
    with pytest.raises(error, match="start|seed"):
        et.Gallery(**kwargs)


def test_the_voila_app_is_the_gallery():
    nb = nbformat.read(ROOT / "apps" / "gallery.ipynb", as_version=4)
    nbformat.validate(nb)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    assert code == ["import evalteach as et\n\net.Gallery()"]
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")
