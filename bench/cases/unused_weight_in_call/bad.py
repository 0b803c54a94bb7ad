# source: https://github.com/tensorflow/tensorflow/issues/24849
# cause: not-connected
# rule: TM104
# weights: twohead/log_temperature
# mode: eager
# summary: a subclassed model creates a temperature weight that call() never reads
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(35)
x = rng.normal(size=(16, 4)).astype("float32")
labels = rng.integers(0, 3, size=16)


class TwoHead(tf.keras.Model):
    def __init__(self):
        super().__init__(name="twohead")
        self.body = tf.keras.layers.Dense(8, activation="relu", name="body")
        self.main = tf.keras.layers.Dense(3, name="main")
        self.log_temperature = self.add_weight(  # expect: not-connected primary
            name="log_temperature", shape=(), initializer="zeros")

    def call(self, inputs):
        return self.main(self.body(inputs))


model = TwoHead()
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
with tf.GradientTape() as tape:
    loss = loss_fn(labels, model(x))
grads = tape.gradient(loss, model.trainable_variables)
print([v.path for v, g in zip(model.trainable_variables, grads, strict=False) if g is None])
