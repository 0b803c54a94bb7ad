# source: https://community.deeplearning.ai/t/why-dont-weights-get-adjusted-when-initialized-to-0/431799
# cause: zero-at-runtime|unexplained
# weights: mlp/h1/kernel, mlp/h1/bias, mlp/h2/kernel, mlp/h2/bias, mlp/out/kernel
# mode: function
# summary: a custom tf.function step trains an MLP whose every Dense kernel starts at zero (swish hidden layers); each kernel multiplies the zero output of the one before, so every weight but the output bias gets an exactly zero gradient on every step and never moves
# lint: no (zero at run time: the zeros come from the initial values)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(31)

rng = np.random.default_rng(431799)
x = rng.normal(size=(96, 4)).astype("float32")
y = np.sin(x @ np.array([[1.0], [-0.5], [0.25], [2.0]], dtype="float32")).astype("float32")

model = tf.keras.Sequential([
    tf.keras.Input((4,)),
    tf.keras.layers.Dense(8, activation="swish", kernel_initializer="zeros", name="h1"),  # expect: zero-at-runtime|unexplained primary
    tf.keras.layers.Dense(8, activation="swish", kernel_initializer="zeros", name="h2"),  # accept: zero-at-runtime|unexplained
    tf.keras.layers.Dense(1, kernel_initializer="zeros", name="out"),  # accept: zero-at-runtime|unexplained
], name="mlp")
optimizer = tf.keras.optimizers.Adam(1e-2)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(features) - targets) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)  # accept: unexplained
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


before = [v.numpy().copy() for v in model.trainable_variables]
for _ in range(5):
    train_step(x, y)
print({v.path: bool(np.any(b != v.numpy())) for b, v in zip(before, model.trainable_variables)})
