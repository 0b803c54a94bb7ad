# source: https://github.com/keras-team/keras/issues/11143
# cause: variable-assign
# rule: TM402
# weights: gen/code/kernel, gen/code/bias
# mode: function
# summary: a generator's reshaped output is assigned as the kernel of a target's second layer
# lint: yes
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
        h = generator(z)
        target.layers[1].kernel.assign(tf.reshape(h, (6, 2)))  # expect: variable-assign primary
        out = target(features)
        loss = tf.reduce_mean(tf.square(out - labels))
    grads = tape.gradient(loss, generator.trainable_variables)
    optimizer.apply_gradients(zip(grads, generator.trainable_variables, strict=False))
    return loss


print(float(train_step(x, y, task)))
