"""What Keras 3 did not track, or tracked stale, for the model being trained: plain data.

TF-free, beside ``trace.py``. ``tracing/tracking.py`` fills ``Trace.untracked`` with
:class:`Untracked` facts while the objects live; the untracked-weights rules (TM114 to TM117)
read them. ``tracing/unfreeze.py`` notes a :class:`StaleStep` (a step not retraced after an
unfreeze).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from tapemagic.trace import RawLocation


@dataclass(frozen=True, slots=True)
class Untracked:
    """Trainable variables that the model being trained reads but Keras does not track for it.

    Found by ``tracing/tracking.py`` from Keras 3's own tracking (a layer's ``weights``, a
    model's ``trainable_variables``) while the objects live. ``how``:

    - ``variable``: a variable a Keras layer reads that is not one of its ``weights``: a raw
      ``tf.Variable`` it holds (attribute or list; ``loc`` is where it was made, None: made
      before the run), any variable behind an object Keras does not look into (``via`` names
      its type, ``attribute`` the layer's attribute; ``loc`` is the statement that stored it on
      the layer), or one no layer reaches (``via`` is :data:`CLOSURE`: a function the layer
      calls closed over it; ``loc`` is where it was made), or, read in ``fit``'s train step
      outside the model's layers, one no layer of the run tracks (``via`` is :data:`STEP`: a
      loss closes over it; ``loc`` is where it was made, ``step`` the train call);
    - ``layer``: a Keras layer or model called inside another layer's call (a ``Lambda``:
      ``holder_type`` says which) that does not track its weights; ``loc`` is the user line that
      called it there;
    - ``module``: Keras weights of layers held by a ``tf.Module`` whose ``trainable_variables``
      (which sees no Keras 3 variable) were a gradient call's sources; ``loc`` is the user's
      ``class`` statement of that module (where a Keras variable it holds itself was made,
      for those), ``step`` that call (``loc`` is the call, ``step``
      None, when the class is not the user's);
    - ``frozen``: weights of a model whose own Keras train step was traced while they were
      frozen, so it got no trainable weights, or frozen after the model was compiled for
      another model compiled next (the Keras 2 recipe; Keras 3 reads ``trainable`` at trace
      time, not at compile time);
      ``loc`` is the ``trainable = False`` that froze them (the train call when they were
      frozen before the run), ``step`` the train call's line, ``model`` the model it trains;
    - ``api``: weights a Keras API froze as a side effect the user's code does not show, left
      out of a model's traced train step (``tracing/api_freezes.py``): ``via`` names the API
      (``load_model``, ``quantize``), ``attribute`` why (``restored``: the saved ``trainable``
      flag; ``quantized``: an integer kernel; :data:`DROPPED`: a custom layer rebuilt from a
      config that leaves out the constructor argument that made the weight trainable,
      ``changed`` those arguments as (name, repr before, repr after), ``loc`` where the user's
      ``get_config`` returns), ``loc`` the user's line that called it.
    """

    how: Literal["variable", "layer", "module", "frozen", "api"]
    handles: tuple[int, ...]
    holder: str
    holder_type: str
    loc: RawLocation | None
    step: RawLocation | None = None
    model: str = ""
    attribute: str = ""
    via: str = ""
    changed: tuple[tuple[str, str, str], ...] = ()
    #: an ``api`` fact's train step was traced after this event: a write before it (the
    #: loader restoring values, a ``set_weights`` before training) trains nothing
    since: int = 0


#: ``Untracked.attribute`` of a weight a rebuilt layer froze: its config left out an argument
DROPPED = "dropped"
#: ``Untracked.via`` of a variable no layer reaches: a function the layer calls closed over it
CLOSURE = "<closure>"
#: ``Untracked.via`` of a variable ``fit``'s train step read outside the model's layers that
#: no layer tracks: a loss (or the step) closes over it, and ``fit`` trains only the model's list
STEP = "<train step>"


@dataclass(frozen=True, slots=True)
class Unlossed:
    """Outputs of a multi-output model that its ``compile`` gave no loss (``tracing/compiled.py``).

    ``compile(loss={"price": "mse"})`` on a model with outputs ``price`` and ``category``:
    ``fit`` computes no loss from ``category``, so the weights that only it reads get no
    gradient. ``loc`` is the ``compile`` call, ``outputs`` the outputs left out (a key
    missing from a loss dict, or a None in it or in a loss list), ``paths`` the model's
    trainable variables' paths when it was compiled (Keras 3 ``Variable.path``), and
    ``unweighted`` the outputs whose ``loss_weights`` entry is 0: a loss Keras computes and
    reports but does not minimise, on purpose (a monitored head), whose weights get zeros.
    """

    loc: RawLocation | None
    outputs: tuple[str, ...]
    paths: frozenset[str]
    unweighted: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StaleStep:
    """A traced step called again after a layer it reads was unfrozen, and not retraced.

    ``loc`` is the ``trainable = True`` line, ``layer`` the layer's name, ``handles`` the
    variables it unfroze (handle serials), ``site`` the gradient call's site
    (``GradientCallRecord.site``) in the step traced before, ``runs`` how many calls of that
    step's graph followed while they were trainable (``tracing/unfreeze.py``).
    """

    loc: RawLocation | None
    layer: str
    handles: tuple[int, ...]
    site: tuple[str, int]
    seq: int
    runs: int
