# summary: the fine-tuning loop calls the live model (the frozen function is kept for export only), so the loss reads the variables and every weight gets a gradient
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
    prediction = model(x, training=True)
    loss = tf.reduce_mean(tf.square(prediction - y))
grads = tape.gradient(loss, model.trainable_variables)
assert len(grads) == 4
assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
