# source: https://github.com/RobotLocomotion/pytorch-dense-correspondence/issues/82
# summary: a dense-prediction conv net with Conv2D -> BatchNormalization is trained with batch_size=1 (one large image per step); BatchNormalization on conv features averages over the batch and the spatial positions, so one image still gives 64 values per channel, the normalised features are not constant, and every weight changes
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(82)
x = rng.normal(size=(8, 8, 8, 3)).astype("float32")
y = x[..., :1] * 0.5 + x[..., 1:2]

model = keras.Sequential([keras.Input((8, 8, 3)),
                          keras.layers.Conv2D(6, 3, padding="same", name="dc_conv"),
                          keras.layers.BatchNormalization(name="dc_bn"),
                          keras.layers.ReLU(name="dc_relu"),
                          keras.layers.Conv2D(1, 1, name="dc_out")], name="dense_corr")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=1, batch_size=1, verbose=0)
assert len(before) == 6
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights, strict=True))
