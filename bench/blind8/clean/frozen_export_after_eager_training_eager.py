# summary: an eager loop trains the live model with a tape and only afterwards freezes a serving function with convert_variables_to_constants_v2 for export; the frozen copy is never differentiated, and every weight got a gradient and changed
# source: https://www.tensorflow.org/guide/intro_to_graphs
import keras
import numpy as np
import tensorflow as tf
from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2

keras.utils.set_random_seed(0)

rng = np.random.default_rng(25)
x = rng.normal(size=(32, 5)).astype("float32")
y = (x @ rng.normal(size=(5, 1))).astype("float32")

model = keras.Sequential([keras.Input((5,)),
                          keras.layers.Dense(8, activation="tanh", name="export_hidden"),
                          keras.layers.Dense(1, name="export_out")], name="export_model")
optimizer = keras.optimizers.SGD(0.05)
before = [v.numpy().copy() for v in model.trainable_variables]
for _ in range(3):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    assert all(g is not None and float(tf.reduce_sum(tf.abs(g))) > 0 for g in grads)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))

serve = tf.function(lambda features: model(features, training=False)).get_concrete_function(tf.TensorSpec((None, 5), tf.float32))
frozen = convert_variables_to_constants_v2(serve)
print(float(tf.reduce_mean(frozen(tf.constant(x))[0])))
assert all(np.any(b != v.numpy()) for b, v in zip(before, model.trainable_variables))
