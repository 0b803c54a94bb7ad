# source: https://github.com/keras-team/keras/issues/2221
# cause: non-differentiable-op|integer-dtype
# rule: TM201
# weights: rounded_out/hidden/kernel, rounded_out/hidden/bias, rounded_out/score/kernel, rounded_out/score/bias
# mode: fit
# summary: to make a regressor output integers, a Discretization layer (where the report wrote a rounding layer) is appended to a Sequential model after its Dense layers and the model is trained by fit; bucket ids carry no gradient, so no weight gets one and fit raises
# lint: no (a Keras preprocessing layer's ops are only seen when it runs)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(2218)
features = rng.uniform(size=(64, 5)).astype("float32")
counts = rng.integers(0, 4, size=(64, 1)).astype("float32")

model = tf.keras.Sequential([
    tf.keras.Input((5,)),
    tf.keras.layers.Dense(6, activation="softplus", name="hidden"),
    tf.keras.layers.Dense(1, name="score"),
    tf.keras.layers.Discretization(bin_boundaries=[0.5, 1.5, 2.5], output_mode="int"),  # expect: non-differentiable-op|integer-dtype primary
], name="rounded_out")
model.compile(optimizer="sgd", loss="mean_squared_error")
try:
    model.fit(features, counts, epochs=1, batch_size=16, verbose=0)
except ValueError as error:
    print("fit raised:", error)
