# source: https://keras.io/api/optimizers/learning_rate_schedules/
# summary: a regressor is trained with a learning-rate schedule whose warmup starts at exactly 0 (the first update is a no-op by design) and rises linearly; after the first steps every weight changes under fit
import keras
import numpy as np

keras.utils.set_random_seed(0)


class LinearWarmup(keras.optimizers.schedules.LearningRateSchedule):
    def __init__(self, peak, warmup_steps):
        self.peak, self.warmup_steps = peak, warmup_steps

    def __call__(self, step):
        step = keras.ops.cast(step, "float32")
        return self.peak * keras.ops.minimum(step / self.warmup_steps, 1.0)

    def get_config(self):
        return {"peak": self.peak, "warmup_steps": self.warmup_steps}


rng = np.random.default_rng(55)
x = rng.normal(size=(64, 5)).astype("float32")
y = (x @ rng.normal(size=(5, 1))).astype("float32")

model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(8, activation="relu", name="warm_hidden"),
                          keras.layers.Dense(1, name="warm_out")], name="warmup_regressor")
model.compile(optimizer=keras.optimizers.Adam(LinearWarmup(1e-2, 8)), loss="mse")
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(x, y, epochs=3, batch_size=16, verbose=0)
changed = {w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights}
assert len(changed) == 4 and all(changed.values()), changed
