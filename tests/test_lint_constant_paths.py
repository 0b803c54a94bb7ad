"""Static hints where an API's own definition leaves no gradient path, and their look-alikes.

TF-free: sources are parsed, never run. Two facts TensorFlow documents about an API, not
about a program:

- a tf.data pipeline made from tensors (``Dataset.from_tensor_slices``): its elements come
  out of the dataset's iterator and no tape records a path back to what it was made of, so a
  loss summed over a loop on it depends on nothing it was made from
  (tensorflow/tensorflow#36306's kind);
- a Python ``for`` over a dataset in a traced function: autograph runs it as
  ``Dataset.reduce``, whose function is traced into the dataset's graph, so what the loop
  carries out (a loss summed over batches) is cut there, even from data
  (tensorflow/tensorflow#41594's kind); eagerly the same loop is recorded;
- a clip whose lower bound is above its upper one (``tf.clip_by_value(t, 2.0, -20.0)``):
  ``minimum(maximum(t, lo), hi)`` is ``hi`` everywhere, a constant whose gradient is zero
  (tensorforce/tensorforce#161's kind: a log-std clipped with its bounds swapped).

Correct look-alikes stay silent: a dataset of data the step loops over, a dataset of a
teacher's outputs made off the tape, bounds in order, bounds that are not literals. Our code.
"""

from __future__ import annotations

import pytest
from lint_snippets import hints

WINDOWS = """
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])

    @tf.function
    def step(a, b):
        with tf.GradientTape() as tape:
            errors = tf.square(model(a) - b)
            loss = tf.constant(0.0)
            {loop}
        return tape.gradient(loss, model.trainable_variables)

    step(x, y)
    """

POLICY = """
    trunk = keras.layers.Dense(8, activation="tanh")
    mean_head, log_std_head = keras.layers.Dense(1), keras.layers.Dense(1)
    inp = keras.Input((3,))
    h = trunk(inp)
    policy = keras.Model(inp, [mean_head(h), log_std_head(h)])

    @tf.function
    def step(o, act):
        with tf.GradientTape() as tape:
            mu, log_std = policy(o)
            log_std = {clip}
            loss = tf.reduce_mean(0.5 * tf.square((act - mu) / tf.exp(log_std)) + log_std)
        return tape.gradient(loss, policy.trainable_variables)

    step(x, y)
    """

DATA_LOOP = """
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    data = tf.data.Dataset.from_tensor_slices(x).batch(4)

    {decorator}
    def step():
        loss = tf.constant(0.0)
        with tf.GradientTape() as tape:
            for d in data:
                loss += tf.reduce_mean(tf.square(model(d)))
        return tape.gradient(loss, model.trainable_variables)

    step()
    """

BAD = {
    "a traced loop over a dataset of data sums the loss in the tape": (
        DATA_LOOP.format(decorator="@tf.function"), [("TM201", 8)]),
    "a loop over a dataset of the errors, in the tape": (WINDOWS.format(
        loop="for w in tf.data.Dataset.from_tensor_slices(errors).batch(4):\n"
             "                loss += tf.reduce_max(w)"), [("TM201", 8)]),
    "a dataset of one tensor of predictions, in the tape": (WINDOWS.format(
        loop="for w in tf.data.Dataset.from_tensors(errors):\n"
             "                loss += tf.reduce_sum(w)"), [("TM201", 8)]),
    "tf.clip_by_value with the bounds swapped": (
        POLICY.format(clip="tf.clip_by_value(log_std, 2.0, -20.0)"), [("TM501", 11)]),
    "keras.ops.clip with the bounds swapped by keyword": (
        POLICY.format(clip="keras.ops.clip(log_std, x_min=2, x_max=-20)"), [("TM501", 11)]),
}

CLEAN = {
    "the same loop over a dataset run eagerly": DATA_LOOP.format(decorator=""),
    "a traced epoch whose tape is inside the loop over the dataset": """
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        opt = keras.optimizers.SGD(0.1)
        data = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)

        @tf.function
        def epoch():
            for xb, yb in data:
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(model(xb) - yb))
                grads = tape.gradient(loss, model.trainable_variables)
                opt.apply_gradients(zip(grads, model.trainable_variables))

        epoch()
        """,
    "the errors reshaped into windows instead": WINDOWS.format(
        loop="loss = tf.reduce_sum(tf.reduce_max(tf.reshape(errors, (-1, 4)), axis=1))"),
    "a training loop over a dataset of data": """
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        opt = keras.optimizers.SGD(0.1)
        for xb, yb in tf.data.Dataset.from_tensor_slices((x, y)).batch(4):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(xb) - yb))
            opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables),
                                    model.trainable_variables))
        """,
    "a dataset of a teacher's outputs made before the student's tape": """
        teacher = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        student = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        soft = tf.data.Dataset.from_tensor_slices((x, teacher(x))).batch(4)
        for xb, tb in soft:
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(student(xb) - tb))
            grads = tape.gradient(loss, student.trainable_variables)
        """,
    "tf.clip_by_value with the bounds in order": POLICY.format(
        clip="tf.clip_by_value(log_std, -20.0, 2.0)"),
    "keras.ops.clip with equal-looking keyword bounds in order": POLICY.format(
        clip="keras.ops.clip(log_std, x_max=2, x_min=-20)"),
    "bounds that are names": POLICY.format(clip="tf.clip_by_value(log_std, LOW, HIGH)"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_the_api_is_hinted(name: str) -> None:
    body, expected = BAD[name]
    assert hints(body) == expected


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_correct_look_alike_stays_silent(name: str) -> None:
    assert hints(CLEAN[name]) == []
