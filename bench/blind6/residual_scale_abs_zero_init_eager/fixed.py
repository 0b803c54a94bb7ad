# summary: the scale is used as it is (ReZero's plain multiplication), so its gradient at 0 is the branch's contribution; after one step it is non-zero and the branch trains too
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(17)
x = rng.normal(size=(32, 6)).astype("float32")
y = (np.sin(x) * 0.5).astype("float32")


class ScaledResidual(keras.layers.Layer):
    def __init__(self):
        super().__init__(name="scaled_residual")
        self.branch = keras.layers.Dense(6, activation="tanh", name="branch")

    def build(self, input_shape):
        self.branch.build(input_shape)
        self.scale = self.add_weight(shape=(), initializer="zeros", name="res_scale")

    def call(self, inputs):
        return inputs + self.scale * self.branch(inputs)


block = ScaledResidual()
block.build((None, 6))
optimizer = keras.optimizers.SGD(0.1)
before = [v.numpy().copy() for v in block.trainable_variables]
for _ in range(2):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(block(x) - y))
    grads = tape.gradient(loss, block.trainable_variables)
    assert all(g is not None for g in grads)
    optimizer.apply_gradients(zip(grads, block.trainable_variables))
changed = [bool(np.any(b != v.numpy())) for b, v in zip(before, block.trainable_variables)]
assert len(changed) == 3 and all(changed), changed
