# summary: a ReLU layer trained with fit whose bias starts at a small negative constant (a sparsity prior) and whose kernel is He-initialised: most units still fire, so every weight trains
import keras
import numpy as np

keras.utils.set_random_seed(3)

rng = np.random.default_rng(44)
x = rng.normal(size=(128, 6)).astype("float32")
y = (np.sin(x[:, :1]) + 0.3 * x[:, 3:4]).astype("float32")
model = keras.Sequential([
    keras.Input((6,)),
    keras.layers.Dense(16, activation="relu", kernel_initializer="he_normal",
                       bias_initializer=keras.initializers.Constant(-0.05), name="sparse"),
    keras.layers.Dense(1, name="head"),
], name="sparse_net")
model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights))
