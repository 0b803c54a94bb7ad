# source: https://github.com/pytorch/ao/pull/2280
# cause: non-differentiable-op|zero-at-runtime
# rule: TM201
# weights: qnet/act_quant/clip_lo, qnet/act_quant/clip_hi
# mode: fit
# summary: a Keras layer with a learned activation range (two trainable weights) quantises its input with tf.quantization.quantize_and_dequantize_v2(range_given=True) inside a model trained by fit; the op's registered gradient passes the input straight through but fills the range inputs' gradients with zeros, so the range never trains
# lint: no (the op is differentiable in its input: only TensorFlow's gradient function says the range gets zeros)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)


class LearnedRangeQuant(keras.layers.Layer):
    def build(self, input_shape):
        self.clip_lo = self.add_weight(shape=(), initializer=keras.initializers.Constant(-1.0),
                                       name="clip_lo")
        self.clip_hi = self.add_weight(shape=(), initializer=keras.initializers.Constant(1.0),
                                       name="clip_hi")

    def call(self, x):
        return tf.quantization.quantize_and_dequantize_v2(  # expect: non-differentiable-op|zero-at-runtime primary
            x, self.clip_lo, self.clip_hi, num_bits=6, range_given=True)


rng = np.random.default_rng(2280)
x = rng.normal(size=(96, 4)).astype("float32")
y = (np.tanh(x[:, :1]) - 0.5 * x[:, 2:3]).astype("float32")
model = keras.Sequential([
    keras.Input((4,)),
    keras.layers.Dense(8, name="pre"),
    LearnedRangeQuant(name="act_quant"),
    keras.layers.Dense(1, name="post"),
], name="qnet")
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
start = [float(w.numpy()) for w in model.get_layer("act_quant").weights]
model.fit(x, y, epochs=2, batch_size=32, verbose=0)
print("range moved:", start != [float(w.numpy()) for w in model.get_layer("act_quant").weights])
