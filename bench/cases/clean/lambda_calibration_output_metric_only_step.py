# source: https://github.com/tensorflow/tensorflow/issues/36827
# summary: a second model output divides the logits by a global calibration tf.Variable in a Lambda; the step's loss uses the first output only and the second feeds a metric, so the variable is read in the tape but is on no loss path
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(36)

rng = np.random.default_rng(36827)
x = rng.normal(size=(80, 5)).astype("float32")
labels = (x[:, 0] + 0.5 * x[:, 4] > 0).astype("int32")

calibration = tf.Variable(2.0, name="calibration")
inputs = tf.keras.Input((5,))
logits = tf.keras.layers.Dense(2, name="logits")(tf.keras.layers.Dense(6, activation="relu", name="hidden")(inputs))
calibrated = tf.keras.layers.Lambda(lambda t: t / calibration, name="calibrated")(logits)
model = tf.keras.Model(inputs, [logits, calibrated], name="two_heads")
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
confidence = tf.keras.metrics.Mean(name="confidence")
optimizer = tf.keras.optimizers.Adam(2e-2)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        main, shown = model(features)
        loss = loss_fn(targets, main)
    confidence.update_state(tf.reduce_max(tf.nn.softmax(shown), axis=-1))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return grads


for _ in range(3):
    grads = train_step(x, labels)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
