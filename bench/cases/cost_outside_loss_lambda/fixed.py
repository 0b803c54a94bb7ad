# summary: the cost is computed inside the callable, so the minimiser's tape records it
import tensorflow as tf

tf.keras.utils.set_random_seed(0)


def minimize(loss_fn, var_list, lr=0.5):
    with tf.GradientTape() as tape:
        value = loss_fn()
    grads = tape.gradient(value, var_list)
    for g, v in zip(grads, var_list, strict=False):
        if g is None:
            raise ValueError(f"No gradients provided for any variable: {v.name}")
        v.assign_sub(lr * g)
    return grads


y_n = tf.Variable([1.0, 2.0, 3.0], name="dd")


def loss():
    return -tf.reduce_mean(tf.reduce_sum(tf.math.log(y_n), axis=0))


grads = minimize(loss, var_list=[y_n])
assert all(g is not None and float(tf.reduce_max(tf.abs(g))) > 0 for g in grads)
