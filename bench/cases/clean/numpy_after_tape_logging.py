# summary: NumPy is used after the tape, on the loss and the gradients, for logging only
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(115)
x = rng.normal(size=(16, 3)).astype("float32")
y = rng.normal(size=(16, 1)).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((3,)), tf.keras.layers.Dense(1, name="d")],
                            name="lin")
optimizer = tf.keras.optimizers.SGD(0.1)
history = []
for _ in range(2):
    with tf.GradientTape() as tape:
        pred = model(x)
        loss = tf.reduce_mean(tf.square(pred - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=False))
    history.append(np.sqrt(loss.numpy()))
    norms = [np.linalg.norm(g.numpy()) for g in grads]
    print(np.round(history[-1], 4), np.round(norms, 4), np.mean(pred.numpy()))
assert all(n > 0 for n in norms)
