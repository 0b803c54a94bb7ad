# source: https://github.com/watakandai/hiro_pytorch/issues/9
# cause: not-connected
# weights: member_b/b_hidden/kernel, member_b/b_hidden/bias, member_b/b_out/kernel, member_b/b_out/bias
# mode: eager
# summary: a two-member ensemble fitted on two bootstrap halves evaluates the first member on both halves (the second call should use the second member), so the second member's gradients are None
# lint: no (the sources come from a method over a list of members; which member each half was meant for is not visible)
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
    pred_b = first(x[half_b])  # expect: not-connected primary
    loss = tf.reduce_mean((pred_a - y[half_a]) ** 2) + tf.reduce_mean((pred_b - y[half_b]) ** 2)
grads = tape.gradient(loss, ensemble.variables())
print("member_b grads None:", [g is None for g in grads[4:]])
