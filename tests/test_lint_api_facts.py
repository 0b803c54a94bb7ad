"""Facts of TensorFlow's and Keras' own code the static checker reads (issue 33, s. 6).

TF-free: sources are parsed, never run. ``tf.cond``'s predicate gets no gradient (the ``If``
op has none for its condition); Keras 3's Dropout at rate 1.0 returns ``zeros_like`` of its
input in training (its TensorFlow backend's ``random.dropout``); a functional model casts what
it is given to its ``keras.Input``'s dtype, so an integer Input takes no gradient; an API that
wraps a parameter in ``stop_gradient`` (the op catalog's ``stopped`` section, followed into
TensorFlow's source: ``tf.compat.v1.nn.softmax_cross_entropy_with_logits``' labels,
``tf.nn.moments``' shift); ``stateless_call`` runs the model on the values given, which
a tape records only once watched; a loss of discrete samples (an integer draw of
``tf.random``) with no log-probability of them is hinted where the loss is made; a loss
given to ``compile`` that reads ``y_true`` and never ``y_pred`` (Keras calls it
``loss(y_true, y_pred)``) reaches no weight; a
hand-written ``train_step`` must add ``self.losses`` (what layers ``add_loss``), as Keras'
``compute_loss`` does. Each has
correct look-alikes that stay silent.
"""

from __future__ import annotations

import pytest
from lint_snippets import hints

BAD: dict[str, tuple[str, list[tuple[str, int]]]] = {}
GOOD: dict[str, str] = {}

# -- tf.cond on a learned predicate --------------------------------------------------------------
COND = """
trunk = keras.layers.Dense(4)
gate = keras.layers.Dense(1)
head_a = keras.layers.Dense(2)
head_b = keras.layers.Dense(2)
layers = [trunk, gate, head_a, head_b]
@tf.function
def step(batch):
    with tf.GradientTape() as tape:
        h = trunk(batch)
        score = tf.reduce_mean(gate(h))
        out = tf.cond({pred}, lambda: head_a(h), lambda: head_b(h))
        loss = tf.reduce_mean(out){extra}
    sources = [v for layer in layers for v in layer.trainable_variables]
    return tape.gradient(loss, sources)
step(x)
"""
BAD["tf.cond on a learned confidence"] = (
    COND.format(pred="score > 0.5", extra=""), [("TM201", 11)])
BAD["tf.cond on a learned boolean"] = (
    COND.format(pred="tf.reduce_any(gate(h) > 0.0)", extra=""), [("TM201", 11), ("TM202", 11)])
GOOD["tf.cond on a data value"] = COND.format(pred="tf.reduce_mean(batch) > 0.5", extra="")
GOOD["tf.cond on a learned value that also enters the loss"] = COND.format(
    pred="score > 0.5", extra=" + score")

# -- a Dropout that drops everything -------------------------------------------------------------
DROP = """
keep_prob = {keep}
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, name="conv"),
                          keras.layers.Dropout({rate}), keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse")
model.fit(x, y)
"""
BAD["Dropout given a keep probability of 1.0"] = (
    DROP.format(keep="1.0", rate="keep_prob"), [("TM104", 3)])
BAD["Dropout(rate=1)"] = (DROP.format(keep="0.5", rate="rate=1"), [("TM104", 3)])
BAD["SpatialDropout1D at 1 - 0.0"] = (
    DROP.format(keep="0.0", rate="1 - keep_prob").replace("Dropout", "SpatialDropout1D"),
    [("TM104", 3)])
GOOD["Dropout given 1 - keep probability"] = DROP.format(keep="1.0", rate="1.0 - keep_prob")
GOOD["Dropout(0.5)"] = DROP.format(keep="1.0", rate="0.5")
GOOD["Dropout rate from a name bound twice"] = DROP.format(
    keep="1.0\nkeep_prob = 0.2", rate="keep_prob")

# -- an integer keras.Input fed learned values ---------------------------------------------------
STAGES = """
estimator = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
units = keras.Input((1,), dtype={dtype})
pricing = keras.Model(units, keras.layers.Dense(1)(keras.ops.cast(units, "float32")))
inp = keras.Input((3,))
model = keras.Model(inp, pricing({fed}))
model.compile(optimizer="adam", loss="mse")
model.fit(x, y)
"""
BAD["int32 Input fed a learned estimate"] = (
    STAGES.format(dtype='"int32"', fed="estimator(inp)"), [("TM202", 2)])
BAD["tf.int64 Input fed a learned estimate"] = (
    STAGES.format(dtype="tf.int64", fed="estimator(inp)"), [("TM202", 2)])
GOOD["float32 Input fed a learned estimate"] = STAGES.format(dtype='"float32"',
                                                             fed="estimator(inp)")
GOOD["int32 Input fed data"] = STAGES.format(dtype='"int32"', fed="inp[:, :1]")
GOOD["int ids beside a float input fed a learned estimate"] = """
estimator = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
ids = keras.Input((1,), dtype="int32")
value = keras.Input((1,))
joined = keras.layers.Concatenate()([keras.layers.Flatten()(keras.layers.Embedding(5, 2)(ids)),
                                     value])
pricing = keras.Model([ids, value], keras.layers.Dense(1)(joined))
inp = keras.Input((3,))
model = keras.Model(inp, pricing([keras.ops.cast(inp[:, :1], "int32"), estimator(inp)]))
model.compile(optimizer="adam", loss="mse")
model.fit(x, y)
"""

# -- an input an API wraps in stop_gradient ------------------------------------------------------
XENT = """
classifier = keras.layers.Dense(4)
table = keras.layers.Embedding(4, 4)
labels = tf.constant([0, 1, 2, 3, 0, 1, 2, 3])
@tf.function
def step(batch):
    with tf.GradientTape() as tape:
        logits = classifier(batch)
        soft = tf.nn.softmax(table(labels))
        loss = tf.reduce_mean({xent}(labels={labels}, logits=logits))
    sources = classifier.trainable_variables + table.trainable_variables
    return tape.gradient(loss, sources)
step(x)
"""
BAD["v1 softmax cross-entropy on learned soft targets"] = (
    XENT.format(xent="tf.compat.v1.nn.softmax_cross_entropy_with_logits", labels="soft"),
    [("TM401", 9)])
BAD["v1 losses.softmax_cross_entropy on learned targets"] = (
    XENT.format(xent="tf.compat.v1.losses.softmax_cross_entropy",
                labels="soft").replace("labels=soft", "onehot_labels=soft"), [("TM401", 9)])
GOOD["v2 softmax cross-entropy on learned soft targets"] = XENT.format(
    xent="tf.nn.softmax_cross_entropy_with_logits", labels="soft")
GOOD["v1 softmax cross-entropy on data labels"] = XENT.format(
    xent="tf.compat.v1.nn.softmax_cross_entropy_with_logits",
    labels="tf.one_hot(labels, 4)").replace(" + table.trainable_variables", "")

# -- Keras 3's stateless_call: the values given, not the model's variables -----------------------
STATELESS = """
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4), keras.layers.Dense(1)])
values = [tf.convert_to_tensor(v) for v in model.trainable_variables]
@tf.function
def step(trainable, batch, target):
    with tf.GradientTape() as tape:
        {watch}pred, _ = model.stateless_call({given}, [], batch)
        loss = tf.reduce_mean(tf.square(pred - target))
    return tape.gradient(loss, {sources})
step(values, x, y)
"""
BAD["stateless_call on unwatched value tensors"] = (
    STATELESS.format(watch="", given="trainable", sources="trainable"), [("TM102", 5)])
GOOD["stateless_call on watched value tensors"] = STATELESS.format(
    watch="tape.watch(trainable)\n        ", given="trainable", sources="trainable")
GOOD["stateless_call on the model's own variables"] = STATELESS.format(
    watch="", given="model.trainable_variables", sources="model.trainable_variables")

# -- sampled actions in a loss with no log-probability -------------------------------------------
POLICY = """
policy = keras.Sequential([keras.Input((3,)), keras.layers.Dense(3)])
best = tf.constant([0, 1, 2, 0, 1, 2, 0, 1], tf.int64)
@tf.function
def step(states):
    with tf.GradientTape() as tape:
        logits = policy(states)
        actions = {draw}
        reward = tf.cast(tf.equal(actions, best), tf.float32)
        loss = {loss}
    return tape.gradient(loss, policy.trainable_variables)
step(x)
"""
CATEGORICAL = "tf.random.categorical(logits, 1)[:, 0]"
BAD["a policy loss of one-hot sampled actions"] = (POLICY.format(
    draw=CATEGORICAL, loss="-tf.reduce_mean(tf.reduce_sum(tf.one_hot(actions, 3), 1) * reward)"),
    [("TM201", 7), ("TM201", 9)])
BAD["a reward of stateless_categorical actions"] = (POLICY.format(
    draw="tf.random.stateless_categorical(logits, 1, seed=[1, 2])[:, 0]",
    loss="-tf.reduce_mean(reward)"),
    [("TM201", 7), ("TM201", 9)])
GOOD["REINFORCE: the log-probability of the sampled actions"] = POLICY.format(
    draw=CATEGORICAL, loss="-tf.reduce_mean(tf.reduce_sum(tf.one_hot(actions, 3) * "
                           "tf.nn.log_softmax(logits), 1) * reward)")
GOOD["REINFORCE with sparse cross-entropy of the sampled actions"] = POLICY.format(
    draw=CATEGORICAL, loss="tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits("
                           "labels=actions, logits=logits) * reward)")
BAD["a float Poisson draw regressed: the draw is the cut"] = (POLICY.format(
    draw="tf.random.poisson([], tf.exp(logits))", loss="tf.reduce_mean(tf.square(actions))"),
    [("TM201", 7)])

# -- a compiled loss that never reads y_pred -----------------------------------------------------
COMPILED = """
def steps(y_true, y_pred):
{body}
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
model.compile(optimizer="adam", loss={loss})
model.fit(x, y)
"""
COPIED = """    true_steps = y_true[:, 1:] - y_true[:, :-1]
    pred_steps = y_true[:, 1:] - y_true[:, :-1]
    return tf.reduce_mean(tf.square(pred_steps - true_steps))"""
BAD["a compiled loss whose prediction line copies the target's"] = (
    COMPILED.format(body=COPIED, loss="steps"), [("TM104", 3)])
BAD["a compiled loss of y_true only, in a dict of losses"] = (COMPILED.format(
    body="    return tf.reduce_mean(tf.square(y_true))", loss='{"dense": steps}'),
    [("TM104", 1)])
GOOD["a compiled loss reading both"] = COMPILED.format(
    body=COPIED.replace("pred_steps = y_true[:, 1:] - y_true",
                        "pred_steps = y_pred[:, 1:] - y_pred"),
    loss="steps")
GOOD["a zero placeholder loss beside add_loss"] = COMPILED.format(
    body="    return 0.0", loss="steps")
GOOD["a y_true-only function used as a metric"] = COMPILED.format(
    body="    return tf.reduce_mean(y_true)", loss='"mse", metrics=[steps]')

# -- a hand-written train_step that leaves out the layers' add_loss ------------------------------
SIDE = """
class Side(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.aux = keras.layers.Dense(1)
    def call(self, h):
        self.add_loss(0.1 * keras.ops.mean(keras.ops.square(self.aux(h))))
        return h
class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.trunk = keras.layers.Dense(4)
        self.side = Side()
        self.head = keras.layers.Dense(1)
    def call(self, inputs):
        return self.head(self.side(self.trunk(inputs)))
    def train_step(self, data):
        features, targets = data
        with tf.GradientTape() as tape:
            pred = self(features, training=True)
            loss = {loss}
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {{"loss": loss}}
model = Net()
model.compile(optimizer="adam", loss="mse")
model.fit(x, y)
"""
BAD["train_step's loss without self.losses"] = (
    SIDE.format(loss="tf.reduce_mean(tf.square(pred - targets))"), [("TM104", 20)])
GOOD["train_step's loss adds self.losses"] = SIDE.format(
    loss="tf.reduce_mean(tf.square(pred - targets)) + tf.add_n(self.losses)")
GOOD["train_step's loss from compute_loss"] = SIDE.format(
    loss="self.compute_loss(x=features, y=targets, y_pred=pred)")
GOOD["Keras' own train step"] = SIDE.format(loss="0.0").split("    def train_step")[0] + """
model = Net()
model.compile(optimizer="adam", loss="mse")
model.fit(x, y)
"""


@pytest.mark.parametrize("name", sorted(BAD))
def test_hinted_at_the_line_to_change(name: str) -> None:
    body, expected = BAD[name]
    assert hints(body) == expected


@pytest.mark.parametrize("name", sorted(GOOD))
def test_the_correct_look_alike_gets_no_hint(name: str) -> None:
    assert hints(GOOD[name]) == []
