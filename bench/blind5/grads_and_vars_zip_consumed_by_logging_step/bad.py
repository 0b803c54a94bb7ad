# source: https://github.com/horovod/horovod/pull/2394
# cause: sources-mismatch
# weights: clf/zip_hidden/kernel, clf/zip_hidden/bias, clf/zip_out/kernel, clf/zip_out/bias
# mode: function
# summary: the step builds grads_and_vars = zip(grads, variables), walks it once to log each gradient's norm, then passes the same zip object to apply_gradients; the iterator is already exhausted, the optimizer receives no pairs and Keras 3 raises "ValueError: not enough values to unpack (expected 2, got 0)" inside apply_gradients; no weight is ever updated
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(2394)
x = rng.normal(size=(64, 5)).astype("float32")
y = (x[:, 0] > 0).astype("int32")

model = tf.keras.Sequential([tf.keras.Input((5,)),
                             tf.keras.layers.Dense(8, activation="relu", name="zip_hidden"),
                             tf.keras.layers.Dense(2, name="zip_out")], name="clf")
optimizer = tf.keras.optimizers.Adam(1e-2)
xent = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        loss = xent(labels, model(features, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    grads_and_vars = zip(grads, model.trainable_variables)  # expect: sources-mismatch primary
    norms = [tf.norm(g) for g, _ in grads_and_vars]
    optimizer.apply_gradients(grads_and_vars)  # accept: sources-mismatch
    return loss, tf.add_n(norms)


before = [v.numpy().copy() for v in model.trainable_variables]
for _ in range(3):
    train_step(x, y)
print("changed:", [bool(np.any(b != v.numpy())) for b, v in zip(before, model.trainable_variables)])
