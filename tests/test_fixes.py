"""The quick-fix transforms that move a line into a tape's block, and expression rewrites (TF-free).

Each test builds the rule module's fix for a finding at a given place (``fix_edits.fix``),
applies the edits and compares the program text, and checks that the result still parses. A
shape the transform does not know gives no edit (never a guess).
"""

from __future__ import annotations

import linecache
import textwrap

import pytest
from fix_edits import NAMES as _names
from fix_edits import fix

from tapemagic.locations import SourceIndex
from tapemagic.verify import apply_edits


def test_loss_computed_after_the_block_is_indented_into_it() -> None:
    fixed, _ = fix("TM103", """\
        with tf.GradientTape() as tape:
            out = model(x)

        loss = mse(y, out)
        grads = tape.gradient(loss, model.trainable_variables)
        """, "mse(y, out)")
    assert "with tf.GradientTape() as tape:\n    out = model(x)\n\n    loss = mse(y, out)\n" \
        in fixed


def test_the_loss_built_from_the_moved_line_moves_with_it() -> None:
    # a DQN update: the action's Q value and the loss after it are both outside the block
    fixed, _ = fix("TM103", """\
        with tf.GradientTape() as tape:
            q_values = model(s)
        q_action = tf.reduce_sum(
            q_values * masks, axis=1)
        loss = loss_function(targets, q_action)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        """, "tf.reduce_sum(")
    assert fixed == ("with tf.GradientTape() as tape:\n    q_values = model(s)\n"
                     "    q_action = tf.reduce_sum(\n    q_values * masks, axis=1)\n"
                     "    loss = loss_function(targets, q_action)\n"
                     "grads = tape.gradient(loss, model.trainable_variables)\n"
                     "optimizer.apply_gradients(zip(grads, model.trainable_variables))\n")


def test_a_statement_after_that_reads_nothing_moved_stays_out() -> None:
    fixed, _ = fix("TM103", """\
        with tf.GradientTape() as tape:
            out = model(x)
        loss = mse(y, out)
        print("step")
        grads = tape.gradient(loss, model.trainable_variables)
        """, "mse(y, out)")
    assert fixed == ("with tf.GradientTape() as tape:\n    out = model(x)\n"
                     "    loss = mse(y, out)\nprint(\"step\")\n"
                     "grads = tape.gradient(loss, model.trainable_variables)\n")


def test_a_later_line_moves_along_past_statements_it_does_not_touch() -> None:
    fixed, _ = fix("TM103", """\
        with tf.GradientTape() as tape:
            out = model(x)
        print("forward done")
        err = out - y

        loss = tf.reduce_mean(err ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        """, "out - y")
    assert fixed == ("with tf.GradientTape() as tape:\n    out = model(x)\n"
                     "    err = out - y\n\n    loss = tf.reduce_mean(err ** 2)\n"
                     "print(\"forward done\")\n"
                     "grads = tape.gradient(loss, model.trainable_variables)\n")


def test_forward_pass_before_the_block_moves_first_into_it() -> None:
    fixed, _ = fix("TM103", """\
        out = model(state)
        print("ready")
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(out)
        """, "model(state)")
    assert fixed == ('print("ready")\nwith tf.GradientTape() as tape:\n'
                     "    out = model(state)\n    loss = tf.reduce_sum(out)\n")


def test_no_move_past_a_statement_that_uses_the_value() -> None:
    _, edits = fix("TM103", """\
        out = model(state)
        print(out)
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(out)
        """, "model(state)")
    assert edits == ()


def test_target_computed_in_the_gradient_call_is_computed_in_the_block() -> None:
    fixed, _ = fix("TM103", """\
        def grad(features, target):
            with tf.GradientTape() as t:
                t.watch(features)
            params = model.trainable_variables
            return t.gradient(mse(model(features), target), params)
        """, "mse(model(features), target)")
    assert "        loss = mse(model(features), target)\n" in fixed
    assert "return t.gradient(loss, params)" in fixed


def test_unwatched_tensor_gets_a_watch_first_in_the_block() -> None:
    source = """\
        w = tf.constant(w_np)
        with tf.GradientTape() as g:
            y = tf.nn.conv2d(x, w, 1, "SAME")
        dw = g.gradient(y, w)
        """
    name = f"<fix-{next(_names)}>"
    text = textwrap.dedent(source)
    linecache.cache[name] = (len(text), None, text.splitlines(True), name)
    from tapemagic.fixes import statements

    edits = statements.add_watch(SourceIndex(), name, 2, ["w"])
    assert edits is not None
    assert "with tf.GradientTape() as g:\n    g.watch(w)\n    y = " in apply_edits(text, edits)
    assert statements.add_watch(SourceIndex(), name, 2, ["y"]) is None  # made inside the block


def test_late_watch_moves_up_to_where_the_tensor_is_made() -> None:
    fixed, _ = fix("TM102", """\
        with tf.GradientTape() as gp_tape:
            xhat = eps * real + (1 - eps) * fake
            dhat = critic(xhat)
            gp_tape.watch(xhat)
        slopes = gp_tape.gradient(dhat, xhat)
        """, "gp_tape.watch(xhat)")
    assert fixed.splitlines()[1:4] == ["    xhat = eps * real + (1 - eps) * fake",
                                       "    gp_tape.watch(xhat)", "    dhat = critic(xhat)"]


@pytest.mark.parametrize(("code", "before", "after"), [
    ("TM201", "tf.round(z)", "z + tf.stop_gradient(tf.round(z) - z)"),
    ("TM201", "tf.floor(prob + 0.5)",
     "(prob + 0.5) + tf.stop_gradient(tf.floor(prob + 0.5) - (prob + 0.5))"),
    ("TM201", "keras.ops.round(y_pred)",
     "y_pred + keras.ops.stop_gradient(keras.ops.round(y_pred) - y_pred)"),
    ("TM201", "tf.argmax(logits, 1)",
     "tf.reduce_sum(tf.nn.softmax(logits, axis=1) * tf.range(tf.shape(logits)[1], "
     "dtype=logits.dtype), axis=1)"),
    ("TM201", "tf.argmax(logits)",  # tf.argmax's default axis is 0, not -1
     "tf.reduce_sum(tf.nn.softmax(logits, axis=0) * tf.range(tf.shape(logits)[0], "
     "dtype=logits.dtype), axis=0)"),
    ("TM201", "tf.one_hot(tf.argmax(logits, -1), 3)", "tf.nn.softmax(logits)"),
    ("TM201", "tf.one_hot(tf.argmax(model(x), axis=1), depth=3, dtype=tf.float32)",
     "tf.nn.softmax(model(x), axis=1)"),
    ("TM201", "keras.ops.one_hot(keras.ops.argmax(y_pred, axis=-1), 4)",
     "keras.ops.softmax(y_pred)"),
    ("TM201", "tf.cast(tf.equal(p, tf.reduce_max(p, axis=-1, keepdims=True)), tf.float32)",
     "tf.nn.softmax(p)"),
    ("TM201", "tf.cast(tf.reduce_max(p, -1, True) == p, p.dtype)", "tf.nn.softmax(p)"),
    ("TM201", "pred // 10.0", "pred / 10.0 + tf.stop_gradient(pred // 10.0 - pred / 10.0)"),
    ("TM201", "tf.math.floordiv(y[:, 0], step)",
     "y[:, 0] / step + tf.stop_gradient(tf.math.floordiv(y[:, 0], step) - y[:, 0] / step)"),
    ("TM201", "y_pred > 0.5",
     "(y_pred - 0.5) + tf.stop_gradient(tf.cast(y_pred > 0.5, y_pred.dtype) - (y_pred - 0.5))"),
    ("TM202", "tf.cast(score, tf.int32)",
     "score + tf.stop_gradient(tf.cast(tf.cast(score, tf.int32), score.dtype) - score)"),
    ("TM202", 'tf.Variable(2, name="slope")', 'tf.Variable(2.0, name="slope")'),
    ("TM401", "tf.stop_gradient(tf.round(z))", "z + tf.stop_gradient(tf.round(z) - z)"),
    ("TM401", "tf.stop_gradient(y)", "y"),
    ("TM301", "model.predict(x, verbose=0)", "model(x)"),
    ("TM302", "tf.numpy_function(np.sinh, [inputs], tf.float32)", "tf.math.sinh(inputs)"),
    ("TM107", "tape.gradient(loss, model.variables)",
     "tape.gradient(loss, model.trainable_variables)"),
])
def test_expression_rewrites(code: str, before: str, after: str) -> None:
    fixed, _ = fix(code, f"out = {before}\n", before)
    assert fixed == f"out = {after}\n"


@pytest.mark.parametrize(("code", "text"), [
    ("TM201", "tf.round(model(x))"),  # writing the argument twice would run the model twice
    ("TM201", "tf.unique(scores)"),  # no surrogate for it
    ("TM201", "tf.one_hot(tf.argmax(logits), 3)"),  # axis 0: not the class axis
    ("TM201", "tf.one_hot(tf.argmax(logits, -1), 3, 5.0, -1.0)"),  # on/off values
    ("TM201", "keras.ops.one_hot(keras.ops.argmax(y_pred), 4)"),  # argmax of the flat tensor
    ("TM201", "model(x) // 10.0"),  # writing the argument twice would run the model twice
    ("TM201", "tf.cast(tf.equal(p, tf.reduce_max(p, axis=0, keepdims=True)), tf.float32)"),
    ("TM201", "tf.cast(tf.equal(p, tf.reduce_max(q, axis=-1, keepdims=True)), tf.float32)"),
    ("TM202", "tf.cast(score, tf.float32)"),  # not an integer cast
    ("TM302", "tf.numpy_function(np.argsort, [x], tf.int64)"),  # no TF twin
    ("TM301", "model.predict_on_batch(x)"),
])
def test_unknown_shapes_get_no_edit(code: str, text: str) -> None:
    assert fix(code, f"out = {text}\n", text)[1] == ()
