# source: https://github.com/CuriousAI/mean-teacher/issues/31
# summary: a layer keeps a mean-teacher shadow of its kernel in a plain helper object (a raw tf.Variable Keras does not track); the consistency term reads the shadow, and the step writes it by assign (an exponential moving average) after every update
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(31)

rng = np.random.default_rng(3131)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x @ np.array([[0.5], [-1.0], [2.0], [0.3]], dtype="float32")).astype("float32")


class Shadow:
    def __init__(self, shape):
        self.kernel = tf.Variable(tf.zeros(shape), name="shadow_kernel")

    def follow(self, kernel, decay=0.9):
        self.kernel.assign(decay * self.kernel + (1.0 - decay) * kernel)


class TeacherDense(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.kernel = self.add_weight(name="kernel", shape=(input_shape[-1], 1))
        self.shadow = Shadow((input_shape[-1], 1))

    def call(self, inputs):
        student = inputs @ self.kernel
        teacher = inputs @ self.shadow.kernel
        self.add_loss(0.1 * tf.reduce_mean((student - teacher) ** 2))
        return student


layer = TeacherDense(name="teacher_dense")
model = tf.keras.Sequential([tf.keras.Input((4,)), layer], name="mean_teacher")
optimizer = tf.keras.optimizers.SGD(0.05)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(features) - targets) ** 2) + tf.add_n(model.losses)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    layer.shadow.follow(layer.kernel)
    return grads


before = layer.kernel.numpy().copy()
for _ in range(4):
    grads = train_step(x, y)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
assert np.any(before != layer.kernel.numpy())
