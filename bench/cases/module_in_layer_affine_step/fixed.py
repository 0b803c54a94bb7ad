# summary: the shift and log-scale are weights of the layer itself (add_weight), so they are in model.trainable_variables and the step trains them
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(7)

rng = np.random.default_rng(26792)
x = rng.normal(size=(64, 3)).astype("float32")
y = (2.0 * (x @ np.array([[0.7], [-1.2], [0.4]], dtype="float32")) + 1.5).astype("float32")


class Head(tf.keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = tf.keras.layers.Dense(1, name="dense")
        self.shift = self.add_weight(name="shift", shape=(), initializer="zeros")
        self.log_scale = self.add_weight(name="log_scale", shape=(), initializer="zeros")

    def call(self, inputs):
        return self.dense(inputs) * tf.exp(self.log_scale) + self.shift


model = tf.keras.Sequential([tf.keras.Input((3,)), Head(name="head")], name="regressor")
optimizer = tf.keras.optimizers.SGD(0.05)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(features) - targets) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


before = [v.numpy().copy() for v in model.trainable_variables]
for _ in range(4):
    train_step(x, y)
assert len(model.trainable_variables) == 4
assert all(np.any(b != v.numpy()) for b, v in zip(before, model.trainable_variables, strict=True))
