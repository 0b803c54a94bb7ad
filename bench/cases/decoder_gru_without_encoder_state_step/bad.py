# source: https://github.com/steph1793/Pointer_Generator_Summarizer/issues/3
# cause: not-connected
# rule: TM104
# weights: summarizer/enc_gru/gru_cell/kernel, summarizer/enc_gru/gru_cell/recurrent_kernel, summarizer/enc_gru/gru_cell/bias
# mode: function
# summary: a GRU encoder-decoder whose decoder GRU is called on the target tokens without initial_state=the encoder's final state; the encoder's state is computed and never used, so its weights get None in a @tf.function step
# lint: no (not-connected: nothing cuts the encoder, its state is unused)
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
        decoded = self.decoder(summary)  # expect: not-connected primary
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
print("None gradients:", sum(g is None for g in grads))
