# source: https://github.com/tensorflow/tensorflow/issues/45582
# cause: unexplained
# rule: TM118
# weights: mapper/map1/kernel, mapper/map1/bias, mapper/map2/kernel, mapper/map2/bias
# mode: eager
# summary: gradients for a feature model and a map model in one list; apply_gradients gets only the feature model's slice, so the map model never changes though its gradients are non-zero
# lint: no (the slice length is a runtime value)
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
rng = np.random.default_rng(3)
x = rng.normal(size=(64, 6)).astype("float32")
target = np.tanh(x[:, :2] - x[:, 2:4]).astype("float32")

features = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, "relu", name="feat")],
                            name="features")
mapper = keras.Sequential([keras.Input((8,)), keras.layers.Dense(8, "tanh", name="map1"),
                           keras.layers.Dense(2, name="map2")], name="mapper")
params = features.trainable_variables + mapper.trainable_variables
n_pretrained = len(features.trainable_variables)
optimizer = keras.optimizers.Adam(1e-2)

for step in range(6):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(mapper(features(x)) - target))
    grads = tape.gradient(loss, params)
    optimizer.apply_gradients(zip(grads[:n_pretrained], params[:n_pretrained]))  # expect: unexplained primary
    print(step, float(loss))
