# source: https://github.com/google/objax/issues/174
# summary: a Keras 3 model keeps an EMA of its output layer's kernel in a plain helper object holding a variable; the helper writes that variable itself (assign), it is a copy, not a weight to train, and fit trains every real weight
import numpy as np
import keras
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(174)
x = rng.normal(size=(64, 3)).astype("float32")
y = (x @ np.array([[1.0], [-0.5], [2.0]], dtype="float32")).astype("float32")


class KernelAverage:
    def __init__(self, shape):
        self.shadow = keras.Variable(np.zeros(shape, dtype="float32"), name="kernel_ema")

    def update(self, kernel, decay=0.9):
        self.shadow.assign(decay * self.shadow + (1.0 - decay) * kernel)


class AveragedRegressor(keras.Model):
    def __init__(self):
        super().__init__(name="averaged")
        self.out = keras.layers.Dense(1, name="out")
        self.average = KernelAverage((3, 1))

    def call(self, inputs):
        return self.out(inputs)


class TrackAverage(keras.callbacks.Callback):
    def on_train_batch_end(self, batch, logs=None):
        self.model.average.update(self.model.out.kernel)


model = AveragedRegressor()
model.compile(optimizer=keras.optimizers.Adam(5e-2), loss="mse")
model(x[:1])
before = [keras.ops.convert_to_numpy(w) for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=16, verbose=0, callbacks=[TrackAverage()])
assert len(before) == 2
assert all(np.any(b != keras.ops.convert_to_numpy(w)) for b, w in zip(before, model.trainable_weights))
assert float(tf.reduce_max(tf.abs(model.average.shadow))) > 0
