"""Self-test of every hook on tiny tensors, run once per process before the first check.

Imports TensorFlow. The tracer rests on private TensorFlow behaviour (``_tf_private``): op
callbacks, the ``_trainable`` read before an implicit variable read, the gradient registry,
``_EagerTensorBase`` dunders, ``GradientTape`` methods. A TensorFlow release that moves one of
them would silently weaken the analysis; this test makes that loud instead: each failed check
becomes one line in the report's notes, naming the supported TensorFlow range.
"""

from __future__ import annotations

import functools

from tapemagic.tracing import _tf_private as tfp

_PROBE = """
variable = tf.Variable(2.0, name="tapemagic_selftest")
x = tf.constant(3.0)
with tf.GradientTape() as tape:
    y = x * variable  # the C fast path reads `variable` without an op callback
    host = y.numpy()
    z = tf.round(tf.constant(host))
tape.gradient(z, variable)
"""


@functools.lru_cache(maxsize=1)
def self_test() -> tuple[str, ...]:
    """Return one line per hook that does not behave as verified (empty when all is well)."""
    import numpy as np
    import tensorflow as tf

    from tapemagic.tracing.session import TraceSession

    problems: list[str] = []
    complaint = tfp.check_version()
    if complaint:
        problems.append(complaint)
    lo, hi = tfp.SUPPORTED
    supported = f"tested with TensorFlow {lo[0]}.{lo[1]}-{hi[0]}.{hi[1] - 1}"
    try:
        # Run as "user code" (its own filename and module name), as the hooks only record
        # what the user's frames do.
        namespace = {"__name__": "__tapemagic_selftest__", "tf": tf}
        code = compile(_PROBE, "<tapemagic-selftest>", "exec")
        session = TraceSession(force_eager=False)
        with session:
            exec(code, namespace)  # noqa: S102 - a fixed probe, no user input
        x = namespace["x"]
        trace = session.trace
        assert trace is not None
        checks = {
            "op callbacks": any(op.op_type == "Mul" for op in trace.ops),
            "implicit variable reads": any(op.implicit for op in trace.ops),
            "host round-trip hooks": any(e.api == ".numpy()" for e in trace.host_events),
            "host value links": bool(trace.host_links),
            "tape patches": len(trace.gradient_calls) == 1,
            "gradient registry": (tfp.registry_entry("Equal"), tfp.registry_entry("Mul"))
            == ("none", "fn"),
            "NumPy protocol": not hasattr(tfp.EagerTensorBase, "__array_ufunc__")
            and isinstance(np.sqrt(x), np.floating),
        }
        problems += [f"self-test: {name} did not behave as expected ({supported})"
                     for name, ok in checks.items() if not ok]
    except Exception as error:  # noqa: BLE001 - a broken hook must not break the user's cell
        problems.append(f"self-test raised {type(error).__name__}: {error} ({supported})")
    return tuple(problems)
