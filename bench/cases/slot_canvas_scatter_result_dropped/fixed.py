# summary: the canvas is rebound to the tensor tf.tensor_scatter_nd_update returns, so the head reads the projected slots and every weight gets a gradient
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
        canvas = tf.tensor_scatter_nd_update(canvas, index, updates)
        return tf.reshape(canvas, (batch, 24))


model = tf.keras.Sequential([tf.keras.Input((3, 5)), SlotCanvas(name="canvas"),
                             tf.keras.layers.Dense(1, name="slot_head")], name="slot_model")
optimizer = tf.keras.optimizers.SGD(0.05)

for step in range(2):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(slots, training=True) - target))
    grads = tape.gradient(loss, model.trainable_variables)
    assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads), grads
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
print("ok", float(loss))
