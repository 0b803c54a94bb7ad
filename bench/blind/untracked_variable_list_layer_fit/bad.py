# source: https://github.com/keras-team/keras/issues/16797
# cause: sources-mismatch
# weights: gain0, gain1
# mode: fit
# summary: a Keras 3 layer appends raw tf.Variable gains to a list in build(); Keras 3 does not track them, so fit never trains them
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(16797)
x = rng.normal(size=(64, 2)).astype("float32")
y = (x * np.array([2.0, -1.0], dtype="float32")).sum(axis=1, keepdims=True)


class FeatureGains(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.gains = []
        for i in range(input_shape[-1]):
            self.gains.append(tf.Variable(1.0, name=f"gain{i}"))  # expect: sources-mismatch primary

    def call(self, inputs):
        columns = [inputs[:, i:i + 1] * gain for i, gain in enumerate(self.gains)]
        return tf.concat(columns, axis=-1)


model = tf.keras.Sequential([tf.keras.Input((2,)), FeatureGains(name="gains"),
                             tf.keras.layers.Dense(1, name="out")], name="scaled")
model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse")
layer = model.get_layer("gains")
before = [float(g.numpy()) for g in layer.gains]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
print("trainable:", [w.path for w in model.trainable_weights])
print("gains before/after:", before, [float(g.numpy()) for g in layer.gains])
