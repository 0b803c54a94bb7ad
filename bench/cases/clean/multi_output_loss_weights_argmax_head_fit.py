# summary: a functional model with two trained outputs weighted by loss_weights and a third output, the argmax class, compiled with no loss (a metric-only output with no weights of its own), fit
# source: https://keras.io/guides/functional_api/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(9)
rng = np.random.default_rng(9)
x = rng.normal(size=(48, 10)).astype("float32")
y_cls = rng.integers(0, 3, size=(48,))
y_reg = rng.normal(size=(48, 1)).astype("float32")

inp = keras.Input((10,), name="features")
h = layers.Dense(16, activation="relu", name="trunk")(inp)
probs = layers.Dense(3, activation="softmax", name="cls")(h)
value = layers.Dense(1, name="reg")(h)
pred_class = layers.Lambda(lambda p: tf.argmax(p, axis=-1), name="pred_class")(probs)
model = keras.Model(inp, {"cls": probs, "reg": value, "pred_class": pred_class})
model.compile(optimizer="adam",
              loss={"cls": "sparse_categorical_crossentropy", "reg": "mse", "pred_class": None},
              loss_weights={"cls": 1.0, "reg": 0.5, "pred_class": None},
              metrics={"cls": ["accuracy"]})
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, {"cls": y_cls, "reg": y_reg, "pred_class": y_cls}, batch_size=16, epochs=1, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
