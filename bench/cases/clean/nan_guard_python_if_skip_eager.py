# summary: an eager custom loop that guards against a non-finite loss with a Python if on tf.math.is_finite(loss) (skipping the update), and logs loss.numpy() after the tape
# source: https://www.tensorflow.org/guide/keras/writing_a_training_loop_from_scratch
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(49)
rng = np.random.default_rng(49)
x = rng.normal(size=(32, 5)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")
model = keras.Sequential([keras.Input((5,)), layers.Dense(8, activation="relu", name="h"),
                          layers.Dense(1, name="out")])
opt = keras.optimizers.Adam(1e-3)
history = []
for i in range(0, 32, 16):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x[i:i + 16]) - y[i:i + 16]))
    if not bool(tf.math.is_finite(loss)):
        print("skipping a non-finite batch")
        continue
    grads = tape.gradient(loss, model.trainable_weights)
    opt.apply_gradients(zip(grads, model.trainable_weights))
    history.append(float(loss.numpy()))
print(history)
assert all(g is not None and float(tf.norm(g)) > 0 for g in grads)
