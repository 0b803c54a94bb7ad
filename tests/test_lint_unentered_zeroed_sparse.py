"""A tape never entered, a term multiplied by a literal 0, and sparse ops with no gradient.

TF-free: sources are parsed, never run. Three mechanisms over the data flow, each with the
correct look-alikes that must stay silent:

- a tape made (``tape = tf.GradientTape()``) that no ``with`` enters records nothing
  (``__enter__`` starts recording): its gradient call's target reaches no weight, and the
  line to change is where the tape was made (TM103);
- ``argmax_term + 0 * tf.reduce_mean(y_pred)`` (the term added to silence "No gradients
  provided"): the zeroed term gives the weights only zeros, so the argmax cut is theirs
  (TM201 there); a term switched off on purpose beside a live loss says nothing;
- ``tf.sparse.concat`` of two sparse tensors or more runs ``SparseConcat`` (registered as not
  differentiable; given one, it returns it), ``tf.sparse.split`` runs ``SparseSplit`` (no
  registry entry): TensorFlow's facts, in ``lint/api_ops.json``.
"""

from __future__ import annotations

import pytest
from lint_snippets import hints

BAD = {
    # the forward pass after `tape = tf.GradientTape()` with no `with` (a tutorial's
    # first loop: https://www.giomin.com/introduction-to-tf-gradienttape/ shape, our code)
    "a tape made and never entered": ("""
        net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        tape = tf.GradientTape()
        loss = tf.reduce_mean(tf.square(net(x) - y))
        grads = tape.gradient(loss, net.trainable_variables)
        """, [("TM103", 2)]),
    "a traced step's tape never entered": ("""
        net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        opt = keras.optimizers.SGD()
        @tf.function
        def step(a, b):
            tape = tf.GradientTape(persistent=True)
            loss = tf.reduce_mean(tf.square(net(a) - b))
            grads = tape.gradient(loss, net.trainable_variables)
            opt.apply_gradients(zip(grads, net.trainable_variables))
        step(x, y)
        """, [("TM103", 5)]),
    # newuser4: an argmax loss with `0 * reduce_mean(y_pred)` added so that Keras stops
    # saying "No gradients provided": every gradient is zero, the argmax is the cut
    "argmax loss with a zero-multiplied y_pred term": ("""
        net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4)])
        def hacked(y_true, y_pred):
            label = tf.cast(tf.argmax(y_pred, axis=-1), tf.float32)
            return tf.reduce_mean(tf.abs(label - y_true)) + 0 * tf.reduce_mean(y_pred)
        net.compile(optimizer="adam", loss=hacked)
        net.fit(x, y)
        """, [("TM201", 3)]),
    "a rounded loss with the prediction times 0.0 in a tape": ("""
        net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        with tf.GradientTape() as tape:
            pred = net(x)
            loss = tf.reduce_mean(tf.abs(tf.round(pred) - y)) + tf.reduce_sum(pred) * 0.0
        grads = tape.gradient(loss, net.trainable_variables)
        """, [("TM201", 4)]),
    "an op with no gradient inside the zeroed term still raises": ("""
        net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
        with tf.GradientTape() as tape:
            out = net(x)
            loss = tf.reduce_mean(out) + 0 * tf.reduce_sum(tf.sparse.split(
                sp_input=tf.sparse.from_dense(out), num_split=2, axis=1)[0].values)
        grads = tape.gradient(loss, net.trainable_variables)
        """, [("TM201", 4)]),
    # tensorflow/tensorflow#6391 and #32215 shapes: sparse adjacency blocks, our code
    "tf.sparse.concat of two adjacency blocks": ("""
        scorer = keras.layers.Dense(1)
        with tf.GradientTape() as tape:
            a = tf.SparseTensor([[0, 1], [1, 0]], scorer(x[:2])[:, 0], [2, 2])
            b = tf.SparseTensor([[0, 0], [1, 1]], scorer(x[2:4])[:, 0], [2, 2])
            adj = tf.sparse.concat(1, [a, b])
            loss = tf.reduce_sum(tf.sparse.sparse_dense_matmul(adj, tf.ones((4, 1))))
        grads = tape.gradient(loss, scorer.trainable_variables)
        """, [("TM201", 5)]),
    "tf.sparse.split of a scored adjacency": ("""
        scorer = keras.layers.Dense(1)
        with tf.GradientTape() as tape:
            adj = tf.SparseTensor([[0, 1], [1, 2], [1, 3]], scorer(x[:3])[:, 0], [2, 4])
            left, right = tf.sparse.split(sp_input=adj, num_split=2, axis=1)
            loss = tf.reduce_sum(tf.sparse.sparse_dense_matmul(left, tf.ones((2, 1))))
        grads = tape.gradient(loss, scorer.trainable_variables)
        """, [("TM201", 4)]),
}

CLEAN = {
    "a tape made first and entered by a with": """
        net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        tape = tf.GradientTape()
        with tape:
            loss = tf.reduce_mean(tf.square(net(x) - y))
        grads = tape.gradient(loss, net.trainable_variables)
        """,
    "a persistent tape handed to a helper that enters it": """
        net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        def forward(t):
            with t:
                return tf.reduce_mean(tf.square(net(x) - y))
        tape = tf.GradientTape(persistent=True)
        loss = forward(tape)
        grads = tape.gradient(loss, net.trainable_variables)
        """,
    "a tape made in one loop run and entered below": """
        net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        for _ in range(2):
            tape = tf.GradientTape()
            with tape as recording:
                loss = tf.reduce_mean(tf.square(net(x) - y))
            grads = recording.gradient(loss, net.trainable_variables)
        """,
    "an auxiliary head's loss switched off by 0.0 beside the main loss": """
        inp = keras.Input((3,))
        h = keras.layers.Dense(4)(inp)
        model = keras.Model(inp, [keras.layers.Dense(1)(h), keras.layers.Dense(3)(h)])
        with tf.GradientTape() as tape:
            main, aux = model(x)
            hits = tf.reduce_mean(tf.cast(tf.argmax(aux, axis=-1), tf.float32))
            loss = tf.reduce_mean(tf.square(main - y)) + 0.0 * tf.reduce_mean(aux) + 0 * hits
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "a metric's argmax times zero beside a differentiable loss": """
        net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4)])
        def loss_fn(y_true, y_pred):
            ce = keras.losses.sparse_categorical_crossentropy(y_true, y_pred, from_logits=True)
            hits = tf.cast(tf.argmax(y_pred, -1), "float32")
            return tf.reduce_mean(ce) + 0 * tf.reduce_mean(hits)
        net.compile(optimizer="adam", loss=loss_fn)
        net.fit(x, tf.zeros((8,)))
        """,
    "tf.sparse.concat of one block returns it": """
        scorer = keras.layers.Dense(1)
        with tf.GradientTape() as tape:
            a = tf.SparseTensor([[0, 1], [1, 0]], scorer(x[:2])[:, 0], [2, 2])
            adj = tf.sparse.concat(1, [a])
            loss = tf.reduce_sum(tf.sparse.sparse_dense_matmul(adj, tf.ones((2, 1))))
        grads = tape.gradient(loss, scorer.trainable_variables)
        """,
    "tf.sparse.slice blocks (differentiable in the values)": """
        scorer = keras.layers.Dense(1)
        with tf.GradientTape() as tape:
            adj = tf.SparseTensor([[0, 1], [1, 2], [1, 3]], scorer(x[:3])[:, 0], [2, 4])
            left = tf.sparse.slice(adj, [0, 0], [2, 2])
            loss = tf.reduce_sum(tf.sparse.sparse_dense_matmul(left, tf.ones((2, 1))))
        grads = tape.gradient(loss, scorer.trainable_variables)
        """,
    "a fixed sparse adjacency concatenated, weights after it": """
        net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        a = tf.SparseTensor([[0, 1]], [1.0], [2, 2])
        b = tf.SparseTensor([[1, 0]], [1.0], [2, 2])
        adj = tf.sparse.concat(1, [a, b])
        with tf.GradientTape() as tape:
            h = net(x[:4])
            loss = tf.reduce_sum(tf.sparse.sparse_dense_matmul(adj, h))
        grads = tape.gradient(loss, net.trainable_variables)
        """,
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_hinted_at_the_line_to_change(name: str) -> None:
    body, expected = BAD[name]
    assert hints(body) == expected


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_the_correct_look_alike_gets_no_hint(name: str) -> None:
    assert hints(CLEAN[name]) == []


def test_the_catalog_holds_tensorflows_facts_on_these_apis() -> None:
    """api_ops.json, as the generator read TensorFlow: the ops and when they are chosen."""
    from tapemagic.lint import catalog

    assert catalog.cut("tensorflow.sparse.split") == ("indices", ("SparseSplit",))
    assert catalog.raises(("SparseSplit",))  # no registry entry: the gradient call raises
    assert catalog.cut("tensorflow.sparse.concat") is None  # one block is returned as it is
    assert catalog.option_cut("tensorflow.sparse.concat", {}, ["", "len>1"]) == (
        "indices", ("SparseConcat",), "sp_inputs=[two or more]")
    assert catalog.option_cut("tensorflow.sparse.concat", {}, ["", ""]) is None
    # an op's attrs and integer inputs carry no gradient (tf.unstack's num): Where is left
    assert catalog.cut("keras.ops.nonzero") == ("integer", ("Where",))
