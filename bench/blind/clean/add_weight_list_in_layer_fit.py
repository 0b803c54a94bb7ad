# source: https://github.com/tensorflow/tensorflow/issues/38211
# summary: a layer keeps a list of per-stage scalar weights made with add_weight in build() (appended in a loop) and a frozen constant made with add_weight(trainable=False); Keras tracks them and fit trains the trainable ones
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(38211)
x = rng.normal(size=(64, 3)).astype("float32")
y = (1.5 * x).astype("float32")


class StagedScale(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.stages = []
        for i in range(3):
            self.stages.append(self.add_weight(shape=(), initializer="ones", name=f"stage{i}"))
        self.offset = self.add_weight(shape=(), initializer="zeros", trainable=False,
                                      name="offset")

    def call(self, inputs):
        out = inputs
        for stage in self.stages:
            out = out * stage
        return out + self.offset


model = tf.keras.Sequential([tf.keras.Input((3,)), StagedScale(name="staged")], name="scale")
model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0)
assert len(model.trainable_weights) == 3
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
