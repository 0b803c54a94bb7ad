# source: https://github.com/salesforce/ml4ir/pull/115
# summary: a Lambda divides the logits by a global temperature tf.Variable; fit trains the classifier with the temperature fixed, then a calibration step trains the temperature alone (temperature scaling): a later step of the run trains it
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(115)

rng = np.random.default_rng(115)
x = rng.normal(size=(96, 6)).astype("float32")
labels = ((x[:, 0] - x[:, 3] > 0).astype("int32") + (x[:, 1] > 0.8).astype("int32"))

temperature = tf.Variable(1.5, name="temperature")
inputs = tf.keras.Input((6,))
logits = tf.keras.layers.Dense(3, name="logits")(tf.keras.layers.Dense(8, activation="relu", name="hidden")(inputs))
scaled = tf.keras.layers.Lambda(lambda t: t / temperature, name="temper")(logits)
model = tf.keras.Model(inputs, scaled, name="classifier")
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
model.compile(optimizer=tf.keras.optimizers.Adam(2e-2), loss=loss_fn)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, labels, epochs=2, batch_size=32, verbose=0)

calibrator = tf.keras.optimizers.SGD(0.1)
start = float(temperature.numpy())
for _ in range(3):
    with tf.GradientTape() as tape:
        nll = loss_fn(labels, model(x))
    (grad,) = tape.gradient(nll, [temperature])
    calibrator.apply_gradients([(grad, temperature)])
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
assert float(temperature.numpy()) != start
