# source: https://github.com/tensorflow/community/pull/56
# cause: sources-mismatch
# rule: TM114
# weights: shift, log_scale
# mode: function
# summary: a custom Keras 3 layer keeps its output affine (shift and log-scale tf.Variables) in a small tf.Module stored on the layer; Keras does not look into a tf.Module, so the step over model.trainable_variables never trains them
# lint: no (the variables are made in another class: only the run sees which layer holds them)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(7)

rng = np.random.default_rng(26792)
x = rng.normal(size=(64, 3)).astype("float32")
y = (2.0 * (x @ np.array([[0.7], [-1.2], [0.4]], dtype="float32")) + 1.5).astype("float32")


class Affine(tf.Module):
    def __init__(self):
        super().__init__(name="affine")
        self.shift = tf.Variable(0.0, name="shift")  # accept: sources-mismatch
        self.log_scale = tf.Variable(0.0, name="log_scale")  # accept: sources-mismatch

    def __call__(self, t):
        return t * tf.exp(self.log_scale) + self.shift


class Head(tf.keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = tf.keras.layers.Dense(1, name="dense")
        self.affine = Affine()  # expect: sources-mismatch primary

    def call(self, inputs):
        return self.affine(self.dense(inputs))


model = tf.keras.Sequential([tf.keras.Input((3,)), Head(name="head")], name="regressor")
optimizer = tf.keras.optimizers.SGD(0.05)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(features) - targets) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


for _ in range(4):
    train_step(x, y)
print("trainable:", [v.path for v in model.trainable_variables])
