"""Traced steps and stochastic bits: what tracing freezes, what a sample cuts (issue 33, s. 6).

TF-free: sources are parsed, never run. A Python number read by a traced step is a constant
of its graph: a loss weight that is 0.0 when traced and ramped later never weighs again
(modelled on github.com/ray-project/ray/pull/34293 and the Keras KL-annealing callbacks of
keras-team/keras#10819's VAE example); a Bernoulli sample drawn by a comparison has no
gradient (modelled on keras-team/keras#5521's sampling Lambda; a Keras ``random_binomial``
draw is the same). Each has correct look-alikes: the weight held in a ``tf.Variable``, read
eagerly or passed as a tensor, a straight-through or score-function estimator. The VQ-VAE of
DeepMind Sonnet's example (a dict of outputs, ``stop_gradient`` on both sides of its losses)
is correct and stays silent.
"""

from __future__ import annotations

import pytest
from lint_snippets import hints

STEP = """
enc = keras.layers.Dense(4)
head = keras.layers.Dense(2)
opt = keras.optimizers.Adam()
{init}
{decorator}
def step(batch{param}):
    with tf.GradientTape() as tape:
        h = enc(batch)
        loss = tf.reduce_mean(tf.square(h)) + {weight} * tf.reduce_mean(tf.square(head(h)))
    variables = enc.trainable_variables + head.trainable_variables
    opt.apply_gradients(zip(tape.gradient(loss, variables), variables))
for epoch in range(5):
    {update}
    step(x{arg})
"""


def step(init: str = "beta = 0.0", decorator: str = "@tf.function", weight: str = "beta",
         update: str = "beta = epoch / 10", param: str = "", arg: str = "") -> str:
    return STEP.format(init=init, decorator=decorator, weight=weight, update=update,
                       param=param, arg=arg)


BAD = {
    "a global ramped by the epoch loop, read by a tf.function": (step(), [("TM504", 9)]),
    "an int 0 global, the step wrapped by tf.function": (
        step(init="beta = 0", decorator="", update="beta += 0.1").replace(
            "for epoch", "step = tf.function(step)\nfor epoch"), [("TM504", 9)]),
    "keras.ops.multiply by a global in a Keras train_step": ("""
        beta = 0
        class Net(keras.Model):
            def __init__(self):
                super().__init__()
                self.body = keras.layers.Dense(4)
                self.aux = keras.layers.Dense(1)
            def train_step(self, data):
                a, b = data
                with tf.GradientTape() as tape:
                    h = self.body(a)
                    loss = tf.reduce_mean(tf.square(h)) + keras.ops.multiply(
                        beta, tf.reduce_mean(tf.square(self.aux(h) - b)))
                grads = tape.gradient(loss, self.trainable_variables)
                self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
                return {"loss": loss}
        net = Net()
        net.compile(optimizer="adam")
        for epoch in range(3):
            beta = epoch / 3
            net.fit(x, y)
        """, [("TM504", 11)]),
    "a trainer attribute, the bench's shape": ("""
        model_in = keras.Input((3,))
        hidden = keras.layers.Dense(8, activation="tanh")(model_in)
        mu = keras.layers.Dense(2)(hidden)
        log_var = keras.layers.Dense(2)(hidden)
        model = keras.Model(model_in, [keras.layers.Dense(3)(mu), mu, log_var])
        class Trainer:
            def __init__(self):
                self.beta = 0.0
            @tf.function
            def train_step(self, batch):
                with tf.GradientTape() as tape:
                    out, m, lv = model(batch, training=True)
                    kl = -0.5 * tf.reduce_mean(1.0 + lv - tf.square(m) - tf.exp(lv))
                    loss = tf.reduce_mean(tf.square(out - batch)) + self.beta * kl
                return tape.gradient(loss, model.trainable_variables)
        trainer = Trainer()
        for epoch in range(3):
            trainer.beta = epoch / 4
            trainer.train_step(x)
        """, [("TM504", 14)]),
    "a model attribute annealed by a callback under fit": ("""
        class VAE(keras.Model):
            def __init__(self):
                super().__init__()
                self.enc = keras.layers.Dense(8, activation="relu")
                self.mu = keras.layers.Dense(2)
                self.log_var = keras.layers.Dense(2)
                self.dec = keras.layers.Dense(3)
                self.kl_weight = 0.0
            def call(self, inputs):
                h = self.enc(inputs)
                mu, lv = self.mu(h), self.log_var(h)
                kl = -0.5 * tf.reduce_mean(1.0 + lv - tf.square(mu) - tf.exp(lv))
                self.add_loss(self.kl_weight * kl)
                return self.dec(mu)
        class Anneal(keras.callbacks.Callback):
            def on_epoch_begin(self, epoch, logs=None):
                self.model.kl_weight = min(1.0, epoch / 10)
        vae = VAE()
        vae.compile(optimizer="adam", loss="mse")
        vae.fit(x, x, epochs=3, callbacks=[Anneal()])
        """, [("TM504", 13)]),
    "a Bernoulli sample drawn by comparison in a Lambda": ("""
        def bernoulli(p):
            return tf.cast(tf.random.uniform(tf.shape(p)) < p, tf.float32)
        inp = keras.Input((3,))
        probs = keras.layers.Dense(4, activation="sigmoid")(inp)
        out = keras.layers.Dense(1)(keras.layers.Lambda(bernoulli)(probs))
        model = keras.Model(inp, out)
        model.compile(optimizer="adam", loss="mse")
        model.fit(x, y)
        """, [("TM201", 2)]),
    "a Keras random_binomial draw with the layer's probabilities": ("""
        K = keras.backend
        inp = keras.Input((3,))
        p = keras.layers.Dense(4, activation="sigmoid")(inp)
        bits = keras.layers.Lambda(lambda q: K.random_binomial(K.shape(q), p=q))(p)
        model = keras.Model(inp, keras.layers.Dense(1)(bits))
        model.compile(optimizer="adam", loss="mse")
        model.fit(x, y)
        """, [("TM201", 4)]),
}

GOOD = {
    "the weight is a tf.Variable assigned by the loop": step(
        init="beta = tf.Variable(0.0, trainable=False)", update="beta.assign(epoch / 10)"),
    "the step runs eagerly": step(decorator=""),
    "eager mode forced for every tf.function": step().replace(
        "for epoch", "tf.config.run_functions_eagerly(True)\nfor epoch"),
    "a model set to run eagerly": """
        class Net(keras.Model):
            def __init__(self):
                super().__init__()
                self.dense = keras.layers.Dense(1)
                self.aux = keras.layers.Dense(1)
                self.beta = 0.0
            def call(self, inputs):
                self.add_loss(self.beta * tf.reduce_mean(tf.square(self.aux(inputs))))
                return self.dense(inputs)
        net = Net()
        net.compile(optimizer="adam", loss="mse")
        net.run_eagerly = True
        for epoch in range(3):
            net.beta = epoch / 3
            net.fit(x, y)
        """,
    "the weight is passed as a tensor argument": step(
        weight="w", param=", w", arg=", tf.constant(beta)"),
    "a weight of 0.0 that nothing changes": step(update="pass"),
    "a weight ramped from a non-zero start": step(init="beta = 0.5"),
    "the tf.function made again each epoch": step(decorator="").replace(
        "    step(x)", "    tf.function(step)(x)"),
    "another class's attribute of the same name": """
        class Schedule:
            def __init__(self):
                self.beta = 0.0
        class Net(keras.Model):
            def __init__(self):
                super().__init__()
                self.dense = keras.layers.Dense(1)
                self.beta = 0.5
            def call(self, inputs):
                out = self.dense(inputs)
                self.add_loss(self.beta * tf.reduce_mean(tf.square(out)))
                return out
        schedule = Schedule()
        net = Net()
        net.compile(optimizer="adam", loss="mse")
        for epoch in range(3):
            schedule.beta = epoch / 3
            net.fit(x, y)
        """,
    "compiled again after each change of the weight": """
        class Net(keras.Model):
            def __init__(self):
                super().__init__()
                self.dense = keras.layers.Dense(1)
                self.aux = keras.layers.Dense(1)
                self.beta = 0.0
            def call(self, inputs):
                out = self.dense(inputs)
                self.add_loss(self.beta * tf.reduce_mean(tf.square(self.aux(inputs))))
                return out
        net = Net()
        for epoch in range(3):
            net.beta = epoch / 3
            net.compile(optimizer="adam", loss="mse")
            net.fit(x, y)
        """,
    "a straight-through Bernoulli sample": """
        class StochasticBinary(keras.layers.Layer):
            def call(self, p):
                sample = tf.cast(tf.random.uniform(tf.shape(p)) < p, tf.float32)
                return p + tf.stop_gradient(sample - p)
        net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="sigmoid"),
                                StochasticBinary(), keras.layers.Dense(1)])
        net.compile(optimizer="adam", loss="mse")
        net.fit(x, y)
        """,
    "dropout noise drawn by random_binomial, with no weight in its probability": """
        K = keras.backend
        inp = keras.Input((3,))
        h = keras.layers.Dense(4)(inp)
        noisy = keras.layers.Lambda(lambda t: t * K.random_binomial(K.shape(t), p=0.9))(h)
        model = keras.Model(inp, keras.layers.Dense(1)(noisy))
        model.compile(optimizer="adam", loss="mse")
        model.fit(x, y)
        """,
    "a Bernoulli sample scored through its log-probability": """
        gate = keras.layers.Dense(4, activation="sigmoid")
        with tf.GradientTape() as tape:
            p = gate(x)
            b = tf.cast(tf.random.uniform(tf.shape(p)) < p, tf.float32)
            logp = b * tf.math.log(p + 1e-6) + (1.0 - b) * tf.math.log(1.0 - p + 1e-6)
            loss = -tf.reduce_mean(tf.reduce_sum(logp, -1) * tf.reduce_sum(b, -1))
        grads = tape.gradient(loss, gate.trainable_variables)
        """,
    "dropout-like masks, a gate by where, argmax as a metric": """
        net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4)])
        target_net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4)])
        with tf.GradientTape() as tape:
            q = net(x)
            keep = tf.cast(tf.random.uniform(tf.shape(q)) < 0.9, tf.float32)
            q = tf.where(q > 0.0, q, 0.01 * q) * keep
            best = tf.argmax(target_net(x), axis=-1)
            target = tf.stop_gradient(tf.gather(target_net(x), best, batch_dims=1))
            chosen = tf.gather(q, tf.argmax(q, axis=-1), batch_dims=1)
            loss = tf.reduce_mean(tf.square(chosen - target))
        grads = tape.gradient(loss, net.trainable_variables)
        accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(q, -1), best), tf.float32))
        """,
}

# DeepMind Sonnet's VQ-VAE example, written again for the checker: the quantizer returns a
# dict; codebook and commitment losses put stop_gradient on either side; the decoder reads
# the straight-through value; the loss is read from the returned dict after the tape.
SONNET_VQ = """
class VectorQuantizer(tf.Module):
    def __init__(self, dim, count, cost):
        super().__init__()
        self.dim, self.count, self.cost = dim, count, cost
        self.embeddings = tf.Variable(tf.random.uniform((dim, count)), name="embeddings")
    def __call__(self, inputs):
        flat = tf.reshape(inputs, [-1, self.dim])
        distances = (tf.reduce_sum(flat ** 2, 1, keepdims=True)
                     - 2 * tf.matmul(flat, self.embeddings)
                     + tf.reduce_sum(self.embeddings ** 2, 0, keepdims=True))
        indices = tf.argmax(-distances, 1)
        encodings = tf.one_hot(indices, self.count)
        quantized = tf.nn.embedding_lookup(tf.transpose(self.embeddings.read_value()),
                                           tf.reshape(indices, tf.shape(inputs)[:-1]))
        e_latent = tf.reduce_mean((tf.stop_gradient(quantized) - inputs) ** 2)
        q_latent = tf.reduce_mean((quantized - tf.stop_gradient(inputs)) ** 2)
        quantized = inputs + tf.stop_gradient(quantized - inputs)
        probs = tf.reduce_mean(encodings, 0)
        return {"quantize": quantized, "loss": q_latent + self.cost * e_latent,
                "perplexity": tf.exp(-tf.reduce_sum(probs * tf.math.log(probs + 1e-10))),
                "encoding_indices": indices}
class VQVAE(tf.Module):
    def __init__(self, encoder, decoder, vq):
        super().__init__()
        self.encoder, self.decoder, self.vq = encoder, decoder, vq
    def __call__(self, inputs):
        vq_output = self.vq(self.encoder(inputs))
        recon = self.decoder(vq_output["quantize"])
        recon_error = tf.reduce_mean((recon - inputs) ** 2)
        return {"x_recon": recon, "loss": recon_error + vq_output["loss"],
                "vq_output": vq_output}
model = VQVAE(keras.layers.Dense(4), keras.layers.Dense(3), VectorQuantizer(4, 16, 0.25))
optimizer = keras.optimizers.Adam(3e-4)
@tf.function
def train_step(data):
    with tf.GradientTape() as tape:
        out = model(data)
    variables = model.trainable_variables
    grads = tape.gradient(out["loss"], variables)
    optimizer.apply_gradients(zip(grads, variables))
    return out
train_step(x)
"""
GOOD["vq-vae, Sonnet's shape"] = SONNET_VQ
GOOD["vq-vae in one tape, codebook gathered by argmin"] = """
encoder = keras.layers.Dense(4)
decoder = keras.layers.Dense(3)
codebook = tf.Variable(tf.random.uniform((8, 4)))
with tf.GradientTape() as tape:
    z_e = encoder(x)
    idx = tf.argmin(tf.reduce_sum((z_e[:, None, :] - codebook[None]) ** 2, -1), axis=-1)
    z_q = tf.gather(codebook, idx)
    codebook_loss = tf.reduce_mean((tf.stop_gradient(z_e) - z_q) ** 2)
    commitment = tf.reduce_mean((z_e - tf.stop_gradient(z_q)) ** 2)
    z_st = z_e + tf.stop_gradient(z_q - z_e)
    loss = tf.reduce_mean((decoder(z_st) - x) ** 2) + codebook_loss + 0.25 * commitment
variables = encoder.trainable_variables + decoder.trainable_variables + [codebook]
grads = tape.gradient(loss, variables)
"""


@pytest.mark.parametrize("name", sorted(BAD))
def test_hinted_at_the_line_to_change(name: str) -> None:
    body, expected = BAD[name]
    assert hints(body) == expected


@pytest.mark.parametrize("name", sorted(GOOD))
def test_the_correct_look_alike_gets_no_hint(name: str) -> None:
    assert hints(GOOD[name]) == []
