# summary: float(loss) and an int() of a step counter printed inside the tape
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(116)
x = rng.normal(size=(16, 3)).astype("float32")
y = rng.normal(size=(16, 1)).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((3,)), tf.keras.layers.Dense(1, name="d")],
                            name="lin")
step = tf.Variable(0, name="step", trainable=False)
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x) - y))
    print(f"step {int(step)}: loss {float(loss):.4f}")
    step.assign_add(1)
grads = tape.gradient(loss, model.trainable_variables)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
