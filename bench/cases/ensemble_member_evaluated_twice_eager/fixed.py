# summary: each member is evaluated on its own bootstrap half, so both get gradients
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(9)
rng = np.random.default_rng(9)
x = rng.normal(size=(40, 3)).astype("float32")
y = (x @ np.array([[1.0], [-2.0], [0.5]], dtype="float32")).astype("float32")
half_a, half_b = slice(0, 20), slice(20, 40)


class Ensemble:
    def __init__(self):
        self.members = [self._member(tag) for tag in ("a", "b")]

    @staticmethod
    def _member(tag):
        return tf.keras.Sequential([tf.keras.Input((3,)),
                                    tf.keras.layers.Dense(5, activation="tanh", name=f"{tag}_hidden"),
                                    tf.keras.layers.Dense(1, name=f"{tag}_out")], name=f"member_{tag}")

    def variables(self):
        return [v for m in self.members for v in m.trainable_variables]


ensemble = Ensemble()
first, second = ensemble.members
with tf.GradientTape() as tape:
    pred_a = first(x[half_a])
    pred_b = second(x[half_b])
    loss = tf.reduce_mean((pred_a - y[half_a]) ** 2) + tf.reduce_mean((pred_b - y[half_b]) ** 2)
grads = tape.gradient(loss, ensemble.variables())
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads), grads
print("ok")
