# summary: multi-task loss weighting by homoscedastic uncertainty: a custom layer holding one trainable log variance per task, adding sum(exp(-s) * mse + s) through add_loss, the model's own outputs unlossed on purpose (compile(loss=None)), fit
# source: https://github.com/yaringal/multi-task-learning-example
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(37)
rng = np.random.default_rng(37)
n = 64
x = rng.normal(size=(n, 5)).astype("float32")
y1 = (x @ rng.normal(size=(5, 1))).astype("float32")
y2 = (3.0 * x @ rng.normal(size=(5, 1))).astype("float32")


class CustomMultiLossLayer(layers.Layer):
    def __init__(self, nb_outputs=2, **kwargs):
        self.nb_outputs = nb_outputs
        super().__init__(**kwargs)

    def build(self, input_shape=None):
        self.log_vars = [self.add_weight(name=f"log_var{i}", shape=(1,), initializer="zeros")
                         for i in range(self.nb_outputs)]

    def multi_loss(self, ys_true, ys_pred):
        loss = 0
        for y_true, y_pred, log_var in zip(ys_true, ys_pred, self.log_vars):
            precision = tf.exp(-log_var[0])
            loss += tf.reduce_sum(precision * tf.reduce_mean((y_true - y_pred) ** 2.0) + log_var[0])
        return loss

    def call(self, inputs):
        ys_true = inputs[:self.nb_outputs]
        ys_pred = inputs[self.nb_outputs:]
        self.add_loss(self.multi_loss(ys_true, ys_pred))
        return tf.concat(inputs, -1)


inp = keras.Input((5,))
t1, t2 = keras.Input((1,)), keras.Input((1,))
h = layers.Dense(16, activation="relu", name="shared")(inp)
p1 = layers.Dense(1, name="task1")(h)
p2 = layers.Dense(1, name="task2")(h)
out = CustomMultiLossLayer(nb_outputs=2, name="uncertainty")([t1, t2, p1, p2])
model = keras.Model([inp, t1, t2], out)
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss=None)
before = [w.numpy().copy() for w in model.trainable_variables]
model.fit([x, y1, y2], epochs=2, batch_size=16, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_variables))
