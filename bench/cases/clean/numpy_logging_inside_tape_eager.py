# source: https://www.tensorflow.org/guide/autodiff
# summary: an eager custom loop that logs inside the tape: the loss value appended to a history list with .numpy(), printed with float(), a NumPy mean of the history for the progress line; the loss tensor itself goes to tape.gradient
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(1)])
opt = keras.optimizers.SGD(0.05)
x = tf.constant(np.random.default_rng(60).normal(size=(16, 4)), tf.float32)
y = tf.constant(np.random.default_rng(61).normal(size=(16, 1)), tf.float32)
history = []
for step in range(3):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
        history.append(loss.numpy())
        print(f"step {step}: loss {float(loss):.4f}, running mean {np.mean(history):.4f}")
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
