# source: https://github.com/chelsea0x3b/dfdx/issues/486
# cause: zero-at-runtime
# weights: regressor/h/kernel, regressor/h/bias, regressor/out/kernel, regressor/out/bias
# mode: fit
# summary: a ReLU on the output layer whose pre-activations are all negative: every gradient is 0
# lint: no (zero at run time: only the run shows all pre-activations < 0)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(31)
x = rng.normal(size=(64, 4)).astype("float32")
y = rng.normal(size=(64, 1)).astype("float32")
low = tf.keras.initializers.Constant(-20.0)  # accept: zero-at-runtime
model = tf.keras.Sequential([
    tf.keras.layers.Input((4,)),
    tf.keras.layers.Dense(8, activation="tanh", name="h"),
    tf.keras.layers.Dense(1, activation="relu",  # accept: zero-at-runtime
                          bias_initializer=low, name="out"),  # expect: zero-at-runtime primary
], name="regressor")
model.compile(optimizer="sgd", loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
print([bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights, strict=False)])
