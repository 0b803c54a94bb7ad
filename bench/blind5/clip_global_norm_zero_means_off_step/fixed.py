# summary: clipping is applied only when max_grad_norm is positive, so "0 = off" leaves the gradients alone and every weight changes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(1140)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x @ rng.normal(size=(4, 1))).astype("float32")
config = {"lr": 1e-2, "max_grad_norm": 0.0}

model = tf.keras.Sequential([tf.keras.Input((4,)),
                             tf.keras.layers.Dense(8, activation="relu", name="clip_hidden"),
                             tf.keras.layers.Dense(1, name="clip_out")], name="reg")
optimizer = tf.keras.optimizers.SGD(config["lr"])


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(features, training=True) - targets))
    grads = tape.gradient(loss, model.trainable_variables)
    if config["max_grad_norm"] > 0:
        grads, _ = tf.clip_by_global_norm(grads, config["max_grad_norm"])
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


before = [v.numpy().copy() for v in model.trainable_variables]
for _ in range(3):
    train_step(x, y)
assert len(before) == 4
assert all(np.any(b != v.numpy()) for b, v in zip(before, model.trainable_variables, strict=True))
