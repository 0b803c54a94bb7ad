# source: https://github.com/tensorflow/tensorflow/issues/44813
# cause: outside-tape|not-watched
# rule: -
# weights: style_net/style_conv/kernel, style_net/style_conv/bias, style_net/style_out/kernel, style_net/style_out/bias
# mode: eager
# summary: a training loop ported from TF1 computes the loss eagerly and then asks tf.gradients(loss, model.trainable_variables) for the update; tf.gradients only works while a graph is being built, nothing recorded the eager computation, and TensorFlow raises RuntimeError ("tf.gradients is not supported when eager execution is enabled")
# lint: yes
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(44813)
images = rng.uniform(size=(8, 6, 6, 3)).astype("float32")
targets = rng.uniform(size=(8, 1)).astype("float32")

model = keras.Sequential([keras.Input((6, 6, 3)),
                          keras.layers.Conv2D(4, 3, activation="relu", name="style_conv"),
                          keras.layers.GlobalAveragePooling2D(),
                          keras.layers.Dense(1, name="style_out")], name="style_net")
optimizer = keras.optimizers.SGD(0.05)

loss = tf.reduce_mean(tf.square(model(images, training=True) - targets))
grads = tf.gradients(loss, model.trainable_variables)  # expect: outside-tape|not-watched primary
optimizer.apply_gradients(zip(grads, model.trainable_variables))
