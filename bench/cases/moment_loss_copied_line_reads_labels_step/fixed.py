# mode: function
# summary: the same step with the prediction's statistics computed from the model's output
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(46956)
inputs = rng.normal(size=(64, 6)).astype("float32")
labels = (inputs[:, :3] * 2.0 + 1.0).astype("float32")

model = tf.keras.Sequential([tf.keras.Input((6,)),
                             tf.keras.layers.Dense(12, activation="tanh", name="mo_hidden"),
                             tf.keras.layers.Dense(3, name="mo_out")], name="moments")
optimizer = tf.keras.optimizers.SGD(0.05)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        out = model(x, training=True)
        label_stats = tf.concat([tf.reduce_mean(y, 0), tf.math.reduce_std(y, 0)], axis=0)
        output_stats = tf.concat([tf.reduce_mean(out, 0), tf.math.reduce_std(out, 0)], axis=0)
        loss = tf.reduce_sum(tf.square(output_stats - label_stats))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(
        [(g, v) for g, v in zip(grads, model.trainable_variables) if g is not None])
    return grads


grads = train_step(inputs, labels)
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
