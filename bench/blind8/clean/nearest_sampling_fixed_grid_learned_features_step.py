# summary: a traced step samples trained feature maps at a fixed integer keypoint grid with keras.ops.image.map_coordinates(order=0); the coordinates are data, the sampled values carry the gradient back to the features, so every weight gets a gradient
# source: https://keras.io/api/ops/image/#mapcoordinates-function
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(14)
signals = rng.normal(size=(16, 12)).astype("float32")
targets = rng.normal(size=(16, 4)).astype("float32")
rows = np.repeat(np.arange(16, dtype="float32")[:, None], 4, axis=1)
cols = np.tile(np.array([[1.0, 4.0, 7.0, 10.0]], dtype="float32"), (16, 1))

model = keras.Sequential([keras.Input((12,)),
                          keras.layers.Dense(12, activation="tanh", name="feature_map")], name="keypoint_net")


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        features = model(x, training=True)
        sampled = keras.ops.image.map_coordinates(features, [tf.constant(rows), tf.constant(cols)], order=0)
        loss = tf.reduce_mean(tf.square(sampled - y))
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(signals, targets)
assert len(grads) == 2
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
