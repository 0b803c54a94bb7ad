# source: https://github.com/tensorflow/lucid/issues/15
# cause: not-connected|sources-mismatch
# rule: -
# weights: frozen_scorer/score_hidden/kernel, frozen_scorer/score_hidden/bias, frozen_scorer/score_out/kernel, frozen_scorer/score_out/bias
# mode: eager
# summary: a scorer is frozen for serving with convert_variables_to_constants_v2 (every variable becomes a Const in the graph) and the fine-tuning loop later calls that frozen function under the tape; its output no longer reads the variables, so every gradient with respect to model.trainable_variables is None
# lint: no (freezing a function is normal for export; calling the frozen copy in training is the bug)
import keras
import numpy as np
import tensorflow as tf
from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2

keras.utils.set_random_seed(0)

rng = np.random.default_rng(15)
x = rng.normal(size=(32, 5)).astype("float32")
y = (x @ rng.normal(size=(5, 1))).astype("float32")

model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(8, activation="tanh", name="score_hidden"),
                          keras.layers.Dense(1, name="score_out")], name="frozen_scorer")
serve = tf.function(lambda features: model(features, training=False)).get_concrete_function(tf.TensorSpec((None, 5), tf.float32))
frozen = convert_variables_to_constants_v2(serve)

with tf.GradientTape() as tape:
    prediction = frozen(tf.constant(x))[0]  # expect: not-connected|sources-mismatch primary
    loss = tf.reduce_mean(tf.square(prediction - y))
grads = tape.gradient(loss, model.trainable_variables)
print([g is None for g in grads])
