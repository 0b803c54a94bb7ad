# source: https://github.com/tensorflow/tensorflow/issues/59960
# cause: non-differentiable-op|zero-at-runtime
# weights: act_min, act_max
# mode: function
# summary: quantisation-aware training with a learned activation range passes the range variables to tf.quantization.quantize_and_dequantize_v2(range_given=True); that op's registered gradient gives the input a straight-through gradient but exact zeros to input_min and input_max, so the Dense layers train while the range never moves
# lint: no (the op is differentiable in its input: only TensorFlow's gradient function says the range inputs get zeros)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(59960)
x = rng.normal(size=(128, 5)).astype("float32")
y = (2.0 * np.sin(x[:, :1]) + x[:, 1:2]).astype("float32")

encoder = tf.keras.layers.Dense(8, name="pre_quant")
head = tf.keras.layers.Dense(1, name="post_quant")
act_min = tf.Variable(-0.5, name="act_min")
act_max = tf.Variable(0.5, name="act_max")
encoder.build((None, 5))
head.build((None, 8))
optimizer = tf.keras.optimizers.Adam(5e-2)
sources = encoder.trainable_variables + head.trainable_variables + [act_min, act_max]


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        h = encoder(features)
        hq = tf.quantization.quantize_and_dequantize_v2(h, act_min, act_max, num_bits=4,  # expect: non-differentiable-op|zero-at-runtime primary
                                                        range_given=True)
        loss = tf.reduce_mean(tf.square(head(hq) - targets))
    grads = tape.gradient(loss, sources)
    optimizer.apply_gradients(zip(grads, sources))
    return loss


start = (act_min.numpy(), act_max.numpy())
for _ in range(5):
    train_step(x, y)
print("range moved:", (act_min.numpy(), act_max.numpy()) != start)
