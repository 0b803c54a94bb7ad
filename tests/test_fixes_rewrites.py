"""The quick-fix transforms that rewrite a call or a statement, and where they refuse (TF-free).

Each test builds the rule module's fix for a finding at a given place (``fix_edits.fix``),
applies the edits and compares the program text, and checks that the result still parses: a
numpy function becomes a py_function, an assign-then-read a direct read, a hypernetwork a
stateless call. A value whose use needs no surrogate gets a reason, not an edit.
"""

from __future__ import annotations

import linecache

from fix_edits import NAMES as _names
from fix_edits import fix

from tapemagic.locations import SourceIndex
from tapemagic.report.model import Location


def test_numpy_function_over_tf_ops_becomes_py_function() -> None:
    source = """\
        def body(t):
            return tf.tanh(t) * 2.0


        def numpy_body(t):
            return np.tanh(t)


        a = tf.numpy_function(body, [x], tf.float32)
        b = tf.numpy_function(numpy_body, [x], tf.float32)
        """
    fixed, _ = fix("TM302", source, "tf.numpy_function(body, [x], tf.float32)")
    assert "a = tf.py_function(body, [x], tf.float32)" in fixed
    fixed, _ = fix("TM302", source, "tf.numpy_function(numpy_body, [x], tf.float32)")
    assert "b = numpy_body_tf(x)" in fixed  # NumPy maths: a TensorFlow copy (test below)


def test_assign_then_read_becomes_a_direct_read() -> None:
    fixed, _ = fix("TM402", """\
        def call(self, proposal):
            self.w.assign(proposal)
            return -0.5 * self.w ** 2
        """, "self.w.assign(proposal)")
    assert fixed == "def call(self, proposal):\n    return -0.5 * proposal ** 2\n"


def test_assign_inside_an_update_loop_is_left_alone() -> None:
    _, edits = fix("TM402", """\
        for v, g in zip(variables, grads):
            v.assign(v - lr * g)
        loss = model(x)
        """, "v.assign(v - lr * g)")
    assert edits == ()


def test_python_branch_becomes_tf_where() -> None:
    fixed, _ = fix("TM303", """\
        with tf.GradientTape() as tape:
            if score > 0.0:
                loss = score * 2.0
            else:
                loss = tf.constant(1.0)
        """, "score > 0.0")
    assert "    loss = tf.where(score > 0.0, score * 2.0, tf.constant(1.0))\n" in fixed


def test_rebinding_a_variable_becomes_assign_sub() -> None:
    fixed, _ = fix("TM112", "x = x - 0.1 * g  # step\n", "x = x - 0.1 * g")
    assert fixed == "x.assign_sub(0.1 * g)  # step\n"


def test_watch_of_a_keras_variable_watches_its_value() -> None:
    from tapemagic.fixes import calls, rewrite

    name = f"<fix-{next(_names)}>"
    text = "    tape.watch(kernel)\n"
    linecache.cache[name] = (len(text), None, [text], name)
    location = Location(name, 1, 1, 4, 22, text.rstrip())
    edit = rewrite(location, SourceIndex(), calls.watch_backing_variable)
    assert edit is not None and edit.text == "tape.watch(kernel.value)"


def test_sign_gets_a_straight_through_fix_but_saturation_none() -> None:
    fixed, _ = fix("TM501", "b = tf.sign(w)\n", "tf.sign(w)", op_type="Sign")
    assert fixed == "b = w + tf.stop_gradient(tf.sign(w) - w)\n"
    assert fix("TM501", "b = tf.maximum(w, 0.0)\n", "tf.maximum(w, 0.0)",
               op_type="Maximum")[1] == ()


def test_hypernetwork_weights_become_a_stateless_call() -> None:
    fixed, _ = fix("TM402", """\
        with tf.GradientTape() as tape:
            w0 = tf.reshape(pred[:3], (3, 1))
            b0 = pred[3:]
            main.layers[0].kernel.assign(w0)
            main.layers[0].bias.assign(b0)
            loss = tf.reduce_mean(tf.square(main(x) - y))
        """, "main.layers[0].bias.assign(b0)")
    assert ".assign(" not in fixed
    assert ("main.stateless_call([w0 if v is main.layers[0].kernel else b0 if v is "
            "main.layers[0].bias else v for v in main.trainable_variables], "
            "main.non_trainable_variables, x)[0]") in fixed


def test_inner_update_loop_becomes_a_stateless_call() -> None:
    fixed, _ = fix("TM402", """\
        with tf.GradientTape() as outer:
            for v, g in zip(learner.trainable_variables, inner_grads, strict=False):
                v.assign(v - inner_lr * g)
            query_loss = tf.reduce_mean((learner(x_query) - y_query) ** 2)
        """, "v.assign(v - inner_lr * g)")
    assert "    for v, g" not in fixed and ".assign(" not in fixed
    assert ("learner.stateless_call([v - inner_lr * g for v, g in zip(learner.trainable_"
            "variables, inner_grads, strict=False)], learner.non_trainable_variables, "
            "x_query)[0]") in fixed


def test_set_weights_copy_becomes_a_call_on_the_source_weights() -> None:
    fixed, _ = fix("TM402", """\
        with tf.GradientTape() as tape:
            shadow.set_weights(online.get_weights())
            loss = tf.reduce_mean(tf.square(shadow(s) - q_target))
        """, "shadow.set_weights(online.get_weights())")
    assert fixed.splitlines()[1] == ("    loss = tf.reduce_mean(tf.square(shadow.stateless_call("
                                     "online.trainable_variables, online.non_trainable_variables"
                                     ", s)[0] - q_target))")


def test_keras_variable_watch_uses_the_backing_variable_everywhere() -> None:
    fixed, _ = fix("TM108", """\
        with tf.GradientTape(watch_accessed_variables=False) as tape:
            tape.watch(kernel)
            out = tf.reduce_sum(model(x))
        print(tape.gradient(out, kernel))
        """, "tape.watch(kernel)", what="Variable `toy/l1/kernel`")
    assert "    tape.watch(kernel.value)\n" in fixed
    assert "print(tape.gradient(out, kernel.value))" in fixed


def test_watch_of_model_inputs_watches_the_batch_first() -> None:
    fixed, _ = fix("TM108", """\
        with tf.GradientTape() as tape:
            predictions = model(images)
            tape.watch(model.inputs)
            loss = loss_object(labels, predictions)
        saliency = tape.gradient(loss, model.inputs)
        """, "tape.watch(model.inputs)")
    assert fixed == ("with tf.GradientTape() as tape:\n    tape.watch(images)\n"
                     "    predictions = model(images)\n"
                     "    loss = loss_object(labels, predictions)\n"
                     "saliency = tape.gradient(loss, images)\n")


def test_value_read_by_a_loss_closure_is_computed_in_it() -> None:
    fixed, _ = fix("TM103", """\
        output = layer(tf.constant([[7.0, 3.0]]))


        def loss_fn():
            return tf.reduce_mean(tf.square(target - output))


        cost = -tf.reduce_mean(tf.math.log(y_n))
        loss = lambda: cost
        """, "layer(tf.constant([[7.0, 3.0]]))")
    assert "tf.square(target - (layer(tf.constant([[7.0, 3.0]]))))" in fixed
    fixed, _ = fix("TM103", fixed, "-tf.reduce_mean(tf.math.log(y_n))")
    assert "loss = lambda: (-tf.reduce_mean(tf.math.log(y_n)))" in fixed


def test_sources_list_taken_before_build_reads_the_property() -> None:
    fixed, _ = fix("TM109", """\
        params = list(model.trainable_variables)
        for step in range(2):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(model(x))
            grads = tape.gradient(loss, params)
        """, "params = list(model.trainable_variables)")
    assert "grads = tape.gradient(loss, model.trainable_variables)" in fixed


def test_clip_and_zero_initialiser_fixes() -> None:
    fixed, _ = fix("TM501", "t = tf.clip_by_value(temperature, 0.1, 1.0)\n",
                   "tf.clip_by_value(temperature, 0.1, 1.0)", op_type="ClipByValue")
    assert fixed == ("t = temperature + tf.stop_gradient(tf.clip_by_value(temperature, 0.1, "
                     "1.0) - temperature)\n")
    fixed, _ = fix("TM501", """\
        layers = [tf.keras.layers.Dense(2, kernel_initializer="zeros",
                                        activation="relu", name="gate")]
        """, "tf.keras.layers.Dense(2", op_type="Relu")
    assert 'kernel_initializer="glorot_uniform"' in fixed


def test_variable_made_in_call_is_made_once() -> None:
    fixed, _ = fix("TM111", """\
        class Gate:
            def __call__(self, inputs):
                init = tf.ones((inputs.shape[-1], 1))
                self.w = tf.Variable(init, name="gate_w")
                return inputs @ self.w
        """, 'self.w = tf.Variable(init, name="gate_w")')
    assert ('        if getattr(self, "w", None) is None:\n'
            '            self.w = tf.Variable(init, name="gate_w")\n') in fixed


def test_float_into_a_list_keeps_the_tensor_and_the_list_math_in_tf() -> None:
    fixed, _ = fix("TM301", """\
        def spread_loss(x, y):
            losses = []
            for i in range(3):
                losses.append(float(one))
            spread = np.std(losses) + np.mean(losses)
            return spread
        """, "float(one)")
    assert "losses.append(one)" in fixed
    assert "spread = tf.math.reduce_std(losses) + tf.reduce_mean(losses)" in fixed


def test_soft_argmax_casts_the_integer_argmax_it_is_combined_with() -> None:
    fixed, edits = fix("TM201", """\
        def step(logits, labels):
            guess = tf.argmax(logits, 1)
            diff = tf.cast(guess - tf.argmax(labels, 1), tf.float32)
            return tf.argmax(labels, 1)
        """, "tf.argmax(logits, 1)")
    assert len(edits) == 2  # the surrogate, and the partner in `guess - ...` (not the return)
    assert "guess - tf.cast(tf.argmax(labels, 1), logits.dtype)" in fixed
    assert "return tf.argmax(labels, 1)" in fixed


def test_one_hot_of_argmax_is_replaced_whole_at_the_argmax_finding() -> None:
    fixed, edits = fix("TM201", "hard = tf.one_hot(tf.argmax(logits, -1), depth)\n",
                       "tf.argmax(logits, -1)")
    assert fixed == "hard = tf.nn.softmax(logits)\n" and len(edits) == 1
    # the same edit at the one_hot's own (secondary) finding: verified once
    assert fix("TM201", "hard = tf.one_hot(tf.argmax(logits, -1), depth)\n",
               "tf.one_hot(tf.argmax(logits, -1), depth)")[1] == edits
    # one_hot of labels is not the pair: the argmax gets the soft argmax
    assert "tf.one_hot(tf.reduce_sum(" not in fix(
        "TM201", "a = tf.argmax(logits, -1)\n", "tf.argmax(logits, -1)")[0]


def test_hypernetwork_writing_an_expression_becomes_a_stateless_call() -> None:
    source = """\
        with tf.GradientTape() as tape:
            h = hyper(z)
            target.layers[1].kernel.assign(tf.reshape(h, (6, 2)))
            out = target(x)
        """
    fixed, _ = fix("TM402", source, "target.layers[1].kernel.assign")
    assert fixed == (
        "with tf.GradientTape() as tape:\n    h = hyper(z)\n    out = target.stateless_call("
        "[tf.reshape(h, (6, 2)) if v is target.layers[1].kernel else v for v in "
        "target.trainable_variables], target.non_trainable_variables, x)[0]\n")
    # the value would be read after `h` changed: no edit
    assert fix("TM402", source.replace("out = target(x)", "h = h * 2\n            out = target(x)"),
               "target.layers[1].kernel.assign")[1] == ()


def test_numpy_function_of_numpy_maths_calls_a_tensorflow_copy() -> None:
    source = """\
        def np_softmax(logits):
            e = np.exp(logits - logits.max(axis=-1, keepdims=True))
            return (e / e.sum(axis=-1, keepdims=True)).astype("float32")


        def ranks(values):
            return np.argsort(np.argsort(values)).astype("float32")


        p = tf.numpy_function(np_softmax, [logits], "float32")
        r = tf.numpy_function(ranks, [p], tf.float32)
        """
    fixed, _ = fix("TM302", source, 'tf.numpy_function(np_softmax, [logits], "float32")')
    assert "def np_softmax(logits):\n    e = np.exp(" in fixed  # kept for other callers
    assert ("def np_softmax_tf(logits):\n"
            "    e = tf.exp(logits - tf.reduce_max(logits, axis=-1, keepdims=True))\n"
            '    return tf.cast((e / tf.reduce_sum(e, axis=-1, keepdims=True)), "float32")\n'
            ) in fixed
    assert "p = np_softmax_tf(logits)\n" in fixed
    keywords = 'tf.numpy_function(func=np_softmax, inp=[logits], Tout="float32")'
    fixed, _ = fix("TM302", source.replace(
        'tf.numpy_function(np_softmax, [logits], "float32")', keywords), keywords)
    assert "p = np_softmax_tf(logits)\n" in fixed
    _, edits = fix("TM302", source, "tf.numpy_function(ranks, [p], tf.float32)")
    assert edits == () and "`np.argsort` is piecewise constant" in edits.why  # type: ignore


def test_a_value_used_only_as_an_index_gets_a_reason_not_a_surrogate() -> None:
    source = """\
        def loss_fn(pred, table):
            bucket = pred // 10.0
            picked = tf.gather(table, tf.cast(bucket, tf.int32))
            return tf.reduce_mean(picked) + tf.reduce_sum(tf.one_hot(tf.cast(bucket, tf.int32), 5))
        """
    _, edits = fix("TM201", source, "pred // 10.0")
    assert edits == () and "only used as an integer index (`tf.gather` at line 3, " \
        "`tf.one_hot` at line 4)" in edits.why  # type: ignore[attr-defined]
    # one use as a value: the straight-through surrogate serves that use
    fixed, _ = fix("TM201", source.replace("tf.reduce_mean(picked)", "tf.reduce_mean(bucket)"),
                   "pred // 10.0")
    assert "bucket = pred / 10.0 + tf.stop_gradient(" in fixed


def test_a_rounded_value_only_compared_for_equality_gets_a_reason() -> None:
    _, edits = fix("TM201", """\
        def error_rate(labels, prediction):
            decided = tf.round(prediction)
            same = tf.equal(decided, labels)
            return 1.0 - tf.reduce_mean(tf.cast(same, tf.float32))
        """, "tf.round(prediction)")
    assert edits == () and "only reaches `tf.equal` at line 3" in edits.why  # type: ignore


def test_hypernetwork_inside_a_custom_model_calls_its_target_statelessly() -> None:
    fixed, _ = fix("TM402", """\
        class Hyper(tf.keras.Model):
            def call(self, z, x):
                self.target.layers[0].kernel.assign(tf.reshape(self.gen(z), (3, 1)))
                return self.target(x)
        """, "self.target.layers[0].kernel.assign")
    assert fixed.endswith(
        "    def call(self, z, x):\n        return self.target.stateless_call([tf.reshape("
        "self.gen(z), (3, 1)) if v is self.target.layers[0].kernel else v for v in "
        "self.target.trainable_variables], self.target.non_trainable_variables, x)[0]\n")
