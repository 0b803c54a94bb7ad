# summary: the auxiliary head's output is part of the loss
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(35)
x = rng.normal(size=(16, 4)).astype("float32")
y = rng.normal(size=(16, 1)).astype("float32")


class TwoHead(tf.keras.Model):
    def __init__(self):
        super().__init__(name="twohead")
        self.body = tf.keras.layers.Dense(8, activation="relu", name="body")
        self.main = tf.keras.layers.Dense(1, name="main")
        self.aux = tf.keras.layers.Dense(1, name="aux")

    def call(self, inputs):
        h = self.body(inputs)
        return self.main(h), self.aux(h)


model = TwoHead()
with tf.GradientTape() as tape:
    main_out, aux_out = model(x)
    loss = tf.reduce_mean(tf.square(main_out - y)) + 0.1 * tf.reduce_mean(tf.square(aux_out - y))
grads = tape.gradient(loss, model.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
