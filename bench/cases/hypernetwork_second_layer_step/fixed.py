# summary: the target model runs statelessly with the generated kernel in place of its own
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(41)
x = rng.normal(size=(16, 4)).astype("float32")
y = rng.normal(size=(16, 2)).astype("float32")
task = rng.normal(size=(1, 3)).astype("float32")
target = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                              tf.keras.layers.Dense(6, activation="relu", name="a"),
                              tf.keras.layers.Dense(2, name="b")], name="target")
generator = tf.keras.Sequential([tf.keras.layers.Input((3,)),
                                 tf.keras.layers.Dense(12, name="code")], name="gen")
optimizer = tf.keras.optimizers.Adam(1e-3)


@tf.function
def train_step(features, labels, z):
    with tf.GradientTape() as tape:
        kernel = tf.reshape(generator(z), (6, 2))
        values = [kernel if v is target.layers[1].kernel else v
                  for v in target.trainable_variables]
        out, _ = target.stateless_call(values, target.non_trainable_variables, features)
        loss = tf.reduce_mean(tf.square(out - labels))
    grads = tape.gradient(loss, generator.trainable_variables)
    optimizer.apply_gradients(zip(grads, generator.trainable_variables, strict=False))
    return loss, grads


loss, grads = train_step(x, y, task)
print(float(loss))
assert all(float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
