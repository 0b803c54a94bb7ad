# summary: a traced step maps raw item ids (sparse 64-bit codes) to embedding row numbers through a StaticHashTable and gathers the rows from a trained Embedding; the table only produces integer indices, so every weight gets a gradient
# source: https://www.tensorflow.org/api_docs/python/tf/lookup/StaticHashTable
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(11)
raw_codes = np.array([1001, 2002, 3003, 4004, 5005, 6006], dtype=np.int64)
table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(raw_codes, np.arange(6, dtype=np.int64)), default_value=0)
clicks = rng.choice(raw_codes, size=(16, 3)).astype(np.int64)
labels = rng.integers(0, 2, size=(16, 1)).astype("float32")

model = keras.Sequential([keras.Input((3,), dtype="int64"),
                          keras.layers.Embedding(6, 4, name="code_embedding"),
                          keras.layers.GlobalAveragePooling1D(),
                          keras.layers.Dense(1, name="code_logit")], name="code_model")


@tf.function
def train_step(codes, y):
    with tf.GradientTape() as tape:
        rows = table.lookup(codes)
        loss = tf.reduce_mean(tf.keras.losses.binary_crossentropy(y, model(rows, training=True), from_logits=True))
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(clicks, labels)
assert len(grads) == 3
assert all(g is not None and float(tf.reduce_sum(tf.abs(tf.convert_to_tensor(g)))) > 0 for g in grads)
