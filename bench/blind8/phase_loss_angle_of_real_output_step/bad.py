# source: https://github.com/tensorflow/tensorflow/issues/50854
# cause: non-differentiable-op
# rule: -
# weights: phase_net/phase_hidden/kernel, phase_net/phase_hidden/bias, phase_net/phase_spectrum/kernel, phase_net/phase_spectrum/bias
# mode: function
# summary: a spectrum model emits real and imaginary parts side by side in one real tensor; the phase loss calls tf.math.angle on that real tensor (the complex pair was never formed), and for a real input Angle is a comparison with pi or 0, so every gradient in the traced step is None
# lint: no (tf.math.angle is differentiable on complex input; the argument being real is a dtype fact)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(50854)
x = rng.normal(size=(32, 6)).astype("float32")
target_phase = rng.uniform(-np.pi, np.pi, size=(32, 4)).astype("float32")

model = keras.Sequential([keras.Input((6,)),
                          keras.layers.Dense(16, activation="tanh", name="phase_hidden"),
                          keras.layers.Dense(8, name="phase_spectrum")], name="phase_net")


@tf.function
def train_step(features, phase):
    with tf.GradientTape() as tape:
        spectrum = model(features, training=True)
        predicted_phase = tf.math.angle(spectrum)[:, :4]  # expect: non-differentiable-op primary
        loss = tf.reduce_mean(1.0 - tf.cos(predicted_phase - phase))
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(x, target_phase)
print({v.path: g is None for v, g in zip(model.trainable_variables, grads)})
