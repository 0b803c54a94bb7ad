# source: https://github.com/tensorflow/tensorflow/issues/14894
# cause: non-differentiable-op|integer-dtype
# weights: toner/curve/kernel, toner/curve/bias
# mode: function
# summary: a tone-mapping network is trained to match the target's intensity histogram computed with tf.histogram_fixed_width; the bin counts are integers with no gradient, so apply_gradients gets no gradient for any variable
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(14894)
pixels = tf.constant(rng.uniform(size=(256, 1)).astype("float32"))
target = tf.constant(np.sqrt(rng.uniform(size=(256, 1))).astype("float32"))
model = tf.keras.Sequential([tf.keras.Input((1,)),
                             tf.keras.layers.Dense(1, activation="sigmoid", name="curve")],
                            name="toner")
optimizer = tf.keras.optimizers.Adam(1e-2)


def histogram(values):
    counts = tf.histogram_fixed_width(values, [0.0, 1.0], nbins=8)  # expect: non-differentiable-op|integer-dtype primary
    return tf.cast(counts, tf.float32) / tf.cast(tf.size(values), tf.float32)


@tf.function
def train_step(x, reference):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(histogram(model(x)) - histogram(reference)))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


print(float(train_step(pixels, target)))
