# source: https://github.com/tensorflow/tensorflow/issues/42167
# cause: outside-tape
# rule: TM103
# weights: dd
# mode: eager
# summary: the cost is computed once, outside the loss callable that the minimiser records
# lint: yes
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


y_n = tf.Variable([1.0, 2.0, 3.0], name="dd")
cost = -tf.reduce_mean(tf.reduce_sum(tf.math.log(y_n), axis=0))  # expect: outside-tape primary
loss = lambda: cost  # noqa: E731  # accept: outside-tape
minimize(loss, var_list=[y_n])
