"""The contract every explorer keeps (DESIGN.md, "Widgets"), as reusable checks.

Each explorer's test module calls :func:`check_contract`; explorer-specific tests
then check that the numbers shown equal what ``evalteach.stats`` computes.
"""
from __future__ import annotations

import base64

import ipywidgets as W
import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure

from evalteach.widgets._base import _option_values

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def other_value(control, rng=None):
    """A valid value for ``control`` different from its current one (None if there is none)."""
    if isinstance(control, (W.Checkbox, W.ToggleButton)):
        return not control.value
    if isinstance(control, (W.Dropdown, W.ToggleButtons, W.RadioButtons, W.Select)):
        options = [o for o in _option_values(control) if o != control.value]
        if not options:
            return None
        return options[rng.integers(len(options))] if rng is not None else options[0]
    if isinstance(control, W.FloatLogSlider):
        steps = np.arange(control.min, control.max + 1e-9, control.step)
        exps = steps[~np.isclose(control.base ** steps, control.value)]
        e = exps[rng.integers(len(exps))] if rng is not None else exps[len(exps) // 2]
        return float(control.base ** e)
    if isinstance(control, (W.IntSlider, W.FloatSlider)):
        grid = np.arange(control.min, control.max + control.step / 2, control.step)
        grid = grid[~np.isclose(grid, control.value)]
        v = grid[rng.integers(len(grid))] if rng is not None else grid[len(grid) // 2]
        v = round(float(v), 10)
        return int(v) if isinstance(control, W.IntSlider) else v
    return None


def check_contract(cls, *, sweep=100, unchanged_ok=(), **kwargs):
    """Run the framework contract on explorer class ``cls`` opened with ``kwargs``.

    ``unchanged_ok`` names controls allowed to leave the picture unchanged from the
    default state (each must be justified in the calling test).
    """
    figures_before = plt.get_fignums()
    e = cls(seed=0, **kwargs)
    assert e.image.startswith(PNG_MAGIC)
    assert isinstance(e.figure, Figure)
    assert e.result is not None and e.error is None
    assert set(e.controls) | {"seed"} == set(e.state)

    # Same seed, same picture.
    assert cls(seed=0, **kwargs).image == e.image

    # Every control changes the picture and the result.
    for name, control in e.controls.items():
        value = other_value(control)
        if value is None or name in unchanged_ok:
            continue
        before_image, before_result = e.image, e.result
        control.value = value
        assert e.error is None, f"{name}={value!r}: {e.error}"
        assert e.image != before_image, f"changing {name} to {value!r} left the picture unchanged"
        assert e.result is not before_result

    # A seeded random sweep: no exception escapes, a picture is always there.
    rng = np.random.default_rng(12345)
    names = list(e.controls)
    for _ in range(sweep):
        name = names[rng.integers(len(names))]
        value = other_value(e.controls[name], rng)
        if value is None:
            continue
        e.controls[name].value = value  # must not raise
        assert e.image.startswith(PNG_MAGIC)
        if e.error is None:
            assert e.state[name] == value or np.isclose(e.state[name], value)

    # Static fallback: the display bundle carries a PNG of the current figure.
    bundle = e._repr_mimebundle_()
    assert base64.b64decode(bundle["image/png"]) == e.image
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"]

    # Bad keyword values are refused with the parameter named.
    with pytest.raises(TypeError, match="no_such_control"):
        cls(no_such_control=1)
    with pytest.raises(ValueError, match="seed"):
        cls(seed=-1)
    for name, control in e.controls.items():
        if isinstance(control, (W.IntSlider, W.FloatSlider)):
            with pytest.raises(ValueError, match=name):
                cls(**{name: control.max + 100 * control.step})
            break

    # Resample draws new data where the explorer offers it.
    if e.resample_button:
        before = e.image
        e.resample()
        assert e.error is None and e.image != before

    assert plt.get_fignums() == figures_before, "an explorer left a pyplot figure open"
    return e
