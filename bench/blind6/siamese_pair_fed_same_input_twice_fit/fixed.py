# summary: the pairs are fitted as [left, right], so the distances are non-zero and the shared tower trains (all but the embedding bias, which cancels in the difference of the two embeddings by design)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(12901)
left = rng.normal(size=(64, 8)).astype("float32")
right = (left + rng.normal(scale=1.5, size=(64, 8)) * (rng.random((64, 1)) > 0.5)).astype("float32")
same = (np.abs(left - right).sum(axis=1) < 1e-6).astype("float32")[:, None]

tower = keras.Sequential([keras.Input((8,)),
                          keras.layers.Dense(16, activation="relu", name="tower_hidden"),
                          keras.layers.Dense(4, name="tower_embed")], name="tower")
in_a, in_b = keras.Input((8,), name="left"), keras.Input((8,), name="right")
emb_a, emb_b = tower(in_a), tower(in_b)
distance = keras.layers.Lambda(
    lambda t: tf.sqrt(tf.maximum(tf.reduce_sum(tf.square(t[0] - t[1]), axis=1, keepdims=True), 1e-12)),
    name="distance")([emb_a, emb_b])
model = keras.Model([in_a, in_b], distance, name="siamese")


def contrastive(y_true, d, margin=1.0):
    return tf.reduce_mean(y_true * tf.square(d) + (1.0 - y_true) * tf.square(tf.maximum(margin - d, 0.0)))


model.compile(optimizer=keras.optimizers.Adam(1e-2), loss=contrastive)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit([left, right], same, epochs=2, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)}
assert len(changed) == 4 and not changed.pop("tower/tower_embed/bias") and all(changed.values()), changed
