# summary: the same ranking model with a small positive constant bias on its ReLU layer: every unit starts active and every weight trains
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(1927)
features = rng.uniform(0.0, 1.0, size=(128, 5)).astype("float32")
relevance = (features @ np.array([0.5, -0.2, 0.3, 0.1, 0.0], dtype="float32"))[:, None]

inputs = keras.Input((5,), name="features")
hidden = keras.layers.Dense(
    6, activation="relu", name="score_hidden",
    bias_initializer=keras.initializers.Constant(0.1),
)(inputs)
score = keras.layers.Dense(1, name="score")(hidden)
model = keras.Model(inputs, score, name="ranker")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(features, relevance, epochs=2, batch_size=32, verbose=0)
assert all(np.any(b != w.numpy()) for b, w in zip(before, model.trainable_weights))
