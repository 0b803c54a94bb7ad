# source: https://github.com/qualcomm/aimet/issues/2467
# cause: non-differentiable-op|integer-dtype
# rule: TM201
# weights: qat_net/qat_hidden/kernel, qat_net/qat_hidden/bias
# mode: fit
# summary: simulated 8-bit activations written with the deployment ops in a Lambda: quantize makes a quint8 tensor (no gradient), dequantize after it has no registered gradient either, so fit's gradient raises LookupError; the first op to replace is the quantize, the dequantize only sees its output
# lint: no (the dequantize line is hinted too)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(2467)
x = rng.normal(size=(64, 4)).astype("float32")
y = (x[:, :1] * 2.0 - x[:, 1:2]).astype("float32")


def simulate_uint8(h):
    q, lo, hi = tf.quantization.quantize(h, 0.0, 8.0, tf.quint8)  # expect: non-differentiable-op|integer-dtype primary
    return tf.quantization.dequantize(q, lo, hi)  # accept: non-differentiable-op


model = keras.Sequential([keras.Input((4,)),
                          keras.layers.Dense(16, activation="relu", name="qat_hidden"),
                          keras.layers.Lambda(simulate_uint8, name="qat_uint8"),
                          keras.layers.Dense(1, name="qat_out")], name="qat_net")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
try:
    model.fit(x, y, epochs=1, batch_size=16, verbose=0)
except LookupError as error:
    print("fit raised:", error)
