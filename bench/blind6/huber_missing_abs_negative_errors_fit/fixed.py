# summary: the linear branch is selected by |e| > delta, so large negative errors get the linear penalty and every weight changes
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(47)
obs = rng.normal(size=(64, 6)).astype("float32")
returns = (-15.0 + obs[:, :1] * 0.5).astype("float32")


def huber(y_true, y_pred, delta=10.0):
    e = y_true - y_pred
    a = tf.cast(tf.abs(e) <= delta, tf.float32)
    b = tf.cast(tf.abs(e) > delta, tf.float32)
    return tf.reduce_mean(a * tf.square(e) / 2.0 + b * delta * (tf.abs(e) - delta / 2.0))


model = keras.Sequential([keras.Input((6,)),
                          keras.layers.Dense(16, activation="tanh", name="value_hidden"),
                          keras.layers.Dense(1, name="value_out")], name="value_net")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss=huber)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(obs, returns, epochs=2, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)}
assert len(changed) == 4 and all(changed.values()), changed
