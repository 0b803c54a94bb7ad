# source: https://github.com/tensorflow/tensorflow/issues/46135
# cause: zero-at-runtime
# rule: TM501
# weights: saturating/squash/kernel, saturating/squash/bias
# mode: fit
# summary: a tanh layer whose bias starts at 40 outputs exactly 1.0 in float32 for every example; tanh's gradient 1 - y*y is then exactly zero, so the layer never trains in fit
# lint: no (zero at run time: only the values show that every tanh output is saturated)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(46135)
x = rng.normal(size=(64, 4)).astype("float32")
y = rng.normal(size=(64, 1)).astype("float32")

model = tf.keras.Sequential([
    tf.keras.Input((4,)),
    tf.keras.layers.Dense(8, activation="tanh", name="squash",  # expect: zero-at-runtime primary
                          bias_initializer=tf.keras.initializers.Constant(40.0)),
    tf.keras.layers.Dense(1, name="out"),
], name="saturating")
model.compile(optimizer="sgd", loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
