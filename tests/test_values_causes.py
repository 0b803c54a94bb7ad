"""Zeros by value with their causes and lines (issue 33, 4.).

- A weight whose input activations are the all-zero output of a dead op (a fake-quant that
  clamps every element to a floor of 0, a dead ReLU) belongs to that op's finding (TM501), not
  to a TM118 of its own.
- A dead ReLU whose layer the user initialised to one value (a negative constant bias) is
  reported at that initialiser argument.
- A quantiser whose registered gradient fills its range inputs' gradients with zeros
  (``quantize_and_dequantize_v2``) is named at its line (TM201), not "did not change" (TM118).
- A Python 0.0 frozen into ``fit``'s traced ``train_step`` that drops a loss term while every
  weight still trains through the others (TM504); silent when the factor is never changed or
  is a ``tf.Variable``.

Each program runs through ``tapemagic.gradcheck`` as written (graph mode unless it is eager
code); correct code of the same shapes gets no warning or error finding.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from checked import line_of, loud, run_program

pytestmark = pytest.mark.tf


def check(tmp_path: Path, source: str):  # type: ignore[no-untyped-def]
    done = run_program(tmp_path, source, name="prog.py",
                       prefix="import keras\nimport numpy as np\nimport tensorflow as tf\n"
                              "keras.utils.set_random_seed(0)\n")
    return done.report, done.path


def of(report, code: str) -> list[tuple[int, tuple[str, ...]]]:  # type: ignore[no-untyped-def]
    return [(f.location.line if f.location else 0, f.variables)
            for f in report.findings if f.rule == code]


FAKE_QUANT = """
rng = np.random.default_rng(1)
x = tf.constant(rng.uniform(0.0, 1.0, size=(16, 4)).astype("float32"))
y = tf.constant(rng.normal(size=(16, 2)).astype("float32"))
encoder = tf.keras.layers.Dense(5, bias_initializer=tf.keras.initializers.Constant(BIAS),
                                name="encoder")
head = tf.keras.layers.Dense(2, name="head")
lo = tf.Variable(0.0, trainable=False)
hi = tf.Variable(6.0, trainable=False)
opt = tf.keras.optimizers.SGD(0.05)
for step in range(2):
    with tf.GradientTape() as tape:
        q = tf.quantization.fake_quant_with_min_max_vars(encoder(x), lo, hi)  # the clamp
        loss = tf.reduce_mean(tf.square(head(q) - y))
    weights = encoder.trainable_variables + head.trainable_variables
    grads = tape.gradient(loss, weights)
    opt.apply_gradients(zip(grads, weights))
"""


def test_a_weight_reading_a_dead_ops_zeros_is_named_in_its_finding(tmp_path: Path) -> None:
    report, path = check(tmp_path, FAKE_QUANT.replace("BIAS", "-9.0"))
    found = of(report, "TM501")
    assert [n for n, _ in found] == [line_of(path, "# the clamp")]
    assert set(found[0][1]) == {"encoder/kernel", "encoder/bias", "head/kernel"}
    assert "its output is all zero" in report.findings[0].message
    assert not of(report, "TM118")  # folded: a note beside the cut, no finding of its own


def test_a_fake_quant_inside_its_range_stays_silent(tmp_path: Path) -> None:
    report, _ = check(tmp_path, FAKE_QUANT.replace("BIAS", "0.5"))
    assert loud(report) == []


DEAD_INIT = """
rng = np.random.default_rng(2)
x = rng.uniform(0.0, 1.0, size=(64, 5)).astype("float32")
y = rng.normal(size=(64, 1)).astype("float32")
model = keras.Sequential([
    keras.Input((5,)),
    keras.layers.Dense(6, activation="relu", name="gate",
                       bias_initializer=keras.initializers.Constant(BIAS)),  # the init
    keras.layers.Dense(1, name="out"),
], name="net")
model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
"""


def test_a_dead_relu_from_a_constant_bias_is_reported_at_the_initializer(
        tmp_path: Path) -> None:
    report, path = check(tmp_path, DEAD_INIT.replace("BIAS", "-10.0"))
    found = of(report, "TM501")
    assert [n for n, _ in found] == [line_of(path, "# the init")]
    assert {"net/gate/kernel", "net/gate/bias", "net/out/kernel"} <= set(found[0][1])
    assert f"layer at line {line_of(path, 'keras.layers.Dense(6')}" in report.findings[0].message


def test_a_small_negative_constant_bias_that_leaves_units_alive_is_silent(
        tmp_path: Path) -> None:
    report, _ = check(tmp_path, DEAD_INIT.replace("BIAS", "-0.05").replace(
        'name="gate",', 'name="gate", kernel_initializer="he_normal",'))
    assert loud(report) == []


QDQ = """
rng = np.random.default_rng(3)
x = rng.normal(size=(64, 4)).astype("float32")
y = rng.normal(size=(64, 1)).astype("float32")
pre = tf.keras.layers.Dense(6, name="pre")
post = tf.keras.layers.Dense(1, name="post")
lo = tf.Variable(-0.5, trainable=TRAINABLE, name="lo")
hi = tf.Variable(0.5, trainable=TRAINABLE, name="hi")
pre.build((None, 4))
post.build((None, 6))
opt = tf.keras.optimizers.Adam(1e-2)
sources = pre.trainable_variables + post.trainable_variables + SOURCES


@tf.function
def step(features, targets):
    with tf.GradientTape() as tape:
        hq = tf.quantization.quantize_and_dequantize_v2(pre(features), lo, hi, num_bits=4,  # q
                                                        range_given=True)
        loss = tf.reduce_mean(tf.square(post(hq) - targets))
    grads = tape.gradient(loss, sources)
    opt.apply_gradients(zip(grads, sources))


for _ in range(3):
    step(x, y)
"""


def test_a_quantisers_zero_range_gradient_is_named_at_the_op(tmp_path: Path) -> None:
    report, path = check(tmp_path, QDQ.replace("TRAINABLE", "True").replace(
        "SOURCES", "[lo, hi]"))
    found = of(report, "TM201")
    assert found == [(line_of(path, "# q"), ("lo", "hi"))]
    assert "`input_min`, `input_max` exact zeros" in report.findings[0].message
    assert not of(report, "TM118")


def test_a_quantiser_over_a_fixed_range_is_silent(tmp_path: Path) -> None:
    report, _ = check(tmp_path, QDQ.replace("TRAINABLE", "False").replace("SOURCES", "[]"))
    assert loud(report) == []


ANNEALED = """
rng = np.random.default_rng(4)
data = rng.random((48, 6)).astype("float32")


class Vae(keras.Model):
    def __init__(self):
        super().__init__(name="vae")
        self.enc = keras.layers.Dense(4, name="enc")
        self.dec = keras.layers.Dense(6, name="dec")
        self.beta = BETA

    def call(self, x):
        mean, log_var = tf.split(self.enc(x), 2, axis=-1)
        z = mean + tf.exp(0.5 * log_var) * tf.random.normal(tf.shape(mean), seed=1)
        return self.dec(z), mean, log_var

    def train_step(self, batch):
        with tf.GradientTape() as tape:
            recon, mean, log_var = self(batch, training=True)
            kl = -0.5 * tf.reduce_mean(1.0 + log_var - tf.square(mean) - tf.exp(log_var))
            loss = tf.reduce_mean(tf.square(recon - batch)) + self.beta * kl  # the term
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss}


class Ramp(keras.callbacks.Callback):
    def on_epoch_begin(self, epoch, logs=None):
        RAMP


model = Vae()
model.compile(optimizer=keras.optimizers.Adam(1e-2))
model.fit(data, epochs=2, batch_size=16, verbose=0, callbacks=[Ramp()])
"""


def test_a_frozen_python_zero_that_drops_a_term_under_fit_is_found(tmp_path: Path) -> None:
    report, path = check(tmp_path, ANNEALED.replace("BETA", "0.0").replace(
        "RAMP", "self.model.beta = epoch / 2"))
    found = of(report, "TM504")
    assert [n for n, _ in found] == [line_of(path, "# the term")]
    assert {"vae/enc/kernel", "vae/enc/bias"} <= set(found[0][1])
    assert "get nothing from the term it multiplies" in report.findings[0].message


@pytest.mark.parametrize("beta, ramp", [
    ("0.0", "pass"),  # never changed: the code means the zero
    ("tf.Variable(0.0, trainable=False)", "self.model.beta.assign(epoch / 2)"),
], ids=["never-changed", "variable"])
def test_a_python_zero_never_changed_or_a_variable_is_silent(tmp_path: Path, beta: str,
                                                             ramp: str) -> None:
    report, _ = check(tmp_path, ANNEALED.replace("BETA", beta).replace("RAMP", ramp))
    assert loud(report) == []


UNDERFLOW = """
keras.mixed_precision.set_global_policy("mixed_float16")  # the policy
try:
    rng = np.random.default_rng(6)
    x = rng.normal(size=(64, 8)).astype("float32")
    y = rng.normal(size=(64, 1)).astype("float32")

    class Net(keras.Model):
        def __init__(self):
            super().__init__(name="net")
            self.h = keras.layers.Dense(16, activation="tanh", name="h")
            self.o = keras.layers.Dense(1, name="o")

        def call(self, x):
            return self.o(self.h(x))

        def train_step(self, data):
            features, labels = data
            with tf.GradientTape() as tape:
                pred = tf.cast(self(features, training=True), tf.float32)
                loss = SCALE * tf.reduce_mean(tf.square(pred - labels))
            grads = tape.gradient(loss, self.trainable_variables)  # the call
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            return {"loss": loss}

    model = Net()
    model.compile(optimizer=keras.optimizers.SGD(0.1))
    model.fit(x, y, epochs=2, batch_size=32, verbose=0)
finally:
    keras.mixed_precision.set_global_policy("float32")
"""


def test_float16_underflow_under_fit_names_every_weight_and_the_policy_line(
        tmp_path: Path) -> None:
    report, path = check(tmp_path, UNDERFLOW.replace("SCALE", "1e-8"))
    (finding,) = [f for f in report.findings if f.severity != "info"]
    assert finding.rule == "TM503" and finding.location is not None
    assert finding.location.line == line_of(path, "# the call")
    assert set(finding.variables) == {"net/h/kernel", "net/h/bias", "net/o/kernel", "net/o/bias"}
    assert f"policy set at line {line_of(path, '# the policy')}" in finding.message
    healthy, _ = check(tmp_path, UNDERFLOW.replace("SCALE", "1.0"))
    assert loud(healthy) == []


def test_a_python_zero_passed_as_an_argument_is_retraced_and_silent(tmp_path: Path) -> None:
    # a Python float argument makes TensorFlow trace the step again for each new value: the
    # 0.0 of the first trace is not frozen
    report, _ = check(tmp_path, """
rng = np.random.default_rng(5)
data = rng.random((32, 6)).astype("float32")
enc = keras.layers.Dense(4, name="enc")
dec = keras.layers.Dense(6, name="dec")
enc.build((None, 6))
dec.build((None, 2))
opt = keras.optimizers.Adam(1e-2)
weights = enc.trainable_variables + dec.trainable_variables


@tf.function
def step(batch, beta):
    with tf.GradientTape() as tape:
        mean, log_var = tf.split(enc(batch), 2, axis=-1)
        kl = -0.5 * tf.reduce_mean(1.0 + log_var - tf.square(mean) - tf.exp(log_var))
        loss = tf.reduce_mean(tf.square(dec(mean + tf.exp(log_var)) - batch)) + beta * kl
    grads = tape.gradient(loss, weights)
    opt.apply_gradients(zip(grads, weights))


for epoch in range(3):
    beta = epoch / 2
    step(data, beta)
""")
    assert loud(report) == []


def test_a_dead_op_on_the_data_names_the_weights_reading_its_zeros(tmp_path: Path) -> None:
    report, path = check(tmp_path, """
x = tf.constant(-np.random.default_rng(6).uniform(1.0, 2.0, size=(16, 3)).astype("float32"))
y = tf.constant(np.random.default_rng(7).normal(size=(16, 1)).astype("float32"))
head = tf.keras.layers.Dense(1, name="head")
opt = tf.keras.optimizers.SGD(0.05)
for _ in range(2):
    with tf.GradientTape() as tape:
        q = tf.quantization.fake_quant_with_min_max_args(x, min=0.0, max=6.0)  # the clamp
        loss = tf.reduce_mean(tf.square(head(q) - y))
    grads = tape.gradient(loss, head.trainable_variables)
    opt.apply_gradients(zip(grads, head.trainable_variables))
""")
    assert of(report, "TM501") == [(line_of(path, "# the clamp"), ("head/kernel",))]
    assert not of(report, "TM118")


CONV_BN = """
rng = np.random.default_rng(7)
images = rng.normal(size=(32, 8, 8, 3)).astype("float32")
labels = rng.integers(0, 4, size=(32,))
model = keras.Sequential([
    keras.Input((8, 8, 3)),
    keras.layers.Conv2D(6, 3, padding="same", USE_BIAS name="conv"),  # the conv
    keras.layers.BatchNormalization(name="bn"),
    keras.layers.Activation("relu"),
    keras.layers.GlobalAveragePooling2D(),
    keras.layers.Dense(4, name="logits"),
], name="stem")
model.compile(optimizer=keras.optimizers.SGD(0.05),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
model.fit(images, labels, epochs=1, batch_size=16, verbose=0)
"""


def test_a_convolution_bias_before_batchnorm_under_fit_is_explained(tmp_path: Path) -> None:
    # Keras 3's Conv2D adds its bias reshaped to (1, 1, 1, C): still the bias the
    # normalisation's batch mean cancels (information)
    report, path = check(tmp_path, CONV_BN.replace("USE_BIAS", ""))
    assert [(f.rule, f.severity, f.location.line if f.location else 0, f.variables)
            for f in report.findings] == [
        ("TM506", "info", line_of(path, "# the conv"), ("stem/conv/bias",))]
    clean, _ = check(tmp_path, CONV_BN.replace("USE_BIAS", "use_bias=False,"))
    assert clean.findings == ()
