# summary: a saliency map of a text classifier taken with respect to the token embeddings (float), which the tape watches; the rest of the model runs on them
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

model = tf.keras.Sequential([tf.keras.layers.Input((6,), dtype="int32"),
                             tf.keras.layers.Embedding(20, 4, name="embed"),
                             tf.keras.layers.GlobalAveragePooling1D(),
                             tf.keras.layers.Dense(2, name="head")], name="textcls")
token_ids = tf.constant(np.random.default_rng(5).integers(1, 20, (1, 6)), dtype=tf.int32)


@tf.function
def saliency(ids):
    embedded = model.get_layer("embed")(ids)
    with tf.GradientTape() as tape:
        tape.watch(embedded)
        pooled = model.layers[1](embedded)
        logits = model.layers[2](pooled)
        score = logits[:, 1]
    return tape.gradient(score, embedded)


grads = saliency(token_ids)
assert grads is not None and float(tf.reduce_sum(tf.abs(grads))) > 0, grads
print("saliency:", float(tf.reduce_sum(tf.abs(grads))))
