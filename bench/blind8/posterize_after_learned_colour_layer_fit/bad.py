# source: https://github.com/moskomule/dda/issues/2
# cause: integer-dtype|non-differentiable-op
# rule: -
# weights: colour_net/colour_correct/kernel, colour_net/colour_correct/bias
# mode: fit
# summary: a classifier starts with a learned 1x1 colour-correction convolution and puts keras.layers.RandomPosterization after it as in-model augmentation; posterization rounds the pixels to 8-bit integers and masks their low bits, so the colour layer gets no gradient ("Gradients do not exist") and never changes under fit while the layers after the augmentation train
# lint: no (RandomPosterization is a valid augmentation layer; its place after a trained layer is the bug)
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(2)
images = rng.uniform(0.0, 255.0, size=(32, 8, 8, 3)).astype("float32")
labels = (images[:, :, :, 0].mean(axis=(1, 2)) > 127.5).astype("int32")

model = keras.Sequential([keras.Input((8, 8, 3)),
                          keras.layers.Conv2D(3, 1, name="colour_correct"),
                          keras.layers.RandomPosterization(factor=(2, 4), value_range=(0, 255), name="posterize"),  # expect: integer-dtype|non-differentiable-op primary
                          keras.layers.Rescaling(1.0 / 255.0),
                          keras.layers.GlobalAveragePooling2D(),
                          keras.layers.Dense(2, name="colour_logits")], name="colour_net")
model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(images, labels, epochs=2, batch_size=8, verbose=0)
print({w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights})
