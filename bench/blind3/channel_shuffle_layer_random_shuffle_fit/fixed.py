# summary: the channel permutation gathers the channels at shuffled integer indices (tf.gather is differentiable in its params), so the stem convolution trains with the head
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)


class ChannelShuffle(tf.keras.layers.Layer):
    def call(self, inputs):
        order = tf.random.shuffle(tf.range(tf.shape(inputs)[-1]), seed=259)
        return tf.gather(inputs, order, axis=-1)


rng = np.random.default_rng(259)
images = rng.normal(size=(64, 8, 8, 3)).astype("float32")
labels = (images[:, :4].mean(axis=(1, 2, 3)) > 0).astype("float32")[:, None]

model = tf.keras.Sequential([
    tf.keras.Input((8, 8, 3)),
    tf.keras.layers.Conv2D(6, 3, padding="same", activation="relu", name="stem"),
    ChannelShuffle(name="channel_shuffle"),
    tf.keras.layers.GlobalAveragePooling2D(),
    tf.keras.layers.Dense(1, name="logit"),
], name="shuffle_net")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2),
              loss=tf.keras.losses.BinaryCrossentropy(from_logits=True))
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(images, labels, epochs=2, batch_size=16, verbose=0)
assert len(model.trainable_weights) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
