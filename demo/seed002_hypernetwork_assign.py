"""Seed 002: a hypernetwork writes its predicted weights into a second network with assign.

NET1 predicts the weights of NET2; the user copies them in with `Variable.assign` inside the
tape, runs NET2 and asks for NET1's gradients with `unconnected_gradients=ZERO`: they are all
zero. An assignment is a state change, not an op the tape can differentiate through.

Run: python -m tapemagic run demo/seed002_hypernetwork_assign.py
"""

import tensorflow as tf

tf.random.set_seed(0)
net1 = tf.keras.Sequential([tf.keras.layers.Input((3,)), tf.keras.layers.Dense(10, name="hyper")],
                           name="net1")
net2 = tf.keras.Sequential([tf.keras.layers.Input((4,)), tf.keras.layers.Dense(2, name="target")],
                           name="net2")
net2_weights = [net2.layers[0].kernel, net2.layers[0].bias]
x = tf.random.normal((1, 3))
some_input = tf.random.normal((5, 4))

with tf.GradientTape(persistent=True) as tape:
    pred = net1(x)[0]
    net2_weights[0].assign(tf.reshape(tf.tile(pred[:8], [1]), (4, 2)))
    net2_weights[1].assign(pred[8:10])
    u = net2(some_input)
    loss = tf.reduce_sum(tf.abs(u))
gradients = tape.gradient(loss, [v.value for v in net1.trainable_variables],
                          unconnected_gradients=tf.UnconnectedGradients.ZERO)
print("gradient norms:", [float(tf.norm(g)) for g in gradients])
