# source: https://github.com/ankurtaly/Integrated-Gradients/issues/7
# cause: integer-dtype
# rule: TM202
# weights: -
# mode: function
# summary: a saliency map of a text classifier: the integer token ids are watched and differentiated, but no gradient crosses an int32 tensor (the embedding lookup takes them as indices)
# lint: no (integer-dtype: the ids' dtype is not visible in the source)
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
    with tf.GradientTape() as tape:
        tape.watch(ids)  # expect: integer-dtype primary
        logits = model(ids)
        score = logits[:, 1]
    return tape.gradient(score, ids)  # accept: integer-dtype


grads = saliency(token_ids)
print("saliency:", grads)
