# source: https://github.com/rstudio/keras3/issues/717
# summary: a text classifier loads pretrained word vectors into an Embedding built with trainable=False on purpose and trains only the pooling head with fit; the frozen table stays as loaded and every trainable weight changes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(717)
pretrained = rng.normal(size=(20, 6)).astype("float32")
tokens = rng.integers(1, 20, size=(96, 7))
labels = (tokens[:, 0] > 10).astype("float32")[:, None]

model = tf.keras.Sequential([
    tf.keras.Input((7,), dtype="int32"),
    tf.keras.layers.Embedding(20, 6, embeddings_initializer=tf.keras.initializers.Constant(pretrained),
                              trainable=False, name="glove"),
    tf.keras.layers.GlobalAveragePooling1D(),
    tf.keras.layers.Dense(4, activation="relu", name="pool_dense"),
    tf.keras.layers.Dense(1, name="logit"),
], name="frozen_text")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2),
              loss=tf.keras.losses.BinaryCrossentropy(from_logits=True))
frozen = model.get_layer("glove").embeddings
frozen_before = frozen.numpy().copy()
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(tokens, labels, epochs=2, batch_size=32, verbose=0)
assert len(model.trainable_weights) == 4
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
assert np.array_equal(frozen_before, frozen.numpy())
