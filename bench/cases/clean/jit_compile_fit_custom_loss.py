# source: https://github.com/huggingface/transformers/pull/21177
# summary: compile(jit_compile=True) and fit with a custom Huber-like loss built from tf.where on the error's size
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(21177)
x = rng.normal(size=(64, 5)).astype("float32")
y = (x @ rng.normal(size=(5, 1)) + 0.1).astype("float32")


def smooth_l1(y_true, y_pred):
    err = tf.abs(y_true - y_pred)
    return tf.reduce_mean(tf.where(err < 1.0, 0.5 * tf.square(err), err - 0.5))


model = tf.keras.Sequential([tf.keras.layers.Input((5,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(1, name="out")], name="xla_reg")
model.compile(optimizer="adam", loss=smooth_l1, jit_compile=True)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
