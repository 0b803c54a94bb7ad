# summary: a custom training loop under @tf.function that updates SparseCategoricalAccuracy and a running mean of the loss inside the step
# source: https://keras.io/guides/writing_a_training_loop_from_scratch/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(2)
rng = np.random.default_rng(2)
x = rng.normal(size=(64, 20)).astype("float32")
y = rng.integers(0, 5, size=(64,)).astype("int32")
model = keras.Sequential([keras.Input((20,)), layers.Dense(16, activation="relu", name="h"),
                          layers.Dense(5, name="logits")])
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
opt = keras.optimizers.Adam(1e-3)
acc = keras.metrics.SparseCategoricalAccuracy()
mean_loss = keras.metrics.Mean()
ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(16)


@tf.function
def train_step(xb, yb):
    with tf.GradientTape() as tape:
        logits = model(xb, training=True)
        loss = loss_fn(yb, logits)
    grads = tape.gradient(loss, model.trainable_weights)
    opt.apply_gradients(zip(grads, model.trainable_weights))
    acc.update_state(yb, logits)
    mean_loss.update_state(loss)
    return grads


for xb, yb in ds:
    grads = train_step(xb, yb)
print("acc", float(acc.result()), "loss", float(mean_loss.result()))
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
