# source: https://keras.io/examples/vision/siamese_network/
# summary: a siamese matcher with a shared tower (its last layer bias-free, since a shared bias would cancel in the difference) is fitted on [left, right] pairs with a contrastive loss; the pairs differ, every distance is non-zero and every tower weight changes
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(20)
left = rng.normal(size=(64, 8)).astype("float32")
right = (left + rng.normal(scale=1.5, size=(64, 8)) * (rng.random((64, 1)) > 0.5)).astype("float32")
same = (np.abs(left - right).sum(axis=1) < 1e-6).astype("float32")[:, None]

tower = keras.Sequential([keras.Input((8,)),
                          keras.layers.Dense(16, activation="relu", name="pair_hidden"),
                          keras.layers.Dense(4, use_bias=False, name="pair_embed")], name="pair_tower")
in_a, in_b = keras.Input((8,), name="pair_left"), keras.Input((8,), name="pair_right")
distance = keras.layers.Lambda(
    lambda t: tf.sqrt(tf.maximum(tf.reduce_sum(tf.square(t[0] - t[1]), axis=1, keepdims=True), 1e-12)),
    name="pair_distance")([tower(in_a), tower(in_b)])
model = keras.Model([in_a, in_b], distance, name="pair_siamese")


def contrastive(y_true, d, margin=1.0):
    return tf.reduce_mean(y_true * tf.square(d) + (1.0 - y_true) * tf.square(tf.maximum(margin - d, 0.0)))


model.compile(optimizer=keras.optimizers.Adam(1e-2), loss=contrastive)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit([left, right], same, epochs=2, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)}
assert len(changed) == 3 and all(changed.values()), changed
