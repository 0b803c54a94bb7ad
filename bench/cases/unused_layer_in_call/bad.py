# source: https://github.com/tensorflow/tensorflow/issues/24849
# cause: not-connected
# rule: TM104
# weights: twohead/aux/kernel, twohead/aux/bias
# mode: eager
# summary: a subclassed model creates an auxiliary head that call() never uses
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
        self.aux = tf.keras.layers.Dense(1, name="aux")  # expect: not-connected primary

    def call(self, inputs):
        h = self.body(inputs)
        self.aux(h)  # built here, but its output is dropped
        return self.main(h)


model = TwoHead()
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x) - y))
grads = tape.gradient(loss, model.trainable_variables)
print([v.path for v, g in zip(model.trainable_variables, grads, strict=False) if g is None])
