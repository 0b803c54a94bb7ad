# summary: the position table is computed in call without init_scope, inside the traced step, so the frequency weight gets a gradient with the dense layers
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)


class LearnedPositions(keras.layers.Layer):
    def build(self, input_shape):
        self.frequency = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="frequency")

    def call(self, inputs):
        steps = tf.range(inputs.shape[1], dtype="float32")[:, None]
        table = tf.sin(steps * self.frequency * 0.1)
        return inputs + table


rng = np.random.default_rng(1)
x = rng.normal(size=(16, 10, 4)).astype("float32")
y = rng.normal(size=(16, 1)).astype("float32")

model = keras.Sequential([keras.Input((10, 4)),
                          LearnedPositions(name="learned_positions"),
                          keras.layers.Flatten(),
                          keras.layers.Dense(8, activation="tanh", name="pos_hidden"),
                          keras.layers.Dense(1, name="pos_head")], name="pos_model")


@tf.function
def train_step(features, target):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(features, training=True) - target))
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(x, y)
assert len(grads) == 5
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
