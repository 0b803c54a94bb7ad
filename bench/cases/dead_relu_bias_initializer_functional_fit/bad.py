# source: https://github.com/pytorch/benchmark/pull/1927
# cause: zero-at-runtime
# rule: TM501
# weights: score_hidden/kernel, score_hidden/bias, score/kernel
# mode: fit
# summary: a functional ranking model trained with fit builds its hidden ReLU layer with a large negative constant bias; every pre-activation starts below zero, so the layer outputs zeros, it gets zero gradients, and the score kernel that reads those zeros gets none either
# lint: no (zero at run time: only the initial values show that every ReLU is off)
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(1927)
features = rng.uniform(0.0, 1.0, size=(128, 5)).astype("float32")
relevance = (features @ np.array([0.5, -0.2, 0.3, 0.1, 0.0], dtype="float32"))[:, None]

inputs = keras.Input((5,), name="features")
hidden = keras.layers.Dense(
    6, activation="relu", name="score_hidden",
    bias_initializer=keras.initializers.Constant(-12.0),  # expect: zero-at-runtime primary
)(inputs)
score = keras.layers.Dense(1, name="score")(hidden)
model = keras.Model(inputs, score, name="ranker")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(features, relevance, epochs=2, batch_size=32, verbose=0)
print("changed:", [bool(np.any(b != w.numpy())) for b, w in zip(before, model.trainable_weights)])
