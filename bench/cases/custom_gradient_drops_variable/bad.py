# source: https://github.com/tensorflow/tensorflow/issues/21756
# cause: custom-gradient
# weights: margin_w
# mode: eager
# summary: a tf.custom_gradient margin layer returns None for the variable it reads
# lint: yes
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

margin_w = tf.Variable([10.0], name="margin_w")


@tf.custom_gradient
def margin_product(x):
    def grad(dy, variables=None):
        return dy * margin_w, [None for _ in variables]  # expect: custom-gradient primary
    return x * margin_w, grad


x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(margin_product(x))
print(tape.gradient(loss, margin_w))
