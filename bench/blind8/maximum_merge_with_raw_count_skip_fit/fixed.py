# summary: the counts are standardised by an adapted Normalization layer before both paths, so the tanh branch wins the maximum on part of the batch and every weight changes under fit
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(507201)
counts = rng.uniform(20.0, 100.0, size=(64, 4)).astype("float32")
demand = (counts @ rng.uniform(0.0, 0.1, size=(4, 1))).astype("float32")

scale = keras.layers.Normalization(name="count_scale")
scale.adapt(counts)
inputs = keras.Input((4,))
scaled = scale(inputs)
branch = keras.layers.Dense(4, activation="tanh", name="learned_branch")(scaled)
merged = keras.layers.Maximum(name="skip_max")([scaled, branch])
output = keras.layers.Dense(1, name="demand_head")(merged)
model = keras.Model(inputs, output, name="demand_model")
model.compile(optimizer="adam", loss="mse")
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(counts, demand, epochs=2, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights}
assert len(changed) == 4 and all(changed.values()), changed
