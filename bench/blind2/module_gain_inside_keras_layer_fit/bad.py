# source: https://github.com/tensorflow/tensorflow/issues/47264
# cause: sources-mismatch
# weights: gain
# mode: fit
# summary: a Keras 3 layer keeps its learned output gain inside a tf.Module attribute; Keras layers do not track tf.Module variables, so the gain is in no trainable_weights and fit never changes it
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(47264)
x = rng.normal(size=(64, 4)).astype("float32")
y = 2.5 * (x @ np.array([[1.0], [-2.0], [0.5], [3.0]], dtype="float32"))


class GainModule(tf.Module):
    def __init__(self):
        super().__init__(name="gain_module")
        self.gain = tf.Variable(1.0, name="gain")  # accept: sources-mismatch


class ScaledDense(tf.keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.proj = tf.keras.layers.Dense(units, name="proj")
        self.scale = GainModule()  # expect: sources-mismatch primary

    def call(self, inputs):
        return self.proj(inputs) * self.scale.gain


model = tf.keras.Sequential([tf.keras.Input((4,)), ScaledDense(1, name="scaled")], name="regressor")
model.compile(optimizer=tf.keras.optimizers.Adam(5e-2), loss="mse")
gain_before = float(model.layers[0].scale.gain.numpy())
model.fit(x, y, epochs=3, batch_size=16, verbose=0)
print("trainable:", [w.path for w in model.trainable_weights])
print("gain changed:", float(model.layers[0].scale.gain.numpy()) != gain_before)
