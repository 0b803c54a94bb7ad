# source: https://keras.io/examples/vision/oxford_pets_image_segmentation/
# summary: a small U-Net with RandomFlip/RandomRotation layers inside the model, skip connections by Concatenate, Conv2DTranspose upsampling, sparse categorical loss, a MeanIoU metric on argmax, fit with validation_data and ReduceLROnPlateau
import numpy as np
import keras
from keras import layers

keras.utils.set_random_seed(0)
inp = keras.Input((16, 16, 3))
x = keras.Sequential([layers.RandomFlip("horizontal"), layers.RandomRotation(0.1)], name="augment")(inp)
skips = []
for f in (8, 16):
    x = layers.Conv2D(f, 3, padding="same", activation="relu")(x)
    x = layers.BatchNormalization()(x)
    skips.append(x)
    x = layers.MaxPooling2D()(x)
x = layers.Conv2D(16, 3, padding="same", activation="relu")(x)
for f, skip in zip((16, 8), reversed(skips)):
    x = layers.Conv2DTranspose(f, 3, strides=2, padding="same")(x)
    x = layers.Concatenate()([x, skip])
    x = layers.Conv2D(f, 3, padding="same", activation="relu")(x)
out = layers.Conv2D(3, 1, activation="softmax")(x)
model = keras.Model(inp, out)
model.compile("adam", "sparse_categorical_crossentropy",
              metrics=[keras.metrics.MeanIoU(num_classes=3, sparse_y_pred=False)])
rng = np.random.default_rng(19)
x_all, y_all = rng.random((12, 16, 16, 3)).astype("float32"), rng.integers(0, 3, (12, 16, 16, 1))
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(x_all[:8], y_all[:8], validation_data=(x_all[8:], y_all[8:]), epochs=1, batch_size=4,
          verbose=0, callbacks=[keras.callbacks.ReduceLROnPlateau()])
assert all(not np.allclose(before[w.path], w.numpy()) for w in model.trainable_weights)
