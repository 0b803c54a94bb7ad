# summary: the same stem with use_bias=False on the Conv2D before the BatchNormalization: its beta is the only per-channel offset
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(7)
images = rng.normal(size=(32, 8, 8, 3)).astype("float32")
labels = rng.integers(0, 4, size=(32,))
model = keras.Sequential([
    keras.Input((8, 8, 3)),
    keras.layers.Conv2D(6, 3, padding="same", use_bias=False, name="conv"),
    keras.layers.BatchNormalization(name="bn"),
    keras.layers.Activation("relu"),
    keras.layers.GlobalAveragePooling2D(),
    keras.layers.Dense(4, name="logits"),
], name="stem")
model.compile(optimizer=keras.optimizers.SGD(0.05),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(images, labels, epochs=1, batch_size=16, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights))
