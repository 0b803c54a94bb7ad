# source: https://github.com/tensorflow/tensorflow/issues/22295
# summary: the multipliers are keyed by the Keras 3 variable path and looked up with a default of 1.0: every weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(22295)
x = rng.normal(size=(48, 5)).astype("float32")
y = (x @ rng.normal(size=(5, 3)) > 0).astype("float32")
multipliers = {"tagger/tag_hidden/kernel": 0.1, "tagger/tag_hidden/bias": 0.1,
               "tagger/tag_out/kernel": 1.0, "tagger/tag_out/bias": 1.0}

model = tf.keras.Sequential([tf.keras.Input((5,)),
                             tf.keras.layers.Dense(8, activation="tanh", name="tag_hidden"),
                             tf.keras.layers.Dense(3, name="tag_out")], name="tagger")
optimizer = tf.keras.optimizers.SGD(0.1)
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        loss = bce(labels, model(features, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    grads = [g * multipliers.get(v.path, 1.0)
             for g, v in zip(grads, model.trainable_variables)]
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


before = [v.numpy().copy() for v in model.trainable_variables]
for _ in range(3):
    train_step(x, y)
assert all(np.any(b != v.numpy()) for b, v in zip(before, model.trainable_variables))
