"""TensorFlow's facts about its public APIs, as the TF-free checker reads them.

``api_ops.json`` is generated from TensorFlow itself (:mod:`tapemagic.tracing.api_catalog`;
a test regenerates it and compares): which APIs give a result that depends on their tensor
arguments only through ops with no registered gradient (``tf.image.hsv_to_rgb``,
``tf.image.adjust_hue``, ``tf.sparse.reduce_max``, ``tf.nn.ctc_greedy_decoder``), whether that
result is an integer tensor, and which parameter of an API sets the dtype of its result.
Names are normalised as :func:`tapemagic.lint.names.normalise` does (``tf.math.x`` is ``tf.x``).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from tapemagic.lint.names import normalise

_PATH = Path(__file__).resolve().parent / "api_ops.json"


_Options = dict[str, dict[str, tuple[int, dict[str, tuple[str, tuple[str, ...]]]]]]


@cache
def _load() -> tuple[dict[str, tuple[str, tuple[str, ...]]], dict[str, int], frozenset[str],
                     _Options]:
    data = json.loads(_PATH.read_text(encoding="utf-8"))
    cuts = {normalise(k): (v[0], tuple(v[1])) for k, v in data["cuts"].items()}
    options = {normalise(api): {param: (int(entry[0]), {value: (cut[0], tuple(cut[1]))
                                                        for value, cut in entry[1].items()})
                                for param, entry in params.items()}
               for api, params in data.get("keywords", {}).items()}
    return (cuts, {normalise(k): int(v) for k, v in data["dtypes"].items()},
            frozenset(data.get("raises", {})), options)


def option_cut(dotted: str, chosen: dict[str, str], positional: list[str]
               ) -> tuple[str, tuple[str, ...], str] | None:
    """Return ``(kind, op types, "param=value")`` when a call's options cut its result.

    That is when the option value chosen makes the API return an op no gradient crosses
    (``tf.image.resize(x, size, method="area")``: ``ResizeArea``); None otherwise.

    ``chosen`` maps keyword names to the constant strings given (a boolean flag as
    ``"True"``/``"False"``: ``tf.sparse.reduce_sum(..., output_is_sparse=True)`` returns
    ``SparseReduceSumSparse``; a list display of two items or more as ``"len>1"``:
    ``tf.sparse.concat(1, [a, b])`` runs ``SparseConcat``); ``positional`` holds the
    constant string of each positional argument ("" when not a string).
    """
    for param, (position, values) in _load()[3].get(dotted, {}).items():
        given = chosen.get(param) or (
            positional[position] if 0 <= position < len(positional) else "")
        if given in values:
            shown = given if given in ("True", "False") else repr(given)  # a flag, a string
            if given == "len>1":  # a list of two or more: what the API then runs
                return (*values[given], f"{param}=[two or more]")
            return (*values[given], f"{param}={shown}")
    return None


def cut(dotted: str) -> tuple[str, tuple[str, ...]] | None:
    """Return ``(kind, op types)`` when no gradient crosses the API named ``dotted``, else None.

    ``kind`` is ``"integer"`` (its result is an integer tensor), ``"indices"`` (its first
    output is: decoded labels beside float log-probabilities) or ``"non-differentiable"``.
    """
    return _load()[0].get(dotted)


def raises(ops: tuple[str, ...]) -> bool:
    """Whether an op of ``ops`` has no gradient registry entry at all.

    A gradient that reaches such an op's output makes the whole gradient call raise
    ``LookupError``: every source is lost, also those another path reaches.
    """
    return any(op in _load()[2] for op in ops)


@cache
def _stopped() -> dict[str, dict[str, tuple[int, str]]]:
    data = json.loads(_PATH.read_text(encoding="utf-8"))
    return {normalise(api): {param: (int(entry[0]), "stop-gradient" if "StopGradient" in
                                     entry[1] else "non-differentiable")
                             for param, entry in params.items()}
            for api, params in data.get("stopped", {}).items()}


def stopped(dotted: str) -> dict[str, tuple[int, str]]:
    """Return the parameters the API named ``dotted`` cuts while differentiating others.

    ``{param: (position, kind)}`` (-1 for keyword-only). ``kind`` is ``"stop-gradient"`` for
    a parameter it wraps in ``stop_gradient`` (``labels`` of
    ``tf.compat.v1.nn.softmax_cross_entropy_with_logits``: its result is differentiated in
    ``logits`` only), ``"non-differentiable"`` for one that reaches only inputs of an op
    whose registered gradient gives them None (``constant_values`` of ``tf.pad``,
    ``on_value`` of ``tf.one_hot``). Empty for most APIs.
    """
    return _stopped().get(dotted, {})


def dtype_position(dotted: str) -> int | None:
    """Return the position of the parameter that sets the result dtype of ``dotted``, if any."""
    return _load()[1].get(dotted)
