"""Functions TensorFlow runs in a graph of their own: a tf.data ``map``, a ``tf.py_function``.

TF-free. A mixin of the abstract interpreter (:class:`~tapemagic.lint.members.Members` extends
it): what reaches the caller's tape from a function TensorFlow does not inline into it.
"""

from __future__ import annotations

import ast
from dataclasses import replace

from tapemagic.lint.objects import Objects
from tapemagic.lint.values import Cut, Site, Value


class Wrapped(Objects):
    """``dataset.map(fn)`` and ``tf.py_function(fn, inp)`` (see the module docstring)."""

    def dataset_map(self, node: ast.Call, dataset: Value, fn: Value) -> Value:
        """Return ``dataset.map(fn)``: a dataset whose elements ``fn`` made, off any tape.

        tf.data traces ``fn`` into its own graph and runs it in the input pipeline
        (dataset_ops.py ``StructuredFunctionWrapper``): no tape records it, so weights it
        reads (an encoder applied in the pipeline) reach the training loop as plain data.
        """
        element = self.element(dataset) if dataset.kind == "dataset" else dataset
        arguments = getattr(fn.node, "args", None)
        count = len(arguments.args) if arguments is not None else 1
        params = list(element.items) if element.kind == "seq" and len(element.items) == count \
            else [element] * count
        recording, self.recording = self.recording, False
        try:
            made = self.call_value(node, fn, params, {})
        finally:
            self.recording = recording
        return Value(kind="dataset", items=(made,), cuts=made.cuts, ghost=made.ghost)

    def py_function(self, node: ast.Call, func: Value, inputs: Value) -> Value:
        """Return ``tf.py_function(func, inputs)``: differentiable through TF ops in its body.

        The body is interpreted on the inputs; a host conversion there is a ``py-host`` cut
        (TM304): TensorFlow differentiates a py_function by recording its body's ops.
        """
        if func.kind != "function" or not (inputs.live or self.recording):
            return self.op(node, "tf.py_function", [inputs])
        recording, self.recording = self.recording, True
        try:
            params = [self.element(inputs)] * 8
            result = self.call_value(node, func, params, {})
        finally:
            self.recording = recording
        name = getattr(func.node, "name", "<lambda>")
        cuts = frozenset(replace(c, kind="py-host", detail=name) if c.kind == "host" else c
                         for c in result.cuts)
        # TensorFlow differentiates a py_function only with respect to its `inp` tensors
        # (script_ops.py `_EagerPyFuncGrad`): weights the body reads itself get None
        closed = frozenset(r for r in result.live if not r.startswith("t:")
                           and not self.roots.covered(r, inputs.live))
        live = result.live - closed
        if closed:
            cuts |= {Cut("py-closure", "tf.py_function", Site.of(node), closed, node, name)}
        return Value(live=live, cuts=cuts | inputs.cuts,
                     ghost=result.ghost | inputs.live | inputs.ghost | closed)
