# source: https://github.com/tensorflow/tensorflow/issues/33998
# cause: not-connected
# weights: slot_model/canvas/slot_proj/kernel, slot_model/canvas/slot_proj/bias
# mode: eager
# summary: a custom layer places projected slot features into a canvas of position features with tf.tensor_scatter_nd_update but calls it as a statement, as if it updated the canvas in place; it returns a new tensor, so the canvas the head reads never holds the slots and the projection gets no gradient while the head trains
# lint: no (visible in the source, but the static checker does not yet model a dropped call result)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(33998)
slots = rng.normal(size=(4, 3, 5)).astype("float32")  # (batch, slots, features)
target = rng.normal(size=(4, 1)).astype("float32")
positions = rng.normal(size=(1, 6, 4)).astype("float32")  # the canvas before any slot lands


class SlotCanvas(tf.keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.proj = tf.keras.layers.Dense(4, name="slot_proj")

    def call(self, inputs):
        batch = tf.shape(inputs)[0]
        canvas = tf.tile(positions, [batch, 1, 1])
        rows = tf.repeat(tf.range(batch), 3)
        cols = tf.tile(tf.constant([0, 2, 4]), [batch])
        index = tf.stack([rows, cols], axis=1)
        updates = tf.reshape(self.proj(inputs), (-1, 4))
        tf.tensor_scatter_nd_update(canvas, index, updates)  # expect: not-connected primary
        return tf.reshape(canvas, (batch, 24))


model = tf.keras.Sequential([tf.keras.Input((3, 5)), SlotCanvas(name="canvas"),
                             tf.keras.layers.Dense(1, name="slot_head")], name="slot_model")
optimizer = tf.keras.optimizers.SGD(0.05)

for step in range(2):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(slots, training=True) - target))
    grads = tape.gradient(loss, model.trainable_variables)
    print("step", step, "grads are None:", [g is None for g in grads])
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
