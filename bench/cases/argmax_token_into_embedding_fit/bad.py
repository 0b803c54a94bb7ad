# source: https://github.com/keras-team/keras/issues/11157
# cause: non-differentiable-op|integer-dtype
# weights: vocab_scores/kernel, vocab_scores/bias
# mode: fit
# summary: an encoder scores a small vocabulary, a Lambda takes the argmax token and a decoder Embedding looks it up, all in one model trained by fit; the argmax carries no gradient, so the scoring layer never trains
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(3)

rng = np.random.default_rng(11157)
x = rng.normal(size=(96, 6)).astype("float32")
y = np.tanh(x[:, :3].sum(axis=1, keepdims=True)).astype("float32")
inputs = tf.keras.Input((6,))
scores = tf.keras.layers.Dense(12, activation="softmax", name="vocab_scores")(inputs)
token = tf.keras.layers.Lambda(lambda p: tf.argmax(p, axis=-1), name="pick")(scores)  # expect: non-differentiable-op|integer-dtype primary
vector = tf.keras.layers.Embedding(12, 4, name="decoder_embedding")(token)
outputs = tf.keras.layers.Dense(1, name="readout")(vector)
model = tf.keras.Model(inputs, outputs, name="tokens")
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
print({w.path: bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)})
