# summary: a fake-quant with a fixed [-1, 1] range in a tf.function step clamps the activations that fall outside it, but most lie inside, so gradients pass and every weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(11)
x = tf.constant(rng.normal(size=(32, 4)).astype("float32"))
y = tf.constant(rng.normal(size=(32, 1)).astype("float32"))
model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(6, name="pre"),
                             tf.keras.layers.Dense(1, name="post")])
optimizer = tf.keras.optimizers.SGD(0.05)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        h = model.layers[0](features)
        q = tf.quantization.fake_quant_with_min_max_args(h, min=-1.0, max=1.0, num_bits=8)
        loss = tf.reduce_mean(tf.square(model.layers[1](q) - targets))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return grads


grads = train_step(x, y)
assert all(float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
