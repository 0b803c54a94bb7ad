# source: https://github.com/google/qhbm-library/issues/93
# cause: variable-assign
# rule: TM402
# weights: hyper/h/kernel, hyper/h/bias, hyper/wpred/kernel, hyper/wpred/bias
# mode: eager
# summary: a hypernetwork writes its predicted weights into the main network with assign()
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(23)
x = rng.normal(size=(16, 3)).astype("float32")
y = rng.normal(size=(16, 1)).astype("float32")
main = tf.keras.Sequential([tf.keras.layers.Input((3,)), tf.keras.layers.Dense(1, name="d")],
                           name="main")
hyper = tf.keras.Sequential([tf.keras.layers.Input((3,)),
                             tf.keras.layers.Dense(8, activation="relu", name="h"),
                             tf.keras.layers.Dense(4, name="wpred")], name="hyper")
optimizer = tf.keras.optimizers.Adam(1e-3)

with tf.GradientTape() as tape:
    weights_pred = tf.reduce_mean(hyper(x), axis=0)
    w0 = tf.reshape(weights_pred[:3], (3, 1))
    b0 = weights_pred[3:]
    main.layers[0].kernel.assign(w0)  # expect: variable-assign primary
    main.layers[0].bias.assign(b0)  # expect: variable-assign primary
    loss = tf.reduce_mean(tf.square(main(x) - y))
grads = tape.gradient(loss, hyper.trainable_weights)
print(grads)
