# source: https://github.com/larq/larq/pull/287
# cause: sources-mismatch
# weights: split_net/split_hidden/bias, split_net/split_out/bias
# mode: function
# summary: a traced step gives the kernels to one optimizer and the biases to another by splitting grads_and_vars = zip(grads, variables) with two list comprehensions; the first comprehension consumes the zip iterator, the biases' list is empty, and the second optimizer is handed no pairs (Keras 3 raises inside apply_gradients); the biases never train
# lint: yes
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
    grads_and_vars = zip(grads, model.trainable_variables)  # expect: sources-mismatch primary
    kernel_pairs = [(g, v) for g, v in grads_and_vars if "kernel" in v.path]
    bias_pairs = [(g, v) for g, v in grads_and_vars if "bias" in v.path]  # accept: sources-mismatch
    kernel_opt.apply_gradients(kernel_pairs)
    bias_opt.apply_gradients(bias_pairs)  # accept: sources-mismatch
    return loss


print("loss:", float(train_step(x, y)))
