# summary: the L0 penalty is relaxed to the expected number of open gates, reduce_sum(sigmoid(gate_logits)), which is differentiable, so the gates get a gradient and move
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

gate_logits = tf.Variable(tf.linspace(-1.0, 2.0, 8), name="gate_logits")
optimizer = keras.optimizers.SGD(0.5)


@tf.function
def sparsity_step():
    with tf.GradientTape() as tape:
        gate = tf.sigmoid(gate_logits)
        penalty = tf.reduce_sum(gate) / 8.0
    grads = tape.gradient(penalty, [gate_logits])
    optimizer.apply_gradients(zip(grads, [gate_logits]))
    return grads


before = gate_logits.numpy().copy()
grads = sparsity_step()
assert grads[0] is not None and float(tf.reduce_sum(tf.abs(grads[0]))) > 0
assert np.all(before != gate_logits.numpy())
