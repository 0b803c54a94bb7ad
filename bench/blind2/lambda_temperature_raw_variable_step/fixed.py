# summary: the temperature is a weight of a small custom layer, so it is one of model.trainable_variables and the step trains it
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(30587)
x = rng.normal(size=(96, 6)).astype("float32")
labels = (x[:, 0] + x[:, 1] > 0).astype("int32") + (x[:, 2] > 1).astype("int32")


class Temper(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.temperature = self.add_weight(name="temperature", shape=(), initializer="ones")

    def call(self, inputs):
        return inputs / self.temperature


inputs = tf.keras.Input((6,))
hidden = tf.keras.layers.Dense(12, activation="relu", name="hidden")(inputs)
logits = tf.keras.layers.Dense(3, name="logits")(hidden)
scaled = Temper(name="temper")(logits)
model = tf.keras.Model(inputs, scaled, name="calibrated")
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.Adam(5e-2)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = loss_fn(targets, model(features, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = train_step(x, labels)
assert len(grads) == 5
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
