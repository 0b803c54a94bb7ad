"""Kinds of cut a reader can see that the checker had not been shown (issue 33, section 6).

TF-free: sources are parsed, never run. Each broken program is written after a public report
(cited per kind; our own code) and hinted at the line to change, with the cause the run gives;
each has a correct look-alike that stays silent. What the checker knows decides, not the
names: whether a value is a tensor computed from the weights or a host number, whether a
path is differentiable, whether the code runs inside the tape and whether it is traced.
"""

from __future__ import annotations

import pytest
from lint_snippets import hints

BAD = {
    # argmax in a Lambda on the model's path, trained by fit: the Lambda's function is traced
    # into the functional model (tensorflow/tensorflow#52260, keras-team/keras#9169, and
    # issue 4 of Mainak431/List-of-Differentiable--OPs-and-Non-differentiable-OPs--in-Tensorflow)
    "argmax lambda ends a functional model": ("""
        inp = keras.Input((3,))
        scores = keras.layers.Dense(4)(inp)
        label = keras.layers.Lambda(lambda s: tf.cast(tf.argmax(s, axis=-1), tf.float32))(scores)
        model = keras.Model(inp, label)
        model.compile(optimizer="sgd", loss="mae")
        model.fit(x, y)
        """, [("TM201", 3)]),
    "one_hot(argmax) in a Lambda's own function": ("""
        def decode(t):
            return tf.one_hot(tf.argmax(tf.nn.softmax(t), axis=-1), 4)
        inp = keras.Input((3,))
        relay = keras.layers.Dense(4)(keras.layers.Dense(4, activation="relu")(inp))
        model = keras.Model(inp, keras.layers.Lambda(decode)(relay))
        model.compile(optimizer="adam", loss="categorical_crossentropy")
        model.fit(x, tf.one_hot([0, 1, 2, 3, 0, 1, 2, 3], 4))
        """, [("TM201", 2)]),
    "argmax lambda built through module aliases (K = tf.keras.backend)": ("""
        K = tf.keras.backend
        layers = tf.keras.layers
        inp = layers.Input((3,))
        h = layers.Dense(4, activation="softmax")(inp)
        model = tf.keras.Model(inp, layers.Lambda(lambda t: K.cast(K.argmax(t), "float32"))(h))
        model.compile(optimizer="adam", loss="mse")
        model.fit(x, y)
        """, [("TM201", 5)]),
    # the forward pass after the tape's block (tensorflow/tensorflow#27660: the loss computed
    # in the gradient call's arguments); a trainer object holding the model
    "the loss helper given the model after the block": ("""
        net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        def mse(m, a, b):
            return tf.reduce_mean(tf.square(m(a) - b))
        with tf.GradientTape() as tape:
            tape.watch(x)
        grads = tape.gradient(mse(net, x, y), net.trainable_variables)
        """, [("TM103", 6)]),
    "a trainer's traced step calls its model after the block": ("""
        class Trainer:
            def __init__(self):
                self.net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
                self.opt = keras.optimizers.Adam()
            @tf.function
            def step(self, a, b):
                with tf.GradientTape() as tape:
                    pass
                loss = tf.reduce_mean(tf.square(self.net(a) - b))
                grads = tape.gradient(loss, self.net.trainable_variables)
                self.opt.apply_gradients(zip(grads, self.net.trainable_variables))
        Trainer().step(x, y)
        """, [("TM103", 9)]),
    "the prediction stored in a dict before the tape": ("""
        net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        out = {"pred": None}
        out["pred"] = net(x)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(out["pred"] - y))
        grads = tape.gradient(loss, net.trainable_variables)
        """, [("TM103", 3)]),
    # tf.unique in a compiled loss (tensorflow/tensorflow#43765: Unique has no gradient)
    "tf.unique_with_counts in a compiled loss": ("""
        def spread(y_true, y_pred):
            values, _, counts = tf.unique_with_counts(tf.reshape(y_pred, [-1]))
            return tf.reduce_mean(tf.square(values))
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss=spread)
        model.fit(x, y)
        """, [("TM201", 2)]),
    # a loss of sampled rewards: Multinomial is NotDifferentiable and no log-probability
    # term carries the logits (tensorflow/tensorflow#31919 shape: a policy scored by samples);
    # TFP's discrete distributions are NOT_REPARAMETERIZED: their samples carry nothing either
    "rewards of tf.random.categorical samples as the loss": ("""
        policy = keras.Sequential([keras.Input((3,)), keras.layers.Dense(3)])
        payoff = tf.constant([1.0, -1.0, 0.5])
        @tf.function
        def step(obs):
            with tf.GradientTape() as tape:
                picks = tf.random.categorical(policy(obs), num_samples=1)
                loss = -tf.reduce_sum(tf.gather(payoff, picks[:, 0]))
            return tape.gradient(loss, policy.trainable_variables)
        step(x)
        """, [("TM201", 6), ("TM201", 7)]),  # the sample, and the loss missing its log-prob
    "rewards of a TFP Categorical's samples as the loss": ("""
        import tensorflow_probability as tfp
        tfd = tfp.distributions
        policy = keras.Sequential([keras.Input((3,)), keras.layers.Dense(3)])
        with tf.GradientTape() as tape:
            action = tfd.Categorical(logits=policy(x)).sample()
            loss = -tf.reduce_mean(tf.gather(tf.constant([1.0, 0.0, -1.0]), action))
        grads = tape.gradient(loss, policy.trainable_variables)
        """, [("TM201", 5)]),
    # a tf.Variable re-wrap in the tape (tensorflow/tensorflow#61199: "redefined inputs as
    # tf.Variable()"): the initial value is written by an assignment
    "tf.Variable made from the model's output in the tape": ("""
        net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        with tf.GradientTape() as tape:
            out = tf.Variable(net(x))
            loss = tf.reduce_mean(tf.square(out - y))
        grads = tape.gradient(loss, net.trainable_variables)
        """, [("TM402", 3)]),
    "tf.Variable returned by a forward helper": ("""
        w = tf.Variable(tf.ones((3, 1)))
        def forward(a):
            return tf.Variable(tf.nn.relu(a @ w), trainable=True)
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(forward(x))
        grads = tape.gradient(loss, [w])
        """, [("TM402", 3)]),
    # back_prop=False traced: while_v2 stop_gradients the results
    # (tensorflow/tensorflow#62174: map_fn gradients None in graph mode)
    "map_fn(back_prop=False) in a tf.function step": ("""
        net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        @tf.function
        def step(batch):
            with tf.GradientTape() as tape:
                outs = tf.map_fn(lambda b: net(b[None])[0], batch, back_prop=False)
                loss = tf.reduce_mean(tf.square(outs))
            return tape.gradient(loss, net.trainable_variables)
        step(x)
        """, [("TM401", 5)]),
    "while_loop(back_prop=False) in a step wrapped by tf.function": ("""
        w = tf.Variable(0.9)
        def step():
            with tf.GradientTape() as tape:
                _, h = tf.while_loop(lambda i, h: i < 5, lambda i, h: (i + 1, h * w),
                                     (0, tf.constant(1.0)), back_prop=False)
                loss = tf.square(h - 0.5)
            return tape.gradient(loss, [w])
        step = tf.function(step)
        step()
        """, [("TM401", 4)]),
    # tf.sign without a straight-through estimator (github.com/itayhubara/BinaryNet.tf/issues/8)
    "tf.sign of the kernel in a Dense subclass trained by fit": ("""
        class BinaryDense(keras.layers.Dense):
            def call(self, inputs):
                return tf.matmul(inputs, tf.sign(self.kernel))
        net = keras.Sequential([keras.Input((3,)), BinaryDense(4, use_bias=False),
                                keras.layers.Dense(1)])
        net.compile(optimizer="adam", loss="mse")
        net.fit(x, y)
        """, [("TM501", 3)]),
    "a sign activation, and an RBM sample drawn with tf.sign": ("""
        enc = keras.layers.Dense(4, activation="sigmoid")
        dec = keras.layers.Dense(3)
        with tf.GradientTape() as tape:
            p = enc(x)
            h = tf.nn.relu(tf.sign(p - tf.random.uniform(tf.shape(p))))
            loss = tf.reduce_mean(tf.square(dec(h) - x))
        grads = tape.gradient(loss, enc.trainable_variables + dec.trainable_variables)
        """, [("TM501", 5)]),
}

GOOD = {
    "argmax lambda only in the inference model sharing the layers": """
        inp = keras.Input((3,))
        logits = keras.layers.Dense(4)(inp)
        train_model = keras.Model(inp, logits)
        infer_model = keras.Model(inp, keras.layers.Lambda(lambda s: tf.argmax(s, -1))(logits))
        train_model.compile(optimizer="sgd",
                            loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        train_model.fit(x, tf.zeros((8,)))
        labels = infer_model.predict(x)
        """,
    "argmax lambda on the raw input, before any weight": """
        inp = keras.Input((3,))
        idx = keras.layers.Lambda(lambda t: tf.cast(tf.argmax(t, -1), tf.float32)[:, None])(inp)
        model = keras.Model(inp, keras.layers.Dense(1)(idx))
        model.compile(optimizer="adam", loss="mse")
        model.fit(x, y)
        """,
    "module aliases, the argmax only in the inference model": """
        K = tf.keras.backend
        layers = tf.keras.layers
        inp = layers.Input((3,))
        logits = layers.Dense(4)(inp)
        infer = tf.keras.Model(inp, layers.Lambda(lambda t: K.argmax(t))(logits))
        train = tf.keras.Model(inp, logits)
        train.compile(optimizer="adam",
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        train.fit(x, tf.zeros((8,)))
        """,
    "the loss helper given the model inside the block": """
        net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        def mse(m, a, b):
            return tf.reduce_mean(tf.square(m(a) - b))
        with tf.GradientTape() as tape:
            loss = mse(net, x, y)
        grads = tape.gradient(loss, net.trainable_variables)
        val = mse(net, x, y)
        """,
    "a trainer's traced step, evaluating after the update": """
        class Trainer:
            def __init__(self):
                self.net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
                self.opt = keras.optimizers.Adam()
            @tf.function
            def step(self, a, b):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(self.net(a) - b))
                grads = tape.gradient(loss, self.net.trainable_variables)
                self.opt.apply_gradients(zip(grads, self.net.trainable_variables))
                return tf.reduce_mean(tf.square(self.net(a) - b))
        Trainer().step(x, y)
        """,
    "the dict's prediction replaced inside the tape": """
        net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        out = {"pred": net(x)}
        with tf.GradientTape() as tape:
            out["pred"] = net(x)
            loss = tf.reduce_mean(tf.square(out["pred"] - y))
        grads = tape.gradient(loss, net.trainable_variables)
        """,
    "tf.unique of the labels weighting a differentiable loss": """
        labels = tf.constant([0, 1, 1, 2, 2, 2, 0, 1])
        classes, idx, counts = tf.unique_with_counts(labels)
        weights = 1.0 / tf.cast(tf.gather(counts, idx), tf.float32)
        net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(weights[:, None] * tf.square(net(x) - y))
        grads = tape.gradient(loss, net.trainable_variables)
        """,
    "REINFORCE: samples index the log-probabilities": """
        policy = keras.Sequential([keras.Input((3,)), keras.layers.Dense(3)])
        payoff = tf.constant([1.0, -1.0, 0.5])
        @tf.function
        def step(obs):
            with tf.GradientTape() as tape:
                logits = policy(obs)
                picks = tf.random.categorical(logits, num_samples=1)[:, 0]
                logp = tf.gather(tf.nn.log_softmax(logits), picks, batch_dims=1)
                loss = -tf.reduce_mean(logp * tf.gather(payoff, picks))
            return tape.gradient(loss, policy.trainable_variables)
        step(x)
        """,
    "REINFORCE with a TFP Categorical's log_prob": """
        import tensorflow_probability as tfp
        tfd = tfp.distributions
        policy = keras.Sequential([keras.Input((3,)), keras.layers.Dense(3)])
        with tf.GradientTape() as tape:
            dist = tfd.Categorical(logits=policy(x))
            action = dist.sample()
            payoff = tf.gather(tf.constant([1.0, 0.0, -1.0]), action)
            loss = -tf.reduce_mean(dist.log_prob(action) * payoff)
        grads = tape.gradient(loss, policy.trainable_variables)
        """,
    "tf.Variable made from the model's output outside the tape, as a buffer": """
        net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        memory = tf.Variable(net(x), trainable=False)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(net(x) - memory))
        grads = tape.gradient(loss, net.trainable_variables)
        """,
    "map_fn(back_prop=False) run eagerly, and a traced one off the loss path": """
        net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        with tf.GradientTape() as tape:
            outs = tf.map_fn(lambda b: net(b[None])[0], x, back_prop=False)
            loss = tf.reduce_mean(tf.square(outs))
        grads = tape.gradient(loss, net.trainable_variables)
        @tf.function
        def step(batch):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(net(batch)))
            norms = tf.map_fn(tf.norm, batch, back_prop=False)
            return tape.gradient(loss, net.trainable_variables), norms
        step(x)
        """,
    "map_fn in a tf.function without the flag": """
        net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        @tf.function
        def step(batch):
            with tf.GradientTape() as tape:
                outs = tf.map_fn(lambda b: net(b[None])[0], batch)
                loss = tf.reduce_mean(tf.square(outs))
            return tape.gradient(loss, net.trainable_variables)
        step(x)
        """,
    "binary weights through a straight-through estimator": """
        class BinaryDense(keras.layers.Dense):
            def call(self, inputs):
                w = self.kernel
                return tf.matmul(inputs, w + tf.stop_gradient(tf.sign(w) - w))
        net = keras.Sequential([keras.Input((3,)), BinaryDense(4, use_bias=False),
                                keras.layers.Dense(1)])
        net.compile(optimizer="adam", loss="mse")
        net.fit(x, y)
        """,
    "tf.sign inside stop_gradient, and of the data": """
        enc = keras.layers.Dense(4)
        dec = keras.layers.Dense(3)
        with tf.GradientTape() as tape:
            h = enc(x * tf.sign(x - 0.5))
            target = tf.stop_gradient(tf.sign(h))
            loss = tf.reduce_mean(tf.square(dec(h) - x)) + tf.reduce_mean(tf.square(h - target))
        grads = tape.gradient(loss, enc.trainable_variables + dec.trainable_variables)
        """,
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_kind_not_shown_before_is_hinted_at_its_line(name: str) -> None:
    body, expected = BAD[name]
    assert hints(body) == expected


@pytest.mark.parametrize("name", sorted(GOOD))
def test_its_correct_look_alike_gets_no_hint(name: str) -> None:
    assert hints(GOOD[name]) == []
