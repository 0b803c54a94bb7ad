# source: https://github.com/rstudio/tfdatasets/issues/30
# cause: outside-tape|not-connected
# weights: encoder/enc/kernel, encoder/enc/bias
# mode: eager
# summary: an encoder meant to be fine-tuned is applied inside dataset.map, so its outputs reach the training loop as plain input tensors; the tape never sees the encoder run and its gradients are None
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(30)
x = rng.normal(size=(64, 6)).astype("float32")
y = (x[:, :2].sum(axis=1, keepdims=True) > 0).astype("float32")
encoder = tf.keras.Sequential([tf.keras.Input((6,)),
                               tf.keras.layers.Dense(4, activation="relu", name="enc")], name="encoder")
head = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1, name="cls")], name="head")
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(16)
dataset = dataset.map(lambda a, b: (encoder(a), b))  # expect: outside-tape|not-connected primary
optimizer = tf.keras.optimizers.Adam(1e-2)
sources = encoder.trainable_variables + head.trainable_variables
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)

for features, labels in dataset:
    with tf.GradientTape() as tape:
        loss = bce(labels, head(features, training=True))
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients([(g, v) for g, v in zip(grads, sources) if g is not None])
print("encoder grads None:", [g is None for g in grads[:2]])
