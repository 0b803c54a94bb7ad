# source: https://github.com/keras-team/keras/issues/15479
# summary: mixed_float16 policy, a LossScaleOptimizer custom step that scales the loss and unscales the gradients in a tf.function
import numpy as np
import tensorflow as tf

tf.keras.mixed_precision.set_global_policy("mixed_float16")
tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(15479)
x = rng.normal(size=(32, 6)).astype("float32")
y = rng.normal(size=(32, 1)).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Input((6,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(1, name="out", dtype="float32")], name="mp_reg")
optimizer = tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.Adam(0.01))


@tf.function
def train_step(features, target):
    with tf.GradientTape() as tape:
        pred = model(features, training=True)
        loss = tf.reduce_mean(tf.square(pred - target))
        scaled = optimizer.scale_loss(loss)
    grads = tape.gradient(scaled, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=False))
    return loss


before = [w.numpy().copy() for w in model.trainable_weights]
for _ in range(2):
    print(float(train_step(x, y)))
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=False))
