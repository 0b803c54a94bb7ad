# summary: the pairs are kept in a list (list(zip(...))), which both comprehensions can read, so the kernels and the biases each reach their optimizer and every weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(287)
x = rng.normal(size=(64, 5)).astype("float32")
y = (x[:, :1] * 1.5 + 0.5).astype("float32")

model = tf.keras.Sequential([tf.keras.Input((5,)),
                             tf.keras.layers.Dense(8, activation="tanh", name="split_hidden"),
                             tf.keras.layers.Dense(1, name="split_out")], name="split_net")
kernel_opt = tf.keras.optimizers.Adam(1e-2)
bias_opt = tf.keras.optimizers.SGD(0.1)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(features, training=True) - targets))
    grads = tape.gradient(loss, model.trainable_variables)
    grads_and_vars = list(zip(grads, model.trainable_variables))
    kernel_pairs = [(g, v) for g, v in grads_and_vars if "kernel" in v.path]
    bias_pairs = [(g, v) for g, v in grads_and_vars if "bias" in v.path]
    kernel_opt.apply_gradients(kernel_pairs)
    bias_opt.apply_gradients(bias_pairs)
    return loss


before = [v.numpy().copy() for v in model.trainable_variables]
print("loss:", float(train_step(x, y)))
changed = [bool(np.any(b != v.numpy())) for b, v in zip(before, model.trainable_variables)]
print(changed)
assert all(changed)
