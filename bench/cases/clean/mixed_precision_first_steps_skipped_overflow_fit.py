# summary: mixed_float16 regression on targets in the thousands with fit: the dynamic loss scale (2**15) makes the first steps' float16 gradients overflow, LossScaleOptimizer skips those updates and halves the scale until the steps apply
# source: https://www.tensorflow.org/guide/mixed_precision#loss_scaling
import numpy as np
import keras
from keras import layers

keras.utils.set_random_seed(59)
keras.mixed_precision.set_global_policy("mixed_float16")
try:
    rng = np.random.default_rng(59)
    x = rng.normal(size=(64, 4)).astype("float32")
    y = (rng.normal(size=(64, 1)) * 300 + 2000).astype("float32")
    model = keras.Sequential([keras.Input((4,)), layers.Dense(16, activation="relu", name="h"),
                              layers.Dense(1, name="out"),
                              layers.Activation("linear", dtype="float32", name="cast32")])
    model.compile(keras.optimizers.Adam(1e-2), "mse")
    before = [w.numpy().copy() for w in model.trainable_weights]
    model.fit(x, y, batch_size=4, epochs=2, verbose=0)
    print("loss scale now", float(model.optimizer.dynamic_scale))
    assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
finally:
    keras.mixed_precision.set_global_policy("float32")
