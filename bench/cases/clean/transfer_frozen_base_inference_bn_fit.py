# summary: transfer learning: a convolutional base with BatchNormalization frozen (base.trainable=False) and called with training=False inside a new functional model, a new head trained with fit
# source: https://keras.io/guides/transfer_learning/
import numpy as np
import keras
from keras import layers

keras.utils.set_random_seed(23)
rng = np.random.default_rng(23)
x = rng.uniform(size=(32, 16, 16, 3)).astype("float32")
y = rng.integers(0, 2, size=(32,))
base = keras.Sequential([keras.Input((16, 16, 3)), layers.Conv2D(8, 3, name="c1"),
                         layers.BatchNormalization(name="bn1"), layers.ReLU(),
                         layers.Conv2D(8, 3, name="c2"), layers.BatchNormalization(name="bn2"),
                         layers.ReLU()], name="base")
base.trainable = False
inp = keras.Input((16, 16, 3))
h = layers.RandomFlip("horizontal")(inp)
h = base(h, training=False)
h = layers.GlobalAveragePooling2D()(h)
h = layers.Dropout(0.2)(h)
out = layers.Dense(1, name="head")(h)
model = keras.Model(inp, out)
model.compile(keras.optimizers.Adam(), keras.losses.BinaryCrossentropy(from_logits=True))
frozen = [w.numpy().copy() for w in base.weights]
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, batch_size=8, epochs=1, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
assert all(np.allclose(b, w.numpy()) for b, w in zip(frozen, base.weights))
