# source: https://keras.io/guides/custom_train_step_in_tensorflow/
# summary: a subclassed model with a custom train_step (tape over the compiled loss) and a custom test_step that decodes with tf.argmax and counts exact matches with tf.cast(tf.equal(...)); fit runs both through validation_data
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)


class Tagger(keras.Model):
    def __init__(self):
        super().__init__()
        self.emb = keras.layers.Embedding(20, 8, name="emb")
        self.rnn = keras.layers.GRU(8, return_sequences=True, name="rnn")
        self.out = keras.layers.Dense(4, name="out")
        self.exact = keras.metrics.Mean(name="exact")

    def call(self, x, training=False):
        return self.out(self.rnn(self.emb(x), training=training))

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            logits = self(x, training=True)
            loss = self.compute_loss(x=x, y=y, y_pred=logits)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss}

    def test_step(self, data):
        x, y = data
        tags = tf.argmax(self(x), axis=-1, output_type=tf.int32)
        match = tf.reduce_all(tf.equal(tags, tf.cast(y, tf.int32)), axis=-1)
        self.exact.update_state(tf.cast(match, tf.float32))
        return {"exact": self.exact.result()}


rng = np.random.default_rng(49)
x, y = rng.integers(0, 20, (24, 6)), rng.integers(0, 4, (24, 6))
model = Tagger()
model.compile(keras.optimizers.Adam(1e-2),
              keras.losses.SparseCategoricalCrossentropy(from_logits=True))
model(x[:1])
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(x[:16], y[:16], validation_data=(x[16:], y[16:]), epochs=1, batch_size=8, verbose=0)
assert all(not np.allclose(before[w.path], w.numpy()) for w in model.trainable_weights)
