# summary: the L1 loss is taken on the probabilities, not on their floor
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(5)
x = rng.normal(size=(64, 5)).astype("float32")
y = (rng.random((64, 1)) > 0.5).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((5,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(1, name="o")], name="gate")
optimizer = tf.keras.optimizers.SGD(0.01)


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        prob = tf.sigmoid(model(features))
        loss = tf.reduce_mean(tf.abs(labels - prob))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=False))
    return loss, grads


loss, grads = train_step(x, y)
print(float(loss))
assert all(float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
