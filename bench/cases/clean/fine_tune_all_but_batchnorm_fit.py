# source: https://keras.io/guides/transfer_learning/
# summary: fine-tuning that unfreezes a pretrained base except its BatchNormalization layers (set trainable=False in a loop over base.layers), the base called with training=False, then compile and fit
import numpy as np
import keras

keras.utils.set_random_seed(0)
base = keras.Sequential([keras.Input((8, 8, 3)), keras.layers.Conv2D(4, 3, name="conv1"),
                         keras.layers.BatchNormalization(name="bn1"), keras.layers.ReLU(),
                         keras.layers.Conv2D(4, 3, name="conv2"),
                         keras.layers.BatchNormalization(name="bn2"), keras.layers.ReLU()],
                        name="base")
for layer in base.layers:
    layer.trainable = not isinstance(layer, keras.layers.BatchNormalization)
inp = keras.Input((8, 8, 3))
h = base(inp, training=False)
h = keras.layers.GlobalAveragePooling2D()(h)
out = keras.layers.Dense(1, name="head")(h)
model = keras.Model(inp, out)
model.compile(keras.optimizers.Adam(1e-3), keras.losses.BinaryCrossentropy(from_logits=True))
rng = np.random.default_rng(9)
x, y = rng.random((16, 8, 8, 3)).astype("float32"), rng.integers(0, 2, (16, 1))
trainable = [w.path for w in model.trainable_weights]
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(x, y, epochs=1, batch_size=8, verbose=0)
assert not any("bn" in p for p in trainable)
assert all(not np.allclose(before[w.path], w.numpy()) for w in model.trainable_weights)
