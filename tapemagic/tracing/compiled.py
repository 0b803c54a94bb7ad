"""Outputs a model's ``compile`` gave no loss: the line that decides what ``fit`` trains.

Imports no TensorFlow itself (Keras' trainer is patched once Keras loaded it). Keras 3's
``Trainer.compile`` takes ``loss`` as one loss, a list (one per output, in
``model.output_names`` order) or a dict keyed by output name; an output whose entry is
missing or None gets no loss term, and ``fit`` differentiates the sum of the others only
(Keras' ``CompileLoss``). The patch, undone with the check, notes after each ``compile`` of
a multi-output model the outputs so left out, where ``compile`` was called and the model's
trainable variables' paths (``Trace.unlossed``; rule TM104 places the weights only those
outputs read at that call). A ``loss_weights`` entry of 0 is a loss Keras computes and
weighs on purpose (a monitored head): not left out.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tapemagic import frames
from tapemagic.untracked_facts import Unlossed

if TYPE_CHECKING:
    from tapemagic.tracing.recorder import Recorder

#: Keras 3's trainer base: every model's ``compile``
TRAINER_MODULE = "keras.src.trainers.trainer"


class CompileHooks:
    """The patch of ``Trainer.compile`` and the facts it notes into the recorder's trace."""

    def __init__(self, rec: Recorder) -> None:
        self.rec = rec
        self._undo: Callable[[], None] | None = None
        #: told of each compile the user's own line called: (model, the caller frame)
        self.on_compiled: Callable[[Any, Any], None] | None = None

    def install(self) -> None:
        """Patch ``Trainer.compile`` (once Keras loaded its trainer module)."""
        owner = getattr(sys.modules.get(TRAINER_MODULE), "Trainer", None)
        original = getattr(owner, "__dict__", {}).get("compile")
        if owner is None or original is None or self._undo is not None:
            return
        hooks = self

        def compile(model: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: A001 - Keras' name
            result = original(model, *args, **kwargs)
            if hooks.rec.mine():
                try:
                    hooks.placed(sys._getframe(1))
                    if hooks.on_compiled is not None:
                        hooks.on_compiled(model, sys._getframe(1))
                    hooks.note(model, _argument(args, kwargs, "loss", 1),
                               _argument(args, kwargs, "loss_weights", 2), sys._getframe(1))
                except Exception:  # noqa: BLE001 - never break the user's compile
                    pass
            return result

        owner.compile = compile
        self._undo = lambda: setattr(owner, "compile", original)

    def remove(self) -> None:
        """Undo the patch."""
        if self._undo is not None:
            self._undo()
            self._undo = None

    def placed(self, frame: Any) -> None:
        """Note where the user called ``compile``: the line that chose the compiled loss."""
        user, _ = frames.user_frame(frame)
        ops = self.rec.trace.ops
        self.rec.trace.compiles.append((ops[-1].seq if ops else 0,
                                        frames.location_of(user) if user is not None else None))

    def note(self, model: Any, loss: Any, weights: Any, frame: Any) -> None:
        """Note the outputs ``loss`` leaves out of a multi-output model's compiled loss."""
        names = list(getattr(model, "output_names", None) or ())
        try:  # a dict of outputs: Keras keys a loss dict by the dict's keys, not layer names
            structure = model.output
        except Exception:  # noqa: BLE001 - a subclassed model has no symbolic output
            structure = None
        if isinstance(structure, dict):
            names = [str(key) for key in structure]
        if len(names) < 2:
            return
        left = [n for n, entry in _per_output(loss, names) if entry is None]
        unweighted = [n for n, entry in _per_output(weights, names)
                      if isinstance(entry, (int, float)) and entry == 0]
        if loss is None or len(left) == len(names) or not (left or unweighted):
            return  # every output has a loss, or none (an add_loss model, a loss override)
        user, _ = frames.user_frame(frame)
        paths = frozenset(str(getattr(v, "path", "")) for v in model.trainable_variables)
        self.rec.trace.unlossed.append(Unlossed(
            frames.location_of(user) if user is not None else None, tuple(left), paths,
            tuple(unweighted)))


def _argument(args: tuple[Any, ...], kwargs: dict[str, Any], name: str, position: int) -> Any:
    """Return ``compile``'s argument ``name`` (``position`` after ``self``'s, 0 = optimizer)."""
    return kwargs[name] if name in kwargs else (args[position] if len(args) > position
                                                else None)


def _per_output(value: Any, names: list[str]) -> list[tuple[str, Any]]:
    """Return (output name, its entry) of a dict keyed by output name or a list in order."""
    if isinstance(value, dict) and set(value) <= set(names):
        return [(n, value.get(n)) for n in names]
    if isinstance(value, (list, tuple)) and len(value) == len(names):
        return list(zip(names, value, strict=True))
    return []
