# source: https://stats.stackexchange.com/questions/507201/gradient-calculation-with-backpropagation-through-max-function/507243
# cause: zero-at-runtime
# rule: -
# weights: learned_branch/kernel, learned_branch/bias
# mode: fit
# summary: a demand model merges a skip path with a learned tanh branch by keras.layers.Maximum; the skip path carries the raw daily counts (20 to 100) while the tanh branch stays inside (-1, 1), so the maximum always picks the skip path, the branch gets exactly zero gradient and fit never changes it while the head trains
# lint: no (Maximum is differentiable; the scales of its inputs decide which one wins)
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(507201)
counts = rng.uniform(20.0, 100.0, size=(64, 4)).astype("float32")
demand = (counts @ rng.uniform(0.0, 0.1, size=(4, 1))).astype("float32")

inputs = keras.Input((4,))
branch = keras.layers.Dense(4, activation="tanh", name="learned_branch")(inputs)
merged = keras.layers.Maximum(name="skip_max")([inputs, branch])  # expect: zero-at-runtime primary
output = keras.layers.Dense(1, name="demand_head")(merged)
model = keras.Model(inputs, output, name="demand_model")
model.compile(optimizer="adam", loss="mse")
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(counts, demand, epochs=2, batch_size=16, verbose=0)
print({w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights})
