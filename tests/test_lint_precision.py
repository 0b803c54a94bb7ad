"""Precision first: correct training code that merely looks suspicious gets no hint.

TF-free: sources are parsed, never run. Each program below is correct (metrics, masks,
straight-through estimators, schedules, target networks, frozen teachers...); a hint on any of
them is a false positive.
"""

from __future__ import annotations

import textwrap

import pytest

from tapemagic.lint import check_source

HEAD = """
import numpy as np
import tensorflow as tf
import keras
model = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(3)])
teacher = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(3)])
x = tf.ones((5, 4)); y = tf.constant([0, 1, 2, 0, 1]); y1h = tf.one_hot(y, 3)
opt = tf.keras.optimizers.Adam()
acc = tf.keras.metrics.SparseCategoricalAccuracy()
"""
GOOD = {
"a watch of model.inputs that the code catches, falling back to the batch": """
with tf.GradientTape() as tape:
    try:
        tape.watch(model.inputs)
    except ValueError:
        tape.watch(x)
    loss = tf.reduce_sum(model(x))
saliency = tape.gradient(loss, x)
""",
"functional model from a dict of inputs": """
import pandas as pd
df = pd.DataFrame({"a": [1.0, 2.0], "b": [3.0, 4.0]})
inputs = {}
for name, column in df.items():
    inputs[name] = tf.keras.Input(shape=(1,), name=name)
xs = [value for key, value in sorted(inputs.items())]
h = tf.keras.layers.Concatenate(axis=1)(xs)
h = tf.keras.layers.Dense(10, activation="relu")(h)
out = tf.keras.layers.Dense(1)(h)
net = tf.keras.Model(inputs, out)
net.compile(optimizer="adam", loss=tf.keras.losses.BinaryCrossentropy(from_logits=True))
net.fit(dict(df), np.zeros(2), epochs=1)
""",
"metrics after": """
@tf.function
def step(xb, yb):
    with tf.GradientTape() as tape:
        logits = model(xb, training=True)
        loss = tf.reduce_mean(
            tf.keras.losses.sparse_categorical_crossentropy(yb, logits, from_logits=True))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    acc.update_state(yb, logits)
    return loss
for epoch in range(2):
    l = step(x, y)
    print(float(l), acc.result().numpy())
""",
"policy gradient": """
with tf.GradientTape() as tape:
    logits = model(x)
    action = tf.random.categorical(logits, 1)[:, 0]
    logp = tf.gather(tf.nn.log_softmax(logits), action, batch_dims=1)
    loss = -tf.reduce_mean(logp * 2.0)
grads = tape.gradient(loss, model.trainable_variables)
""",
"gumbel hard": """
with tf.GradientTape() as tape:
    soft = tf.nn.softmax(model(x))
    hard = tf.one_hot(tf.argmax(soft, -1), 3)
    out = tf.stop_gradient(hard - soft) + soft
    loss = tf.reduce_sum(out * y1h)
grads = tape.gradient(loss, model.trainable_variables)
""",
"loss numpy for print inside": """
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(model(x) ** 2)
    shown = loss.numpy()
grads = tape.gradient(loss, model.trainable_variables)
print(shown)
""",
"distill": """
with tf.GradientTape() as tape:
    t = teacher(x, training=False)
    s = model(x, training=True)
    loss = tf.reduce_mean(tf.keras.losses.kl_divergence(tf.nn.softmax(t), tf.nn.softmax(s)))
grads = tape.gradient(loss, model.trainable_variables)
""",
"int labels in compiled loss": """
def my_loss(y_true, y_pred):
    labels = tf.cast(y_true, tf.int32)
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, y_pred))
model.compile(optimizer="adam", loss=my_loss)
model.fit(x, y, epochs=1)
""",
"schedule float": """
for step in range(3):
    with tf.GradientTape() as tape:
        factor = float(step) / 100.0
        loss = factor * tf.reduce_sum(model(x))
    grads = tape.gradient(loss, model.trainable_variables)
""",
"sample weights from labels": """
with tf.GradientTape() as tape:
    w = tf.cast(y > 0, tf.float32)
    loss = tf.reduce_sum(w * tf.reduce_sum(model(x), axis=1))
grads = tape.gradient(loss, model.trainable_variables)
""",
"leaky where and clip": """
with tf.GradientTape() as tape:
    p = model(x)
    q = tf.where(p > 0, p, 0.01 * p)
    loss = tf.reduce_sum(tf.clip_by_value(q, -1.0, 1.0))
grads = tape.gradient(loss, model.trainable_variables)
""",
"topk values": """
with tf.GradientTape() as tape:
    top = tf.math.top_k(model(x), k=2)
    loss = tf.reduce_sum(top.values) + tf.reduce_sum(tf.sort(model(x)))
grads = tape.gradient(loss, model.trainable_variables)
""",
"gather by own argmax": """
with tf.GradientTape() as tape:
    p = model(x)
    best = tf.gather(p, tf.argmax(p, 1), batch_dims=1)
    loss = -tf.reduce_mean(best)
grads = tape.gradient(loss, model.trainable_variables)
""",
"stop recording": """
with tf.GradientTape() as tape:
    p = model(x)
    with tape.stop_recording():
        metric = tf.reduce_mean(tf.cast(tf.argmax(p, 1) == tf.cast(y, tf.int64), tf.float32))
    loss = tf.reduce_mean(p ** 2)
grads = tape.gradient(loss, model.trainable_variables)
""",
"filtered sources": """
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(model(x))
grads = tape.gradient(loss, [v for v in model.trainable_variables if "bias" not in v.name])
""",
"sum of losses": """
with tf.GradientTape() as tape:
    losses = []
    for i in range(3):
        losses.append(tf.reduce_mean(model(x) * i))
    loss = tf.add_n(losses) + sum(losses)
grads = tape.gradient(loss, model.trainable_variables)
""",
"np scalar times pred": """
with tf.GradientTape() as tape:
    loss = np.float32(0.5) * tf.reduce_sum(model(x)) + np.sqrt(2.0)
grads = tape.gradient(loss, model.trainable_variables)
""",
"loss class": """
class MyLoss(tf.keras.losses.Loss):
    def call(self, y_true, y_pred):
        return tf.reduce_mean(tf.square(tf.cast(y_true, tf.float32) - y_pred))
model.compile(optimizer="adam", loss=MyLoss())
model.compile(optimizer="adam", loss=lambda yt, yp: tf.reduce_mean(tf.square(yt - yp)))
""",
"minimize variable": """
v = tf.Variable(1.0)
opt2 = tf.keras.optimizers.SGD(0.1)
for _ in range(3):
    opt2.minimize(lambda: (v - 3.0) ** 2, [v])
""",
"minimize with tape": """
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(model(x))
opt.minimize(loss, model.trainable_variables, tape=tape)
""",
"persistent jacobian": """
xs = tf.Variable(tf.ones((2, 4)))
with tf.GradientTape(persistent=True) as tape:
    out = model(xs)
    s = tf.reduce_sum(out)
j = tape.jacobian(out, xs)
g = tape.gradient(s, xs)
g2 = tape.gradient(s, model.trainable_variables)
""",
"tf.function decorated helper": """
@tf.function
def forward(inp):
    return model(inp)
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(forward(x))
grads = tape.gradient(loss, model.trainable_variables)
""",
"custom layer with weights": """
class Scale(tf.keras.layers.Layer):
    def build(self, shape):
        self.s = self.add_weight(shape=(), initializer="ones")
    def call(self, inputs):
        return inputs * self.s
net = tf.keras.Sequential([tf.keras.layers.Input((4,)), Scale(), tf.keras.layers.Dense(1)])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(net(x))
grads = tape.gradient(loss, net.trainable_variables)
""",
"functional model": """
inp = tf.keras.Input((4,))
h = tf.keras.layers.Dense(3)(inp)
out = tf.keras.layers.Dense(1)(h)
fm = tf.keras.Model(inp, out)
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(fm(x))
grads = tape.gradient(loss, fm.trainable_variables)
fm.compile(optimizer="adam", loss="mse")
""",
"wgan clip weights after": """
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(model(x))
grads = tape.gradient(loss, model.trainable_variables)
opt.apply_gradients(zip(grads, model.trainable_variables))
for w in model.trainable_variables:
    w.assign(tf.clip_by_value(w, -0.01, 0.01))
""",
"ema weights in tape read": """
shadow = [tf.Variable(v) for v in model.trainable_variables]
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(model(x))
grads = tape.gradient(loss, model.trainable_variables)
for s, v in zip(shadow, model.trainable_variables):
    s.assign(0.9 * s + 0.1 * v)
""",
"a LoRA layer's scale computed in __init__ from its hyperparameters": """
class LoRA(tf.keras.layers.Layer):
    def __init__(self, base, rank=2, alpha=4.0):
        super().__init__()
        self.base = base; self.rank = rank; self.scale = alpha / rank
    def build(self, input_shape):
        self.a = self.add_weight(shape=(input_shape[-1], self.rank))
        self.b = self.add_weight(shape=(self.rank, 3), initializer="zeros")
    def call(self, inputs):
        return self.base(inputs) + self.scale * (inputs @ self.a) @ self.b
net = tf.keras.Sequential([tf.keras.layers.Input((4,)), LoRA(tf.keras.layers.Dense(3))])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(net(x))
grads = tape.gradient(loss, net.trainable_variables)
""",
"an attention scale from a local of __init__ and the numbers passed to it": """
class Attention(tf.keras.layers.Layer):
    def __init__(self, dim, heads):
        super().__init__()
        head_dim = dim // heads
        self.head_dim = head_dim
        self.scale = head_dim ** -0.5
    def build(self, input_shape):
        self.qkv = self.add_weight(shape=(input_shape[-1], 3 * self.head_dim))
    def call(self, inputs):
        return (inputs @ self.qkv) * self.scale
net = tf.keras.Sequential([tf.keras.layers.Input((4,)), Attention(8, 2)])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(net(x))
grads = tape.gradient(loss, net.trainable_variables)
""",
"hyperparameters of another cell passed to a layer's __init__": """
class Scaled(tf.keras.layers.Layer):
    def __init__(self, units, temperature):
        super().__init__()
        self.units = units; self.temperature = temperature; self.inv = 1.0 / temperature
    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units))
    def call(self, inputs):
        return (inputs @ self.w) * self.inv
net = tf.keras.Sequential([tf.keras.layers.Input((4,)), Scaled(CONFIG["units"], TEMPERATURE)])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(net(x))
grads = tape.gradient(loss, net.trainable_variables)
""",
"sources a dict of the trainable variables, rebuilt each step": """
for step in range(2):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(x))
    sources = {v.path: v for v in model.trainable_variables}
    grads = tape.gradient(loss, sources)
    opt.apply_gradients([(grads[k], sources[k]) for k in sources])
""",
"text made token ids before the Embedding of a compiled Sequential (the RNN tutorial)": """
encoder = keras.layers.TextVectorization(max_tokens=50)
encoder.adapt(np.array(["good movie", "bad film"]))
rnn = keras.Sequential([encoder, keras.layers.Embedding(50, 8, mask_zero=True),
                        keras.layers.Bidirectional(keras.layers.LSTM(8)), keras.layers.Dense(1)])
rnn.compile(loss=keras.losses.BinaryCrossentropy(from_logits=True), optimizer="adam")
""",
"string lookup to ids in a Sequential trained in a tape": """
lookup = keras.layers.StringLookup(vocabulary=["a", "b"])
clf = keras.Sequential([lookup, keras.layers.Embedding(4, 8),
                        keras.layers.GlobalAveragePooling1D(), keras.layers.Dense(1)])
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(clf(tf.constant([["a", "b"]])))
grads = tape.gradient(loss, clf.trainable_variables)
""",
"integer ids reshaped before the Embedding of a functional model": """
ids = keras.Input(shape=(None,), dtype="int32")
vectors = keras.layers.Embedding(100, 8)(keras.layers.Reshape((-1,))(ids))
out = keras.layers.Dense(1)(keras.layers.GlobalAveragePooling1D()(vectors))
keras.Model(ids, out).compile(optimizer="adam", loss="mse")
""",
}


@pytest.mark.parametrize("name", sorted(GOOD))
def test_no_hint_on_correct_code(name: str) -> None:
    found = check_source(HEAD + textwrap.dedent(GOOD[name]))
    assert [(h.code, h.line) for h in found] == []


def test_the_same_programs_broken_are_hinted() -> None:
    broken = GOOD["distill"].replace("s = model(x, training=True)",
                                     "s = tf.constant(model(x).numpy())")
    assert [h.code for h in check_source(HEAD + textwrap.dedent(broken))] == ["TM301"]
    broken = GOOD["functional model"].replace(
        "h = tf.keras.layers.Dense(3)(inp)",
        "h = tf.keras.layers.Lambda(tf.round)(tf.keras.layers.Dense(3)(inp))")
    assert {h.code for h in check_source(HEAD + textwrap.dedent(broken))} == {"TM201"}
    broken = GOOD["loss class"].replace("tf.reduce_mean(tf.square(tf.cast(y_true, tf.float32)"
                                        " - y_pred))", "tf.reduce_mean(np.square(y_pred))")
    assert [h.code for h in check_source(HEAD + textwrap.dedent(broken))] == ["TM301"]


@pytest.mark.parametrize("name", sorted(GOOD))
def test_no_hint_on_the_cell_alone(name: str) -> None:
    # the editor checks one cell; HEAD (imports, models) would be in an earlier cell
    assert check_source(textwrap.dedent(GOOD[name])) == []


PINN = """
@tf.function
def step(x_col):
    with tf.GradientTape() as tape:
        with tf.GradientTape() as inner:
            u = model(x_col)
        u_x = inner.gradient(u, x_col)
        loss = tf.reduce_mean(tf.square(u_x - tf.cos(x_col)))
    return tape.gradient(loss, model.trainable_variables)


x_col = tf.constant(np.linspace(-3, 3, 8)[:, None], tf.float32)
step(x_col)
"""


def test_one_hint_per_unwatched_tensor_a_function_got_as_its_argument() -> None:
    # the constant made by the caller is data, not the line to change: the watch at the tape
    found = check_source(HEAD + textwrap.dedent(PINN))
    tape_line = (HEAD + PINN).splitlines().index(
        "        with tf.GradientTape() as inner:") + 1
    assert [(h.code, h.line) for h in found] == [("TM102", tape_line)]


def test_a_constant_made_next_to_its_tape_is_still_the_other_end() -> None:
    # the same unwatched constant made in the tape's own scope could be a tf.Variable there
    source = HEAD + textwrap.dedent("""
        w = tf.constant([[1.0], [2.0], [3.0], [4.0]])
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.matmul(x, w))
        g = tape.gradient(loss, w)
        """)
    lines = source.splitlines()
    assert [(h.code, h.line) for h in check_source(source)] == [
        ("TM102", lines.index("w = tf.constant([[1.0], [2.0], [3.0], [4.0]])") + 1),
        ("TM102", lines.index("with tf.GradientTape() as tape:") + 1)]
