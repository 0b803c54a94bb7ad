# summary: the decoder GRU starts from the encoder's final state (initial_state=hidden), so the encoder trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(3)
article = tf.constant(rng.normal(size=(8, 9, 6)).astype("float32"))
summary_in = tf.constant(rng.normal(size=(8, 5, 3)).astype("float32"))
summary_out = tf.constant(rng.normal(size=(8, 5, 3)).astype("float32"))


class Summarizer(tf.keras.Model):
    def __init__(self):
        super().__init__(name="summarizer")
        self.encoder = tf.keras.layers.GRU(12, return_state=True, name="enc_gru")
        self.decoder = tf.keras.layers.GRU(12, return_sequences=True, name="dec_gru")
        self.head = tf.keras.layers.Dense(3, name="head")

    def call(self, article, summary):
        _, hidden = self.encoder(article)
        decoded = self.decoder(summary, initial_state=hidden)
        return self.head(decoded)


model = Summarizer()
optimizer = tf.keras.optimizers.Adam(1e-2)
model(article, summary_in)


@tf.function
def train_step(article, summary_in, summary_out):
    with tf.GradientTape() as tape:
        predicted = model(article, summary_in)
        loss = tf.reduce_mean(tf.square(predicted - summary_out))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = train_step(article, summary_in, summary_out)
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
