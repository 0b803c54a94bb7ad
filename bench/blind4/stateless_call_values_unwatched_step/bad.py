# source: https://github.com/keras-team/keras/issues/20378
# cause: not-watched
# weights: stateless_mlp/sl_hidden/kernel, stateless_mlp/sl_hidden/bias, stateless_mlp/sl_out/kernel, stateless_mlp/sl_out/bias
# mode: function
# summary: a training loop ported from the Keras 3 JAX guide keeps the weights as plain value tensors, runs model.stateless_call(trainable_values, ...) under a GradientTape and differentiates with respect to those tensors; a tape only watches variables by itself, the values are never watched, and every gradient is None
# lint: yes
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)

rng = np.random.default_rng(20378)
x = rng.normal(size=(32, 5)).astype("float32")
y = (x @ rng.normal(size=(5, 1))).astype("float32")

model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(8, activation="relu", name="sl_hidden"),
                          keras.layers.Dense(1, name="sl_out")], name="stateless_mlp")
trainable_values = [tf.convert_to_tensor(v) for v in model.trainable_variables]
non_trainable_values = [tf.convert_to_tensor(v) for v in model.non_trainable_variables]


@tf.function
def train_step(trainable, non_trainable, features, targets):
    with tf.GradientTape() as tape:  # expect: not-watched primary
        pred, non_trainable = model.stateless_call(trainable, non_trainable, features,
                                                   training=True)
        loss = tf.reduce_mean(tf.square(pred - targets))
    return loss, tape.gradient(loss, trainable)


loss, grads = train_step(trainable_values, non_trainable_values, x, y)
print("grads are None:", [g is None for g in grads])
