# source: https://www.tensorflow.org/versions/r2.12/api_docs/python/tf/init_scope
# cause: outside-tape
# rule: -
# weights: pos_model/learned_positions/frequency
# mode: function
# summary: a sequence layer learns the frequencies of its sinusoidal position table and builds the table inside `with tf.init_scope():` so that it is computed once, outside the traced step; init_scope runs eagerly at trace time with the tape paused, the table is captured as a constant, and the frequency weight gets None while the dense layers train
# lint: yes
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)


class LearnedPositions(keras.layers.Layer):
    def build(self, input_shape):
        self.frequency = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="frequency")

    def call(self, inputs):
        with tf.init_scope():  # expect: outside-tape primary
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
print({v.path: g is None for v, g in zip(model.trainable_variables, grads)})
