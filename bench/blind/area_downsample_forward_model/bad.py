# source: https://github.com/CosmoStat/wf-psf/issues/16
# cause: non-differentiable-op
# weights: psf/field/kernel, psf/field/bias
# mode: function
# summary: a forward model predicts a high-resolution image and downsamples it with tf.image.resize(method="area") to compare with the observed pixels; ResizeArea has no gradient, so tape.gradient raises LookupError
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(16)
params = tf.constant(rng.normal(size=(16, 3)).astype("float32"))
observed = tf.constant(rng.uniform(size=(16, 4, 4, 1)).astype("float32"))
model = tf.keras.Sequential([tf.keras.Input((3,)),
                             tf.keras.layers.Dense(64, activation="softplus", name="field"),
                             tf.keras.layers.Reshape((8, 8, 1))], name="psf")
optimizer = tf.keras.optimizers.Adam(1e-3)


@tf.function
def fit_step(p, target):
    with tf.GradientTape() as tape:
        high = model(p, training=True)
        low = tf.image.resize(high, (4, 4), method="area")  # expect: non-differentiable-op primary
        loss = tf.reduce_mean(tf.square(low - target))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


print(float(fit_step(params, observed)))
