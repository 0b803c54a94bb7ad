# source: https://github.com/pytorch/pytorch/issues/41696
# cause: outside-tape
# weights: tagger/tag_hidden/kernel, tagger/tag_hidden/bias, tagger/tag_out/kernel, tagger/tag_out/bias
# mode: function
# summary: a script ported from PyTorch "clears the gradients" each step by calling tape.reset() inside the with block, after the forward pass and the loss; reset discards everything the tape recorded, so tape.gradient finds no path from the loss to any weight and every gradient is None
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(41696)
x = rng.normal(size=(32, 7)).astype("float32")
y = rng.integers(0, 4, size=(32,))

model = tf.keras.Sequential([tf.keras.Input((7,)),
                             tf.keras.layers.Dense(10, activation="relu", name="tag_hidden"),
                             tf.keras.layers.Dense(4, name="tag_out")], name="tagger")
xent = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        loss = xent(labels, model(features, training=True))
        tape.reset()  # expect: outside-tape primary
    return loss, tape.gradient(loss, model.trainable_variables)


loss, grads = train_step(x, y)
print("grads are None:", [g is None for g in grads])
