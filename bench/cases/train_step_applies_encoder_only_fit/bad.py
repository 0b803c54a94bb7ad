# source: https://github.com/tensorflow/tensorflow/issues/47675
# cause: unexplained
# rule: TM118
# weights: pair_model/scorer/kernel, pair_model/scorer/bias
# mode: fit
# summary: a subclassed model's train_step differentiates all its weights but hands the optimizer the two encoders' variables only; the scoring layer is read on the loss path and never changes
# lint: no (which list is right depends on the model's layout)
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
rng = np.random.default_rng(5)
a = rng.normal(size=(96, 4)).astype("float32")
b = rng.normal(size=(96, 4)).astype("float32")
label = (np.sum(a * b, axis=1, keepdims=True) > 0).astype("float32")


class PairModel(keras.Model):
    def __init__(self):
        super().__init__()
        self.left = keras.layers.Dense(6, "tanh", name="left")
        self.right = keras.layers.Dense(6, "tanh", name="right")
        self.scorer = keras.layers.Dense(1, name="scorer")

    def call(self, inputs):
        u, v = inputs
        return self.scorer(self.left(u) * self.right(v))

    def train_step(self, data):
        (u, v), y = data
        with tf.GradientTape() as tape:
            logits = self((u, v))
            loss = tf.reduce_mean(keras.losses.binary_crossentropy(y, logits, from_logits=True))
        grads = tape.gradient(loss, self.trainable_variables)
        encoders = self.left.trainable_variables + self.right.trainable_variables
        self.optimizer.apply_gradients(zip(grads, encoders))  # expect: unexplained primary
        return {"loss": loss}


model = PairModel()
model.compile(optimizer=keras.optimizers.Adam(1e-2))
model.fit((a, b), label, batch_size=16, epochs=1, verbose=0)
