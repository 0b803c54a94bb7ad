# summary: fit with a learning-rate schedule that warms up linearly from zero: the first step moves nothing, later ones move every weight
import numpy as np
import keras

keras.utils.set_random_seed(0)
rng = np.random.default_rng(8)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x[:, :1] - x[:, 1:2]).astype("float32")


class Warmup(keras.optimizers.schedules.LearningRateSchedule):
    def __call__(self, step):
        return 1e-2 * keras.ops.minimum(keras.ops.cast(step, "float32") / 4.0, 1.0)


model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, "tanh", name="hidden"),
                          keras.layers.Dense(1, name="out")])
model.compile(optimizer=keras.optimizers.Adam(Warmup()), loss="mse")
start = [v.numpy().copy() for v in model.trainable_variables]
model.fit(x, y, batch_size=8, epochs=1, verbose=0)
assert all(not np.allclose(s, v.numpy()) for s, v in zip(start, model.trainable_variables))
