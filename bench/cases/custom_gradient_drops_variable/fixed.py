# summary: the gradient function returns d(loss)/d(margin_w) for the variable
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

margin_w = tf.Variable([10.0], name="margin_w")


@tf.custom_gradient
def margin_product(x):
    def grad(dy, variables=None):
        return dy * margin_w, [tf.reduce_sum(dy * x, keepdims=True) for _ in variables]
    return x * margin_w, grad


x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(margin_product(x))
g = tape.gradient(loss, margin_w)
assert g is not None and float(tf.reduce_max(tf.abs(g))) > 0
