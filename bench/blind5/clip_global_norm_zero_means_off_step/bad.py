# source: https://github.com/OpenNMT/OpenNMT-py/issues/1140
# cause: zero-at-runtime
# weights: reg/clip_hidden/kernel, reg/clip_hidden/bias, reg/clip_out/kernel, reg/clip_out/bias
# mode: function
# summary: a training config uses max_grad_norm = 0.0 to mean "no clipping" (as some toolkits do) and the step passes it straight to tf.clip_by_global_norm; a clip norm of 0 scales every gradient to exactly zero, so no weight ever changes
# lint: no (the clip norm is a config value)
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
    grads, _ = tf.clip_by_global_norm(grads, config["max_grad_norm"])  # expect: zero-at-runtime primary
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


before = [v.numpy().copy() for v in model.trainable_variables]
for _ in range(3):
    train_step(x, y)
print("changed:", [bool(np.any(b != v.numpy())) for b, v in zip(before, model.trainable_variables)])
