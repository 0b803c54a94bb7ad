# source: https://github.com/keras-team/keras/issues/5521
# cause: non-differentiable-op
# rule: TM201
# weights: piano/enc/kernel, piano/enc/bias
# mode: fit
# summary: a Lambda layer samples binary keys with tf.floor(x + noise); layers before it get None
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(7)
x = rng.normal(size=(64, 10)).astype("float32")
y = (rng.random((64, 12)) > 0.7).astype("float32")


def floor_sampling(probs):
    noise = tf.random.uniform(tf.shape(probs))
    return tf.floor(probs + noise)  # expect: non-differentiable-op primary


model = tf.keras.Sequential([tf.keras.layers.Input((10,)),
                             tf.keras.layers.Dense(12, activation="sigmoid", name="enc"),
                             tf.keras.layers.Lambda(floor_sampling, name="keys"),
                             tf.keras.layers.Dense(12, activation="sigmoid", name="head")],
                            name="piano")
model.compile(optimizer="adam", loss="binary_crossentropy")
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
