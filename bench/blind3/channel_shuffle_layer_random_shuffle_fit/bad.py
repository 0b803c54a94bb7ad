# source: https://github.com/keras-team/keras-cv/issues/259
# cause: non-differentiable-op
# weights: shuffle_net/stem/kernel, shuffle_net/stem/bias
# mode: fit
# summary: a ShuffleNet-style custom layer permutes the feature channels by transposing them to the front and calling tf.random.shuffle; RandomShuffle has no gradient, so in fit the classifier head trains while the convolution before the shuffle never changes
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)


class ChannelShuffle(tf.keras.layers.Layer):
    def call(self, inputs):
        channels_first = tf.transpose(inputs, [3, 0, 1, 2])
        shuffled = tf.random.shuffle(channels_first, seed=259)  # expect: non-differentiable-op primary
        return tf.transpose(shuffled, [1, 2, 3, 0])


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
print("changed:", [bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)])
