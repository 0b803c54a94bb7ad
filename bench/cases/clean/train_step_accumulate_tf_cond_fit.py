# summary: gradient accumulation in a train_step override: gradients added to non-trainable variables every batch, a tf.cond applies their mean and resets them every third batch, fit
# source: https://keras.io/guides/custom_train_step_in_tensorflow/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(19)
rng = np.random.default_rng(19)
x = rng.normal(size=(96, 4)).astype("float32")
y = (x @ rng.normal(size=(4, 1))).astype("float32")


class AccumModel(keras.Model):
    def __init__(self, steps=3, **kw):
        super().__init__(**kw)
        self.hidden = layers.Dense(8, activation="tanh", name="hidden")
        self.out = layers.Dense(1, name="out")
        self.steps = steps

    def build(self, input_shape):
        self.hidden.build(input_shape)
        self.out.build((input_shape[0], 8))
        self.counter = tf.Variable(0, dtype=tf.int64, trainable=False)
        self.accum = [tf.Variable(tf.zeros_like(w), trainable=False) for w in self.trainable_variables]
        self.built = True

    def call(self, inputs):
        return self.out(self.hidden(inputs))

    def train_step(self, data):
        a, b = data
        self.counter.assign_add(1)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self(a, training=True) - b))
        grads = tape.gradient(loss, self.trainable_variables)
        for acc, g in zip(self.accum, grads):
            acc.assign_add(g)

        def apply():
            self.optimizer.apply_gradients(zip([v / self.steps for v in self.accum], self.trainable_variables))
            for acc in self.accum:
                acc.assign(tf.zeros_like(acc))
            return tf.constant(True)

        tf.cond(self.counter % self.steps == 0, apply, lambda: tf.constant(False))
        return {"loss": loss}


model = AccumModel()
model.build((None, 4))
model.compile(optimizer=keras.optimizers.SGD(0.05))
before = [w.numpy().copy() for w in model.trainable_variables]
model.fit(x, y, epochs=1, batch_size=8, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_variables))
