# summary: the same straight-through rounding inside the step, its gradient function returning the upstream gradient: the layer trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(50170)
x = tf.constant(rng.normal(size=(32, 6)).astype("float32"))
y = tf.constant(rng.normal(size=(32, 3)).astype("float32"))
model = tf.keras.Sequential([tf.keras.Input((6,)), tf.keras.layers.Dense(3, name="dense")],
                            name="quant")
optimizer = tf.keras.optimizers.SGD(0.1)


@tf.function
def train_step(x, y):
    @tf.custom_gradient
    def round_through(t):
        def grad(upstream):
            return upstream * 1.0
        return tf.round(t), grad

    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(round_through(model(x)) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(
        [(g, v) for g, v in zip(grads, model.trainable_variables) if g is not None])
    return loss


for _ in range(3):
    train_step(x, y)
