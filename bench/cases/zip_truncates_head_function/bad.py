# source: https://github.com/philipperemy/keras-tcn/issues/164
# cause: unexplained
# rule: TM118
# weights: head/kernel, head/bias
# mode: function
# summary: a @tf.function step takes gradients for the whole model but zips them with the encoder's variables only; zip stops at the shorter list, so the head never trains
# lint: no (zip's truncation depends on the lists' lengths)
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
rng = np.random.default_rng(11)
x = rng.normal(size=(48, 5)).astype("float32")
y = (x @ rng.normal(size=(5, 1))).astype("float32")

encoder = keras.Sequential([keras.Input((5,)), keras.layers.Dense(16, "relu", name="enc1"),
                            keras.layers.Dense(8, "relu", name="enc2")], name="encoder")
inputs = keras.Input((5,))
model = keras.Model(inputs, keras.layers.Dense(1, name="head")(encoder(inputs)),
                    name="regressor")
optimizer = keras.optimizers.SGD(0.05)


@tf.function
def train_step(xb, yb):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(xb) - yb))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, encoder.trainable_variables))  # expect: unexplained primary
    return loss


for epoch in range(5):
    print(epoch, float(train_step(x, y)))
