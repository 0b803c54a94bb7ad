# summary: a whole epoch runs in one tf.function as a Python for loop over a tf.data dataset, with the tape and the update inside the loop body; autograph runs the loop as Dataset.reduce and each step is recorded inside it, so every weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(5)

rng = np.random.default_rng(5)
x = rng.normal(size=(32, 4)).astype("float32")
y = (x[:, :1] * 2.0 - x[:, 2:3]).astype("float32")
data = tf.data.Dataset.from_tensor_slices((x, y)).batch(8)

model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(6, activation="tanh", name="ep_hidden"),
                             tf.keras.layers.Dense(1, name="ep_out")], name="epoch_net")
optimizer = tf.keras.optimizers.SGD(0.05)


@tf.function
def epoch():
    for xb, yb in data:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(xb, training=True) - yb))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))


before = [v.numpy().copy() for v in model.trainable_variables]
epoch()
assert all(np.any(b != v.numpy()) for b, v in zip(before, model.trainable_variables))
