# summary: every gradient of the list is applied to its own variable
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
rng = np.random.default_rng(3)
x = rng.normal(size=(64, 6)).astype("float32")
target = np.tanh(x[:, :2] - x[:, 2:4]).astype("float32")

features = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, "relu", name="feat")],
                            name="features")
mapper = keras.Sequential([keras.Input((8,)), keras.layers.Dense(8, "tanh", name="map1"),
                           keras.layers.Dense(2, name="map2")], name="mapper")
params = features.trainable_variables + mapper.trainable_variables
start = [v.numpy().copy() for v in params]
optimizer = keras.optimizers.Adam(1e-2)

for step in range(6):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(mapper(features(x)) - target))
    grads = tape.gradient(loss, params)
    optimizer.apply_gradients(zip(grads, params))
    print(step, float(loss))
assert all(not np.allclose(a, v.numpy()) for a, v in zip(start, params))
