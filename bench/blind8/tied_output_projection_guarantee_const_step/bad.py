# source: https://www.slingacademy.com/article/tensorflow-guarantee-const-declaring-tensors-as-constants-deprecated/
# cause: non-differentiable-op
# rule: -
# weights: tied_lm/tied_embedding/embeddings, tied_lm/tied_mixer/kernel, tied_lm/tied_mixer/bias
# mode: function
# summary: a small language model ties its output projection to the token embedding and, to let the runtime fold the transposed matrix once per step, wraps it in tf.guarantee_const inside the traced step; GuaranteeConst has no registered gradient, so tape.gradient raises LookupError
# lint: yes
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(2024)
tokens = rng.integers(0, 20, size=(16, 6)).astype("int32")
next_tokens = rng.integers(0, 20, size=(16,)).astype("int32")

model = keras.Sequential([keras.Input((6,), dtype="int32"),
                          keras.layers.Embedding(20, 8, name="tied_embedding"),
                          keras.layers.GlobalAveragePooling1D(),
                          keras.layers.Dense(8, activation="tanh", name="tied_mixer")], name="tied_lm")
embedding = model.get_layer("tied_embedding")


@tf.function
def train_step(ids, targets):
    with tf.GradientTape() as tape:
        hidden = model(ids, training=True)
        projection = tf.guarantee_const(tf.transpose(embedding.embeddings))  # expect: non-differentiable-op primary
        logits = tf.matmul(hidden, projection)
        loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(targets, logits, from_logits=True))
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(tokens, next_tokens)
print({v.path: g is None for v, g in zip(model.trainable_variables, grads)})
