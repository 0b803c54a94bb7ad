# summary: a LearningRateSchedule subclass with linear warmup from 0 then cosine decay, chosen by tf.cond on the step counter (the first step's learning rate is exactly 0), fit
# source: https://keras.io/examples/vision/image_classification_with_vision_transformer/
import math
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(12)
rng = np.random.default_rng(12)
x = rng.normal(size=(64, 6)).astype("float32")
y = rng.integers(0, 2, size=(64,))


class WarmUpCosine(keras.optimizers.schedules.LearningRateSchedule):
    def __init__(self, base, total, warmup):
        super().__init__()
        self.base, self.total, self.warmup = base, total, warmup

    def __call__(self, step):
        step = tf.cast(step, tf.float32)
        cosine = 0.5 * self.base * (1 + tf.cos(math.pi * (step - self.warmup)
                                               / float(self.total - self.warmup)))
        warm = self.base * step / self.warmup
        return tf.cond(step < self.warmup, lambda: warm, lambda: cosine)

    def get_config(self):
        return {"base": self.base, "total": self.total, "warmup": self.warmup}


model = keras.Sequential([keras.Input((6,)), layers.Dense(8, activation="relu", name="h"),
                          layers.Dense(2, name="out")])
model.compile(keras.optimizers.AdamW(WarmUpCosine(1e-2, 20, 4), weight_decay=1e-4),
              keras.losses.SparseCategoricalCrossentropy(from_logits=True))
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, batch_size=8, epochs=1, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
