"""The explorer framework: controls -> model -> view.

An explorer is a small class. It declares its controls (:meth:`Explorer._controls`),
computes a result from the plain control values (:meth:`Explorer._compute`, a pure
function of the state that calls :mod:`evalteach.stats` and :mod:`evalteach.simulate`),
builds its matplotlib artists once (:meth:`Explorer._build`) and updates them in
place (:meth:`Explorer._draw`). The base class does the rest:

* renders the figure with Agg into an ``ipywidgets.Image`` (no front-end extension
  beyond ipywidgets, no flicker), redrawing only the artists marked dynamic over a
  cached background when nothing else changed (blitting), at twice the pixel density of
  the on-screen size (crisp on 2x screens, projectors and pages that scale it up);
* updates synchronously when a control is set from Python, so ``result`` and
  ``image`` are up to date when the assignment returns;
* leaves *when* to draw a change from the browser to its :class:`~._scheduler.Scheduler`
  (coalescing, a drag's rest, answers completed in steps, work while idle; drawn on the
  thread that built the explorer);
* shows any exception raised by an update inline and keeps the last good picture;
* puts a PNG of the current figure in the display bundle, for front ends that
  cannot run widgets (GitHub, nbconvert);
* keeps a text summary of the numbers beside the picture, for screen readers.

The rules an explorer's author keeps are in :class:`Explorer`'s docstring and, with the
reasons, in ``docs/explorers.md``; ``tests/explorer_contract.py`` checks them.
"""
from __future__ import annotations

import base64
import html
import struct
import zlib

try:  # Intel's ISA-L deflate: the same zlib stream, about 20x faster at level 1
    from isal.isal_zlib import compress as _deflate
except ImportError:  # pyodide (JupyterLite) has no ISA-L build
    from zlib import compress as _deflate
import ipywidgets as W
import matplotlib as mpl
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text
from traitlets import Unicode

from .. import _validate, plotting
from . import _cells
from ._cached_layer import CachedLayer
from ._freed_memory import give_back_freed_memory
from ._scheduler import COALESCE, IDLE_PAUSE, REST, Scheduler  # noqa: F401 - timings, re-exported


_NUMERIC = (W.IntSlider, W.FloatSlider, W.FloatLogSlider, W.BoundedIntText, W.BoundedFloatText)
_SLIDERS = (W.IntSlider, W.FloatSlider, W.FloatLogSlider, W.IntRangeSlider, W.FloatRangeSlider)
_CHOICES = (W.Dropdown, W.ToggleButtons, W.RadioButtons, W.Select)
#: CSS pixels a slider has beyond its label: the readout, margins and a track of 120 px or more.
_SLIDER_ROOM = 210


# --- control factories: one look for every explorer -------------------------------------


def _finish(control, tooltip=None, value=None):
    """The touches every control gets: full-width label, optional tooltip and start value."""
    control.style.description_width = "initial"
    if tooltip:
        control.tooltip = tooltip
    if value is not None:
        control.value = value
    return control


def slider(description, value, min, max, step=1, *, readout_format=None, tooltip=None):
    """An integer slider if every number is an integer, else a float slider."""
    if all(float(x).is_integer() for x in (value, min, max, step)):
        control = W.IntSlider(value=int(value), min=int(min), max=int(max), step=int(step))
    else:
        control = W.FloatSlider(value=value, min=min, max=max, step=step,
                                readout_format=readout_format or ".3g")
    control.description = description
    control.continuous_update = True
    return _finish(control, tooltip)


def log_slider(description, value, min_exp, max_exp, *, base=10, step=0.1, readout_format=".3g", tooltip=None):
    """A slider moving on a log scale from base**min_exp to base**max_exp."""
    control = W.FloatLogSlider(value=value, base=base, min=min_exp, max=max_exp, step=step,
                               description=description, continuous_update=True, readout_format=readout_format)
    return _finish(control, tooltip)


def dropdown(description, options, value=None, *, tooltip=None):
    """A drop-down list; ``options`` is a list of values or of (label, value) pairs."""
    return _finish(W.Dropdown(options=options, description=description), tooltip, value)


def buttons(description, options, value=None, *, tooltip=None):
    """A row of toggle buttons for a few mutually exclusive options."""
    return _finish(W.ToggleButtons(options=options, description=description), tooltip, value)


def checkbox(description, value=False, *, tooltip=None):
    """An on/off switch."""
    return _finish(W.Checkbox(value=value, description=description, indent=False), tooltip)


def text(description, value="", *, placeholder="", tooltip=None):
    """A one-line text box (updates when the user presses Enter or leaves it)."""
    control = W.Text(value=value, description=description, placeholder=placeholder,
                     continuous_update=False)
    return _finish(control, tooltip)


def _option_values(control):
    return [o[1] if isinstance(o, tuple) and len(o) == 2 else o for o in control.options]


def _png_chunk(tag, data):
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


def png_bytes(canvas, compress_level=1, deflate=None):
    """Encode an Agg canvas's pixels as an RGBA PNG.

    Written by hand rather than through Pillow: no per-row filter search and fast
    deflate give the same pixels in a fraction of the time, which matters on every
    slider step. The RGBA buffer goes in as it is (one copy to prepend each row's filter
    byte): dropping the opaque alpha channel would cost a second, strided copy.
    Deflate is ISA-L's where installed: a 2x picture (1600 x 700 pixels) takes about
    1 ms instead of zlib's 15-20 ms, for a file of the same size. ``deflate`` (a
    ``compress(data, level)`` function) replaces it, e.g. ``zlib.compress``.

    References
    ----------
    W3C, *Portable Network Graphics (PNG) Specification*, 3rd ed., sections 5, 6 and 10.
    """
    width, height = canvas.get_width_height(physical=True)
    pixels = np.asarray(canvas.buffer_rgba()).reshape(height, 4 * width)
    rows = np.empty((height, 1 + 4 * width), dtype=np.uint8)  # each row: filter byte 0, then RGBA
    rows[:, 0] = 0
    rows[:, 1:] = pixels
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"".join((b"\x89PNG\r\n\x1a\n", _png_chunk(b"IHDR", header),
                     _png_chunk(b"IDAT", (deflate or _deflate)(rows.data, compress_level)),
                     _png_chunk(b"IEND", b"")))


class _Picture(W.Image):
    """An image whose ``tooltip`` becomes the img element's title, its accessible name.

    ipywidgets 8's front end sets the title only when the model's ``description`` is
    empty, and an Image has no ``description``: without this trait the view fails.
    """

    description = Unicode("").tag(sync=True)


class Explorer:
    """Base class of every interactive explorer.

    Parameters
    ----------
    seed : int, default 0
        Seed of the random draws; the same seed gives the same pictures.
    **values
        Initial control values by control name, e.g. ``n=40``.

    Attributes
    ----------
    controls : dict of str -> ipywidgets.Widget
        The controls, by name. Setting ``controls[name].value`` redraws at once.
    state : dict
        The plain control values (and ``seed``) that the model is computed from.
    result : object
        What the model computed for ``state``: the numbers shown.
    figure : matplotlib.figure.Figure
    image : bytes
        The rendered PNG of ``figure``.
    error : str or None
        The message shown inline if the last update failed, else None.
    widget : ipywidgets.VBox
        The whole interactive view.
    scheduler : Scheduler
        When changes from the browser are drawn (see :mod:`._scheduler`).
    closed : bool
        Whether :meth:`close` has run: then the explorer holds nothing else.

    Notes
    -----
    The rules an explorer's author keeps (``docs/explorers.md`` gives the reasons;
    ``tests/explorer_contract.py`` checks them on every explorer, in every mode):

    1. ``_compute(state)`` is pure: the same state gives an equal result and changes no
       attribute of the explorer (caches of computed results may fill, keyed by every
       state value they depend on). It draws nothing and schedules nothing.
    2. ``_draw(result)`` only updates artists made in ``_build``; a change to what is not
       dynamic (limits with tick labels, static texts) calls :meth:`relayout`.
    3. Layers: a :class:`~._cached_layer.CachedLayer` is given to :meth:`dynamic` before
       the artists drawn over it, and its key names everything its pixels depend on.
    4. Every visible, enabled control changes the picture; a control a mode does not use
       is named by ``_hidden(state)``.
    5. Work ahead of time is opt-in: ``_warm_ups`` (states drawn while idle),
       ``_work_ahead`` (any other idle work), ``_preview`` and ``_refine`` (a first,
       partial answer to a change by hand, completed while the hand rests).
    """

    #: Heading shown above the controls.
    title = ""
    #: Figure size in inches.
    figsize = (9.0, 4.0)
    #: Show a "Resample" button that draws new random data.
    resample_button = False
    #: Control name -> milliseconds per frame, for controls that get a Play button.
    play = {}
    #: Seconds between a partial answer (``_preview``) and its first refinement step: a
    #: hand still moving is answered at once, not after a round of work.
    refine_after = COALESCE
    closed = False

    # --- the hooks a subclass implements ---------------------------------------------------

    def _controls(self):  # pragma: no cover - abstract
        """Return a dict name -> ipywidget (use the factories in this module)."""
        raise NotImplementedError

    def _compute(self, state):  # pragma: no cover - abstract
        """Return the result for ``state`` (pure: no drawing, no scheduling)."""
        raise NotImplementedError

    def _build(self, figure):  # pragma: no cover - abstract
        """Create the axes and artists on an empty ``figure``."""
        raise NotImplementedError

    def _draw(self, result):  # pragma: no cover - abstract
        """Update the artists in place to show ``result``."""
        raise NotImplementedError

    def _summary(self, result):
        """One or two plain sentences stating the numbers shown."""
        return ""

    def _hidden(self, state):
        """Names of the controls that have no effect in ``state`` (hidden until they do).

        Rule of every explorer: each visible, enabled control changes the picture.
        A control a mode does not use is returned here, e.g.
        ``return set() if state["mode"] == "custom" else {"p"}``.
        """
        return set()

    # opt-in: work ahead of time and answers in parts

    def _warm_ups(self, state):
        """States a click is likely to ask for next, drawn ahead while the kernel is idle.

        Return partial control values (dicts), e.g. ``({"learner": not state["learner"]},)``.
        A state's first picture computes its model and draws its layers afresh and can cost
        a later picture's time several times over; drawn ahead (its cached layers only),
        that cost is paid while the student reads, and the click only pastes. Nothing on
        screen changes meanwhile, and :attr:`drawing_ahead` is True. Default: none.
        """
        return ()

    def _other_options(self, state, *names):
        """For :meth:`_warm_ups`: each other option of the choice controls ``names``, one at a time."""
        return [{name: value} for name in names
                for value in _option_values(self.controls[name]) if value != state[name]]

    def _work_ahead(self):
        """One small step (a few milliseconds) of work the next pictures may need, done while
        the kernel is idle; return True while more remains. Override to opt in."""
        return False

    def _preview(self, state):
        """A first, partial answer to a change by hand when the full one takes long, or None
        when ``_compute(state)`` is quick. Override to opt in, with :meth:`_refine`."""
        return None

    def _refine(self, state):
        """One step (a few tens of milliseconds) of the work ``_compute(state)`` needs, done
        while the hand rests after a partial answer; the picture is redrawn after each."""

    # --- construction ---------------------------------------------------------------------

    def __init__(self, *, seed=0, **values):
        self.seed = _validate.integer("seed", seed, low=0)
        self.controls = dict(self._controls())
        self._check_values(values)
        for name, value in values.items():
            self.controls[name].value = value
        self.result = None
        self.image = b""
        self.error = None
        self._holding = False
        self._partial = False  # whether the picture shows a first, partial answer
        self._summary_text = ""
        self._warming = False  # drawing a state ahead of time (see _warm_ups): nothing is shown
        self._warm_queue = []
        self._warmed = set()
        self._density = plotting.theme().density
        self.scheduler = Scheduler(self)
        self._make_view()
        self._new_figure()
        self._update(raise_errors=True)
        self._rested()
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
            self.scheduler.watch(control)
        plotting.listen(self)

    def _check_values(self, values):
        for name, value in values.items():
            if name not in self.controls:
                known = ", ".join(sorted(self.controls))
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument "
                                f"{name!r}; its controls are: {known}")
            self._check_value(name, self.controls[name], value)

    @staticmethod
    def _check_value(name, control, value):
        if isinstance(control, _NUMERIC):
            if isinstance(control, (W.IntSlider, W.BoundedIntText)):
                value = _validate.integer(name, value)
            else:
                value = _validate.real(name, value)
            low, high = control.min, control.max
            if isinstance(control, W.FloatLogSlider):
                low, high = control.base ** control.min, control.base ** control.max
            if not low <= value <= high:
                raise ValueError(f"{name} must be between {low:g} and {high:g}, got {value!r}")
        elif isinstance(control, _CHOICES):
            options = _option_values(control)
            if value not in options:
                raise ValueError(f"{name} must be one of {options}, got {value!r}")
        elif isinstance(control, (W.Checkbox, W.ToggleButton)):
            _validate.boolean(name, value)
        elif isinstance(control, W.Text) and not isinstance(value, str):
            raise TypeError(f"{name} must be a string, got {value!r}")

    def _make_view(self):
        t = plotting.theme()
        self._heading = W.HTML(f"<b>{html.escape(self.title)}</b>" if self.title else "")
        self._buttons = []
        self._players = {}
        self._links = []  # Play buttons linked to their sliders in the browser
        for name, interval in self.play.items():
            target = self.controls[name]
            player = W.Play(min=target.min, max=target.max, step=target.step,
                            value=target.value, interval=interval, description=f"Play {name}")
            self._links.append(W.jslink((player, "value"), (target, "value")))
            self._buttons.append(player)
            self._players[name] = player
        if self.resample_button:
            button = W.Button(description="Resample", icon="refresh",
                              tooltip="Draw new random data (the seed moves on by one)")
            button.on_click(self._resample_clicked)
            self._buttons.append(button)
        self._control_box = W.Box(list(self.controls.values()) + self._buttons,
                                  layout=W.Layout(display="flex", flex_flow="row wrap",
                                                  align_items="center"))
        self._error = W.HTML(layout=W.Layout(display="none"))
        self._progress = W.FloatProgress(min=0.0, max=1.0, description="working",
                                         layout=W.Layout(display="none"))
        self._image = _Picture(format="png", layout=W.Layout(max_width="100%", height="auto"))
        self._image.add_class("evalteach-picture")
        self._summary_html = W.HTML()
        self.widget = W.VBox([self._heading, self._control_box, self._progress, self._error,
                              self._image, self._summary_html])
        self.widget.add_class("evalteach-explorer")
        self._style_controls(t)

    def _style_controls(self, t):
        for control in self.controls.values():
            if isinstance(control, _SLIDERS):
                # The label takes its own width (description_width "initial"): in a fixed width a
                # long one squeezed the track to nothing. The slider grows with its label instead
                # (1ch a character, a little more than a letter's average width).
                control.layout.width = f"max({t.control_width}, calc({len(control.description)}ch + {_SLIDER_ROOM}px))"
            elif isinstance(control, (W.Dropdown, W.Text)):
                control.layout.width = t.control_width
            if "font_size" in control.style.keys:
                control.style.font_size = t.control_font
        self._heading.style.font_size = t.control_font
        # The picture has more pixels than CSS pixels: fix its on-screen width.
        self._image.layout.width = f"{round(self.figsize[0] * t.figure_scale * t.dpi)}px"

    def _new_figure(self):
        t = plotting.theme()
        self._dynamic = []
        self._background = None
        with mpl.rc_context(t.rc()):
            size = (self.figsize[0] * t.figure_scale, self.figsize[1] * t.figure_scale)
            self.figure = Figure(figsize=size, dpi=t.dpi * self._density, layout="constrained")
            FigureCanvasAgg(self.figure)
            self._build(self.figure)
        self._layout_frozen = False
        self._warmed = set()  # what was drawn ahead was drawn into the old figure

    # --- the model's state and the view's parts -------------------------------------------

    @property
    def state(self):
        """The control values (plain Python values) and the seed."""
        values = {name: control.value for name, control in self.controls.items()}
        values["seed"] = self.seed
        return values

    def dynamic(self, *artists):
        """Mark artists that change on every update, so only they are redrawn (blitting).

        Call from :meth:`_build`, layers (:class:`~._cached_layer.CachedLayer`) before the
        artists drawn over them. Anything not marked is drawn once into a cached background;
        call :meth:`relayout` from :meth:`_draw` when that changes.
        """
        for artist in artists:
            artist.set_animated(True)
            self._dynamic.append(artist)

    @property
    def dynamic_artists(self):
        """The artists marked dynamic, in the order they are drawn over the background."""
        return tuple(self._dynamic)

    @property
    def drawing_ahead(self):
        """Whether :meth:`_draw` is drawing a state ahead of time (see :meth:`_warm_ups`):
        nothing is shown, so what ``_draw`` remembers from picture to picture (limits it
        keeps) must stay as the picture shown left it."""
        return self._warming

    def relayout(self):
        """Ask for a full redraw in this update (axis limits, labels or static artists changed)."""
        self._full = True

    def report_progress(self, fraction):
        """Show how far a long computation is (0 to 1); call from :meth:`_compute`."""
        if self._warming:
            return
        self._progress.layout.display = "flex"
        self._progress.value = float(min(max(fraction, 0.0), 1.0))

    def visible_controls(self):
        """The controls on screen now: not hidden by :meth:`_hidden` and not disabled."""
        return {name: c for name, c in self.controls.items()
                if c.layout.display != "none" and not getattr(c, "disabled", False)}

    def close(self):
        """Close every widget of this explorer (its view leaves the page) and let go of
        everything else it holds; it can be neither shown nor changed again.

        An explorer lives as long as one of its widgets is open (ipywidgets keeps every open
        widget). Closed, it keeps only its ``closed`` flag: IPython's output history
        (``Out``, ``_``) keeps every object a cell showed for the rest of the session, and
        an explorer's figure alone holds about 5 MB. When a cell that showed an explorer
        runs again, the explorer is closed for you (:mod:`._cells`)."""
        if self.closed:
            return
        _cells.close_widgets((self.widget, *self.controls.values(), *self._links))
        self.scheduler.stop()
        self.forget_pixels()
        self.__dict__.clear()  # the figure, its pixels, the result and the picture
        self.closed = True

    def __getattr__(self, name):
        # Called only for a name not found; once closed, every instance attribute is gone.
        if self.__dict__.get("closed"):
            raise AttributeError(f"{name!r}: this {type(self).__name__} was closed (by close(), or "
                                 "because the cell that showed it ran again); make a new one")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def forget_pixels(self):
        """Forget the background and every cached layer's copies: the next update draws
        everything afresh (in the same layout)."""
        for artist in self._dynamic:
            if isinstance(artist, CachedLayer):
                artist.clear()
        self._background = None

    # --- what the scheduler calls -----------------------------------------------------------

    def _on_change(self, change):
        if not self._holding:
            self.scheduler.changed()

    def _resample_clicked(self, _):
        """The Resample button: a change from the browser, answered like a slider's."""
        self.seed += 1
        self.scheduler.changed(browser=True)

    def _render_now(self):
        """A change from Python (or with no event loop): computed in full and drawn at once."""
        drawn = self._update()
        self._rested()
        return drawn

    def _render_live(self):
        """A change from the browser: a partial answer where the explorer offers one. True if
        the picture is partial (to be refined)."""
        return self._update(partial=True) and self._partial

    def _refine_step(self):
        """One step completing a partial answer, then a redraw. True while still partial."""
        if self.error is not None:
            return False
        try:
            with plotting.DRAWING:
                self._refine(self.state)
        except Exception as exc:  # noqa: BLE001 - shown to the user, never raised into the kernel
            self._show_error(exc)
            return False
        return self._update(partial=True) and self._partial

    def _rested(self):
        """The picture is final and the hand rests: announce the summary, give back the memory
        the picture's work freed, plan idle work."""
        if self.error is not None or self.result is None:
            return
        self._show_summary()
        give_back_freed_memory()
        self._plan_warm_ups(self.state)
        if type(self)._work_ahead is not Explorer._work_ahead:
            self.scheduler.idle("ahead", self._work_ahead)

    def _alive(self):
        return not self.closed and self.widget.comm is not None

    # --- drawing ahead -------------------------------------------------------------------

    @staticmethod
    def _state_key(state):
        return tuple(sorted(state.items()))

    def _plan_warm_ups(self, state):
        """Queue the states :meth:`_warm_ups` names and not yet drawn, to draw while idle."""
        self._warmed.add(self._state_key(state))
        self._warm_queue = [values for values in self._warm_ups(state)
                            if self._state_key({**state, **values}) not in self._warmed]
        if self._warm_queue:
            self.scheduler.idle("warm-ups", self._warm_step)

    def _warm_step(self):
        """Draw the layers of the next queued state into the canvas, then put the current
        picture back; True while more are queued. Only what the click will paste is drawn
        (the cached layers: no other dynamic artist, no PNG); the picture shown stays."""
        if not self._warm_queue or self.result is None or self.error is not None:
            return False
        state = {**self.state, **self._warm_queue.pop(0)}
        key = self._state_key(state)
        if key in self._warmed:
            return bool(self._warm_queue)
        if len(self._warmed) >= 256:  # a bounded memory of the states drawn ahead
            self._warmed.clear()
        self._warmed.add(key)
        canvas = self.figure.canvas
        shown, background = canvas.copy_from_bbox(self.figure.bbox), self._background
        with plotting.DRAWING, mpl.rc_context(plotting.theme().rc()):
            self._warming = True
            try:
                self._full = self._background is None
                self._draw(self._compute(state))
                self._render(layers_only=True)
            except Exception:  # noqa: BLE001 - only ahead of time: the click will show the error
                pass
            finally:
                self._warming = False
                self._full = self._background is None
                self._draw(self.result)
                # a full draw (of either state) may have moved the frozen layout: draw it all
                png = self._render() if self._full or self._background is not background else None
        if png is None:
            canvas.restore_region(shown)
        elif png != self.image:  # the layout had to make room for the other state's text
            self.image = self._image.value = png
        return bool(self._warm_queue)

    def warm_up(self):
        """Draw now, ahead of time, what an idle kernel would: the states the controls lead
        to next (see :meth:`_warm_ups`). Nothing on screen changes.

        An instructor can call it before class; the benchmarks call it between clicks.
        """
        while self._warm_step():
            pass
        self.scheduler.cancel_idle("warm-ups")

    # --- the update ---------------------------------------------------------------------------

    def _set_density(self, density):
        if density != self._density:
            self._density = density
            self.figure.set_dpi(plotting.theme().dpi * density)
            self._background = None

    def _show_used_controls(self, state):
        """Hide the controls (and their Play buttons) that ``state`` does not use; show the rest."""
        hidden = set(self._hidden(state))
        unknown = hidden - set(self.controls)
        if unknown:
            raise ValueError(f"_hidden() names unknown controls: {sorted(unknown)}")
        for name, control in self.controls.items():
            control.layout.display = "none" if name in hidden else None
        for name, player in self._players.items():
            player.layout.display = "none" if name in hidden else None

    def _update(self, raise_errors=False, partial=False):
        """Compute and draw the current state: True if drawn, False if it failed (the error
        is shown inline). ``partial``: answer with :meth:`_preview` where it offers a first
        answer. The summary for screen readers is announced apart (:meth:`_rested`)."""
        with plotting.DRAWING:
            try:
                self._set_density(plotting.theme().density)
                state = self.state
                self._show_used_controls(state)
                result = self._preview(state) if partial else None
                is_partial = result is not None
                if result is None:
                    result = self._compute(state)
                self._full = self._background is None
                with mpl.rc_context(plotting.theme().rc()):  # drawn and rendered in the theme
                    self._draw(result)
                    if plotting.theme().contrast == "high":
                        plotting.harden_text(self.figure)
                    png = self._render()
            except Exception as exc:  # noqa: BLE001 - shown to the user, never raised into the kernel
                if raise_errors:
                    raise
                self._show_error(exc)
                return False
            finally:
                self._progress.layout.display = "none"
        self.result, self.image, self.error, self._partial = result, png, None, is_partial
        self._summary_text = self._summary(result)
        with self._image.hold_sync():  # picture and its name in one message to the browser
            self._image.value = png
            # The img element's title: its accessible name, so a screen reader announces the
            # numbers with the picture (ipywidgets' Image has no alt; title is the fallback).
            self._image.tooltip = f"{self.title or type(self).__name__}. {self._summary_text}".strip()
        self._error.layout.display = "none"
        return True

    def _show_summary(self):
        self._summary_html.value = (f"<div class='evalteach-summary' aria-live='polite'>"
                                    f"{html.escape(self._summary_text)}</div>")

    def _show_error(self, exc):
        self.error = f"{type(exc).__name__}: {exc}"
        self._error.value = (
            "<div role='alert' style='border-left:4px solid #D55E00;padding:4px 8px;"
            "background:#fdf0e8'>Could not update: "
            f"<code>{html.escape(self.error)}</code>. The picture shows the last valid settings.</div>"
        )
        self._error.layout.display = "block"
        if self.result is not None:  # put the artists back to the last good picture
            try:
                with mpl.rc_context(plotting.theme().rc()):
                    self._draw(self.result)
                self._full = True
            except Exception:  # noqa: BLE001 - the PNG already shows the last good state
                pass

    def _render(self, layers_only=False):
        """Draw the picture (in full, or over the kept background) and return its PNG;
        ``layers_only``: draw only the cached layers and return None (drawing ahead)."""
        canvas = self.figure.canvas
        if self._full or self._background is None:
            canvas.draw()
            if self._layout_frozen and self._text_grew():
                self.figure.set_layout_engine("constrained")  # make room, then freeze again
                canvas.draw()
                self._layout_frozen = False
            if not self._layout_frozen:
                # Constrained layout, then frozen positions: cheaper redraws, no jitter.
                self.figure.set_layout_engine("none")
                self._layout_frozen = True
                self._margins = self._text_margins()
                self._margins_of = {self._text_signature(): self._margins}
            self._background = canvas.copy_from_bbox(self.figure.bbox) if self._dynamic else None
        else:
            canvas.restore_region(self._background)
        for artist in self._dynamic:
            if not layers_only or isinstance(artist, CachedLayer):
                self.figure.draw_artist(artist)
        return None if layers_only else png_bytes(canvas)

    # --- the frozen layout --------------------------------------------------------------------

    def _text_margins(self):
        """Inches each axes' labels, ticks and titles reach beyond it (left, right, bottom, top)."""
        renderer = self.figure.canvas.get_renderer()
        margins = []
        for ax in self.figure.axes:
            box, tight = ax.get_window_extent(renderer), ax.get_tightbbox(renderer)
            margins.append((box.x0 - tight.x0, tight.x1 - box.x1, box.y0 - tight.y0, tight.y1 - box.y1)
                           if ax.get_visible() and tight is not None else (0.0,) * 4)
        return np.array(margins) / self.figure.dpi

    def _text_signature(self):
        """What the text around the axes depends on: the axes' places and limits and every
        text's string and position (its titles and texts, axis labels, tick labels and
        legend). Equal signatures reach equally far (measuring that costs 30-70 ms a
        picture; this costs well under 1 ms)."""
        parts = []
        for ax in self.figure.axes:
            texts = [child for child in ax.get_children() if isinstance(child, Text)]
            texts += [ax.xaxis.label, ax.yaxis.label]
            legend = ax.get_legend()
            if legend is not None and legend.get_visible():
                texts += [legend.get_title(), *legend.get_texts()]
            for axis in (ax.xaxis, ax.yaxis):
                ticks = axis.get_major_ticks()
                texts += [tick.label1 for tick in ticks] + [tick.label2 for tick in ticks]
            parts.append((ax.get_visible(), tuple(ax.get_position().bounds), ax.get_xlim(),
                          ax.get_ylim(), tuple((t.get_text(), t.get_visible(), t.get_position(),
                                                t.get_fontsize()) for t in texts)))
        return tuple(parts)

    def _text_grew(self):
        """Whether text now needs more room than the frozen layout gave it (wider tick labels)."""
        signature = self._text_signature()
        margins = self._margins_of.get(signature)
        if margins is None:
            margins = self._margins_of[signature] = self._text_margins()
            if len(self._margins_of) > 64:  # a bounded memory of the states seen
                self._margins_of.pop(next(iter(self._margins_of)))
        return margins.shape != self._margins.shape or bool(np.any(margins > self._margins + 0.01))

    # --- public actions -------------------------------------------------------------------

    def set(self, **values):
        """Set several controls at once with a single redraw.

        Examples
        --------
        >>> explorer.set(n=100, confidence=0.9)  # doctest: +SKIP
        """
        self._check_values(values)
        self._holding = True
        try:
            for name, value in values.items():
                self.controls[name].value = value
        finally:
            self._holding = False
        return self.scheduler.changed(browser=False)

    def resample(self):
        """Draw new random data: move the seed on by one and redraw."""
        self.seed += 1
        return self.scheduler.changed(browser=False)

    def rebuild(self):
        """Recreate the figure from scratch and redraw it (what in-place updates avoid)."""
        with plotting.DRAWING:
            self._new_figure()
        return self.scheduler.changed(browser=False)

    def restyle(self):
        """Redraw in the current theme (called by :func:`evalteach.presenter`)."""
        if not self._alive():  # closed: it can never be shown again, so skip the redraw
            return
        self._style_controls(plotting.theme())
        self.rebuild()

    # --- display --------------------------------------------------------------------------

    def _repr_mimebundle_(self, **kwargs):
        if self.closed:
            return {"text/plain": repr(self)}
        _cells.shown(self)
        bundle = self.widget._repr_mimebundle_(**kwargs) or {}
        bundle["image/png"] = base64.b64encode(self.image).decode("ascii")
        bundle["text/plain"] = f"{self.title or type(self).__name__}. {self._summary(self.result)}"
        return bundle

    def __repr__(self):
        return f"<{type(self).__name__} closed>" if self.closed else f"<{type(self).__name__} {self.state}>"
