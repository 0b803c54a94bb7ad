# source: https://github.com/marlbenchmark/on-policy/issues/47
# cause: zero-at-runtime
# weights: value_net/value_hidden/kernel, value_net/value_hidden/bias, value_net/value_out/kernel, value_net/value_out/bias
# mode: fit
# summary: a value network is fitted with a hand-written Huber loss whose linear branch is selected by (e > delta) instead of (|e| > delta); the returns are costs (all well below the initial predictions), every error is below -delta, neither branch is selected, the loss is exactly 0 and no weight changes
# lint: no (the masks are valid comparisons; only the sign of the errors leaves both empty)
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
    b = tf.cast(e > delta, tf.float32)  # expect: zero-at-runtime primary
    return tf.reduce_mean(a * tf.square(e) / 2.0 + b * delta * (tf.abs(e) - delta / 2.0))


model = keras.Sequential([keras.Input((6,)),
                          keras.layers.Dense(16, activation="tanh", name="value_hidden"),
                          keras.layers.Dense(1, name="value_out")], name="value_net")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss=huber)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(obs, returns, epochs=2, batch_size=16, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
