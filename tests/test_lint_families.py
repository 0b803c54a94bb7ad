"""Static hints for families the third blind split showed lint missing, and their look-alikes.

TF-free: sources are parsed, never run. Each family is a mechanism, not a program: a Keras
model handed to ``tf.map_fn`` as its function is run per element like a function (so
``back_prop=False`` in a traced step cuts it); a ``tf.Module`` collects ``tf.Variable``s only,
and a ``keras.Variable`` is none; ``fit`` differentiates the model's trainable variables only,
so a trainable variable a compiled loss closes over never trains; TensorFlow's catalog, read
through the functions an API calls (``tf.nn.ctc_beam_search_decoder``, Keras 3's ``keras.ops``
in its TensorFlow backend) and with a boolean option fixed (``output_is_sparse=True``), says
which results no gradient crosses. Every broken shape has correct look-alikes that stay
silent. Modelled on public reports (cited per shape; our code).
"""

from __future__ import annotations

import pytest
from lint_snippets import hints

BAD = {
    # tf.map_fn(encoder, frames, back_prop=False) in a tf.function: while_v2 wraps the loop's
    # results in stop_gradient (a model mapped over a sequence: tensorflow/tensorflow#19897)
    "map_fn over a model with back_prop=False, traced": ("""
        enc = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4)])
        head = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
        @tf.function
        def step(batch):
            with tf.GradientTape() as tape:
                e = tf.map_fn(enc, batch, back_prop=False)
                loss = tf.reduce_mean(head(e))
            return tape.gradient(loss, enc.trainable_variables + head.trainable_variables)
        step(x)
        """, [("TM401", 6)]),
    # keras.Variable attributes of a tf.Module: module.trainable_variables is empty (the
    # variables a tf.Module does not see: tensorflow/tensorflow#27046)
    "keras.Variable kept by a tf.Module trainer": ("""
        class Fit(tf.Module):
            def __init__(self):
                super().__init__()
                self.w = keras.Variable(np.zeros((3, 1), "float32"))
                self.b = keras.Variable(0.0)
            def __call__(self, v):
                return tf.matmul(v, self.w) + self.b
        fitter = Fit()
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((fitter(x) - y) ** 2)
        grads = tape.gradient(loss, fitter.trainable_variables)
        """, [("TM116", 4), ("TM116", 5), ("TM116", 11)]),
    # a learned parameter made by the loss factory and closed over (keras-team/keras#12983)
    "trainable variable closed over by a compiled loss": ("""
        def nll():
            log_noise = tf.Variable(0.0, trainable=True)
            def loss(t, p):
                return tf.reduce_mean(tf.square(t - p) * tf.exp(-log_noise) + log_noise)
            loss.log_noise = log_noise
            return loss
        fn = nll()
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss=fn)
        print(fn.log_noise.numpy())
        model.fit(x, y, epochs=1)
        """, [("TM114", 2)]),
    # the factory hands back the loss and its variable (to print it): still only the loss
    # reads it (keras-team/keras#13844)
    "trainable variable returned beside the compiled loss": ("""
        def tempered():
            temperature = tf.Variable(1.0, trainable=True)
            def loss(t, p):
                return tf.reduce_mean(tf.square(t - p / temperature))
            return loss, temperature
        fn, temperature = tempered()
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss=fn)
        model.fit(x, y, epochs=1)
        print(float(temperature.numpy()))
        """, [("TM114", 2)]),
    "trainable variable at module level read by a compiled loss function": ("""
        temperature = tf.Variable(1.0, trainable=True)
        def loss(t, p):
            return tf.reduce_mean(tf.square(t - p / temperature))
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss=loss)
        model.fit(x, y, epochs=1)
        """, [("TM114", 1)]),
    # TensorFlow's facts, followed through the v2 API into the v1 function it returns:
    # the beam search's log-probabilities carry no gradient
    # (a beam decoder in training: SeanNaren/deepspeech.pytorch#314)
    "ctc_beam_search_decoder log-probability as the loss": ("""
        model = keras.Sequential([keras.Input((9, 5)), keras.layers.Dense(5)])
        with tf.GradientTape() as tape:
            logits = tf.transpose(model(tf.ones((3, 9, 5))), [1, 0, 2])
            _, log_p = tf.nn.ctc_beam_search_decoder(logits, tf.fill([3], 9), beam_width=4)
            loss = -tf.reduce_mean(log_p)
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM201", 4)]),
    # an option value picks a gradient-less op: output_is_sparse=True is
    # SparseReduceSumSparse (the sparse-output reductions: tensorflow/tensorflow#10002)
    "sparse.reduce_sum with output_is_sparse=True": ("""
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
        with tf.GradientTape() as tape:
            h = tf.reshape(model(x), [-1])
            edges = tf.sparse.SparseTensor(tf.constant([[0, 0], [1, 1]], tf.int64), h[:2], [2, 2])
            sums = tf.sparse.reduce_sum(edges, axis=1, output_is_sparse=True)
            loss = tf.reduce_mean(tf.sparse.to_dense(sums))
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM201", 5)]),
    # decoded labels cast for an edit distance: one cut, at the decoder, not a second at
    # the cast (tensorflow/tensorflow#32)
    "greedy CTC decoding cast for an edit distance": ("""
        model = keras.Sequential([keras.Input((9, 5)), keras.layers.Dense(5)])
        truth = tf.sparse.from_dense(tf.constant([[1, 2]], tf.int64))
        with tf.GradientTape() as tape:
            logits = tf.transpose(model(tf.ones((1, 9, 5))), [1, 0, 2])
            decoded, _ = tf.nn.ctc_greedy_decoder(logits, tf.fill([1], 9))
            loss = tf.reduce_mean(tf.edit_distance(tf.cast(decoded[0], tf.int64), truth))
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM201", 5)]),
    # sampled actions compared to make a reward: one cut, at the sample (Multinomial's ids
    # are integers), not a second at the comparison (tensorflow/tensorflow#4074)
    "reward from tf.random.categorical samples": ("""
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4)])
        with tf.GradientTape() as tape:
            logits = model(x)
            actions = tf.random.categorical(logits, 1)
            reward = tf.cast(tf.equal(actions, 2), tf.float32)
            loss = -tf.reduce_mean(reward)
        grads = tape.gradient(loss, model.trainable_variables)
        """, [("TM201", 4), ("TM201", 6)]),  # the sample, and the loss missing its log-prob
    # a Keras 3 op followed into Keras' TensorFlow backend: keras.ops.image.hsv_to_rgb runs
    # tf.image.hsv_to_rgb (HSVToRGB has no gradient: tensorflow/tensorflow#21510)
    "keras.ops.image.hsv_to_rgb on the network's output": ("""
        net = keras.Sequential([keras.Input((4, 4, 3)), keras.layers.Conv2D(3, 1)])
        with tf.GradientTape() as tape:
            hsv = keras.ops.sigmoid(net(tf.ones((2, 4, 4, 3))))
            rgb = keras.ops.image.hsv_to_rgb(hsv)
            loss = keras.ops.mean(rgb)
        grads = tape.gradient(loss, net.trainable_variables)
        """, [("TM201", 4)]),
}

CLEAN = {
    "keras.ops.image colour conversions with gradients, and hsv_to_rgb on the input": """
        net = keras.Sequential([keras.Input((4, 4, 3)), keras.layers.Conv2D(3, 1)])
        images = keras.ops.image.hsv_to_rgb(tf.ones((2, 4, 4, 3)))
        with tf.GradientTape() as tape:
            out = keras.ops.sigmoid(net(images))
            loss = keras.ops.mean(keras.ops.image.rgb_to_hsv(out))
            loss += keras.ops.mean(keras.ops.image.rgb_to_grayscale(out))
        grads = tape.gradient(loss, net.trainable_variables)
        """,
    "ctc_loss trained, beam search decoded for a metric": """
        model = keras.Sequential([keras.Input((9, 5)), keras.layers.Dense(5)])
        labels = tf.constant([[1, 2, 3]] * 3)
        with tf.GradientTape() as tape:
            logits = tf.transpose(model(tf.ones((3, 9, 5))), [1, 0, 2])
            loss = tf.reduce_mean(tf.nn.ctc_loss(labels, logits, tf.fill([3], 3),
                                                 tf.fill([3], 9), logits_time_major=True))
        grads = tape.gradient(loss, model.trainable_variables)
        decoded, log_p = tf.nn.ctc_beam_search_decoder(logits, tf.fill([3], 9))
        print(float(tf.reduce_mean(log_p)))
        """,
    "sparse.reduce_sum with a dense output": """
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
        with tf.GradientTape() as tape:
            h = tf.reshape(model(x), [-1])
            edges = tf.sparse.SparseTensor(tf.constant([[0, 0], [1, 1]], tf.int64), h[:2], [2, 2])
            sums = tf.sparse.reduce_sum(edges, axis=1)
            loss = tf.reduce_mean(sums)
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    "sparse.reduce_sum with output_is_sparse=False": """
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
        with tf.GradientTape() as tape:
            h = tf.reshape(model(x), [-1])
            edges = tf.sparse.SparseTensor(tf.constant([[0, 0], [1, 1]], tf.int64), h[:2], [2, 2])
            loss = tf.reduce_mean(tf.sparse.reduce_sum(edges, axis=1, output_is_sparse=False))
        grads = tape.gradient(loss, model.trainable_variables)
        """,
    # a set operation on predicted labels for a metric, beside a differentiable loss
    "set intersection of predicted labels as a metric": """
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4)])
        with tf.GradientTape() as tape:
            logits = model(x)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                tf.zeros((8,), tf.int32), logits))
        grads = tape.gradient(loss, model.trainable_variables)
        top = tf.math.top_k(logits, 2).indices
        hits = tf.sets.size(tf.sets.intersection(top, tf.zeros((8, 2), tf.int32)))
        """,
    "map_fn over a model, gradients flow": """
        enc = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4)])
        head = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
        @tf.function
        def step(batch):
            with tf.GradientTape() as tape:
                e = tf.map_fn(enc, batch)
                loss = tf.reduce_mean(head(e))
            return tape.gradient(loss, enc.trainable_variables + head.trainable_variables)
        step(x)
        """,
    # eagerly the loop is plain Python and back_prop does nothing
    "map_fn over a model with back_prop=False, eager": """
        enc = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4)])
        with tf.GradientTape() as tape:
            e = tf.map_fn(enc, x, back_prop=False)
            loss = tf.reduce_mean(e)
        grads = tape.gradient(loss, enc.trainable_variables)
        """,
    # a frozen feature extractor mapped without backprop, only the head trained
    "map_fn back_prop=False over a frozen encoder, head trained": """
        enc = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4)])
        head = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
        @tf.function
        def step(batch):
            with tf.GradientTape() as tape:
                e = tf.map_fn(enc, batch, back_prop=False)
                loss = tf.reduce_mean(head(e))
            return tape.gradient(loss, head.trainable_variables)
        step(x)
        """,
    # a target network's outputs mapped without backprop: it is not asked for
    "map_fn back_prop=False over a target network": """
        target = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        @tf.function
        def step(batch):
            with tf.GradientTape() as tape:
                wanted = tf.map_fn(target, batch, back_prop=False)
                loss = tf.reduce_mean((model(batch) - wanted) ** 2)
            return tape.gradient(loss, model.trainable_variables)
        step(x)
        """,
    # REINFORCE: the sampled actions weight a log-probability that carries the gradient
    "categorical samples scored through their log-probability": """
        policy = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4)])
        with tf.GradientTape() as tape:
            logits = policy(x)
            actions = tf.random.categorical(logits, 1)[:, 0]
            logp = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=actions, logits=logits)
            rewards = tf.cast(tf.equal(actions, 2), tf.float32)
            loss = tf.reduce_mean(logp * rewards)
        grads = tape.gradient(loss, policy.trainable_variables)
        """,
    "tf.Variable kept by a tf.Module trainer": """
        class Fit(tf.Module):
            def __init__(self):
                super().__init__()
                self.w = tf.Variable(np.zeros((3, 1), "float32"))
            def __call__(self, v):
                return tf.matmul(v, self.w)
        fitter = Fit()
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((fitter(x) - y) ** 2)
        grads = tape.gradient(loss, fitter.trainable_variables)
        """,
    "keras.Variable of a tf.Module passed by name": """
        class Fit(tf.Module):
            def __init__(self):
                super().__init__()
                self.w = keras.Variable(np.zeros((3, 1), "float32"))
            def __call__(self, v):
                return tf.matmul(v, self.w)
        fitter = Fit()
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((fitter(x) - y) ** 2)
        grads = tape.gradient(loss, [fitter.w])
        """,
    "non-trainable keras.Variable beside tf.Variables in a tf.Module": """
        class Fit(tf.Module):
            def __init__(self):
                super().__init__()
                self.w = tf.Variable(np.zeros((3, 1), "float32"))
                self.scale = keras.Variable(2.0, trainable=False)
            def __call__(self, v):
                return tf.matmul(v, self.w) * self.scale
        fitter = Fit()
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((fitter(x) - y) ** 2)
        grads = tape.gradient(loss, fitter.trainable_variables)
        """,
    # class weights held in a variable by a loss factory: a constant, not a weight to learn
    "class weights variable closed over by a compiled loss": """
        def weighted(weights):
            w = tf.Variable(weights)
            def loss(t, p):
                return tf.reduce_mean(tf.square(t - p) * w)
            return loss
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss=weighted([1.0]))
        model.fit(x, y, epochs=1)
        """,
    # a KL weight a callback anneals: written by assign, not trained
    "annealed loss weight variable written by a callback": """
        beta = tf.Variable(0.0, trainable=True)
        def loss(t, p):
            return tf.reduce_mean(tf.square(t - p)) * beta
        class Anneal(keras.callbacks.Callback):
            def on_epoch_end(self, epoch, logs=None):
                beta.assign(min(1.0, epoch / 10))
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss=loss)
        model.fit(x, y, epochs=1, callbacks=[Anneal()])
        """,
    "closed-over variable trained by its own optimizer step": """
        log_noise = tf.Variable(0.0, trainable=True)
        def loss(t, p):
            return tf.reduce_mean(tf.square(t - p) * tf.exp(-log_noise) + log_noise)
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss=loss)
        opt = keras.optimizers.Adam()
        def tune():
            with tf.GradientTape() as tape:
                value = loss(y, model(x))
            opt.apply_gradients(zip(tape.gradient(value, [log_noise]), [log_noise]))
        model.fit(x, y, epochs=1)
        tune()
        """,
    # the learned noise as a weight of the model (the fix): fit trains it
    "learned noise as a weight of a subclassed model": """
        class Noisy(keras.Model):
            def __init__(self):
                super().__init__()
                self.mean = keras.layers.Dense(1)
                self.log_noise = self.add_weight(shape=(), initializer="zeros")
            def call(self, v):
                return self.mean(v)
            def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None,
                             training=True):
                return tf.reduce_mean(tf.square(y - y_pred) * tf.exp(-self.log_noise))
        model = Noisy()
        model.compile(optimizer="adam")
        model.fit(x, y, epochs=1)
        """,
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_broken_shape_is_hinted_at_the_line_to_change(name: str) -> None:
    body, expected = BAD[name]
    assert hints(body) == expected


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_correct_look_alike_stays_silent(name: str) -> None:
    assert hints(CLEAN[name]) == []
