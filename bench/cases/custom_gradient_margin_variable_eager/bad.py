# source: https://github.com/tensorflow/tensorflow/issues/43535
# cause: custom-gradient
# rule: TM203
# weights: margin
# mode: eager
# summary: a tf.custom_gradient function scales logits by a learned margin variable it reads inside, but its gradient function takes no `variables` argument; TensorFlow raises TypeError as the forward pass calls it, so no gradient call ever runs
# lint: no (the variable is read through a closure inside the decorated function)
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(21756)
x = tf.constant(rng.normal(size=(20, 5)).astype("float32"))
labels = tf.constant(rng.integers(0, 3, size=(20,)))
projection = tf.Variable(rng.normal(size=(5, 3)).astype("float32") * 0.1, name="projection")
margin = tf.Variable(4.0, name="margin")
optimizer = tf.keras.optimizers.SGD(0.1)


@tf.custom_gradient
def margin_logits(z):
    def grad(upstream):  # expect: custom-gradient primary
        return upstream * margin
    return z * margin, grad


for step in range(2):
    with tf.GradientTape() as tape:
        logits = margin_logits(tf.matmul(x, projection))
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))
    grads = tape.gradient(loss, [projection, margin])
    optimizer.apply_gradients(zip(grads, [projection, margin]))
    print(step, float(loss))
