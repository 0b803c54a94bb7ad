# summary: the regulariser penalises the scores themselves (no tf.unique): every weight trains
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(55)
x = rng.normal(size=(16, 3)).astype("float32")
y = rng.normal(size=(16,)).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((3,)),
                             tf.keras.layers.Dense(1, name="s")], name="scorer")
optimizer = tf.keras.optimizers.Adam(0.01)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        scores = tf.reshape(model(x), [-1])
        mse = tf.reduce_mean(tf.square(scores - y))
        loss = mse + 0.1 * tf.reduce_mean(tf.square(scores))
    grads = tape.gradient(loss, model.trainable_weights)
    optimizer.apply_gradients(zip(grads, model.trainable_weights))
    return loss


before = [w.numpy().copy() for w in model.trainable_weights]
for step in range(3):
    print(float(train_step(x, y)))
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
