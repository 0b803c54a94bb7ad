# source: https://codingdict.net/questions/248564
# cause: non-differentiable-op|integer-dtype
# weights: gate_logits
# mode: function
# summary: a pruning phase minimises the number of open feature gates, counted as tf.math.count_nonzero(sigmoid(gate_logits) > 0.5) (an L0 penalty); the comparison and the integer count carry no gradient, so the gate's gradient is None and apply_gradients raises "No gradients provided for any variable"
# lint: yes
import keras
import tensorflow as tf

keras.utils.set_random_seed(0)

gate_logits = tf.Variable(tf.linspace(-1.0, 2.0, 8), name="gate_logits")
optimizer = keras.optimizers.SGD(0.5)


@tf.function
def sparsity_step():
    with tf.GradientTape() as tape:
        gate = tf.sigmoid(gate_logits)
        penalty = tf.cast(tf.math.count_nonzero(gate > 0.5), tf.float32) / 8.0  # expect: non-differentiable-op|integer-dtype primary
    grads = tape.gradient(penalty, [gate_logits])
    optimizer.apply_gradients(zip(grads, [gate_logits]))
    return penalty


try:
    sparsity_step()
except ValueError as err:
    print("ValueError:", err)
