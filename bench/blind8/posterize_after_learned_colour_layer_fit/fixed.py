# summary: the posterization augmentation comes first, on the raw images, and the learned colour correction after it, so every trained layer is downstream of the augmentation and changes under fit
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(2)
images = rng.uniform(0.0, 255.0, size=(32, 8, 8, 3)).astype("float32")
labels = (images[:, :, :, 0].mean(axis=(1, 2)) > 127.5).astype("int32")

model = keras.Sequential([keras.Input((8, 8, 3)),
                          keras.layers.RandomPosterization(factor=(2, 4), value_range=(0, 255), name="posterize"),
                          keras.layers.Conv2D(3, 1, name="colour_correct"),
                          keras.layers.Rescaling(1.0 / 255.0),
                          keras.layers.GlobalAveragePooling2D(),
                          keras.layers.Dense(2, name="colour_logits")], name="colour_net")
model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(images, labels, epochs=2, batch_size=8, verbose=0)
changed = {w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights}
assert len(changed) == 4 and all(changed.values()), changed
