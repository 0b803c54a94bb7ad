import tensorflow as tf

w = tf.Variable(2.0)


def loss_of(v):
    host = v.numpy()          # line 7: the cut; graph mode names a line of autograph's temp file
    return tf.reduce_sum(host)


@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = loss_of(w * 3.0)
    return tape.gradient(loss, [w])


try:
    step()
except AttributeError as e:
    print("caught", type(e).__name__)
