# source: https://github.com/tensorflow/models/issues/2203
# summary: a feature extractor frozen on purpose (trainable=False) is applied once per batch in dataset.map, and only the predictor head is trained on its features; every trainable weight (the head's) gets a gradient
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(2203)
x = rng.normal(size=(64, 6)).astype("float32")
y = (x[:, 2] - x[:, 4] > 0).astype("float32")[:, None]
extractor = tf.keras.Sequential([tf.keras.Input((6,)),
                                 tf.keras.layers.Dense(8, activation="relu", name="feat")], name="extractor")
extractor.trainable = False
head = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1, name="pred")], name="predictor")
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(16).map(lambda a, b: (extractor(a), b))
optimizer = tf.keras.optimizers.Adam(1e-2)
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
trainable = extractor.trainable_variables + head.trainable_variables

for features, labels in dataset:
    with tf.GradientTape() as tape:
        loss = bce(labels, head(features, training=True))
    grads = tape.gradient(loss, trainable)
    optimizer.apply_gradients(zip(grads, trainable))
assert len(trainable) == 2
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
