# summary: a backbone is frozen by replacing its gradients with zeros before apply_gradients (plain SGD): the head trains, the backbone keeps its weights on purpose
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
rng = np.random.default_rng(6)
x = rng.normal(size=(40, 6)).astype("float32")
y = rng.integers(0, 3, size=(40,))

backbone = keras.Sequential([keras.Input((6,)), keras.layers.Dense(12, "relu", name="bb")],
                            name="backbone")
head = keras.layers.Dense(3, name="head")
inputs = keras.Input((6,))
model = keras.Model(inputs, head(backbone(inputs)))
frozen = {id(v) for v in backbone.trainable_variables}
optimizer = keras.optimizers.SGD(0.1)
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
seen = []

for step in range(5):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x))
    grads = tape.gradient(loss, model.trainable_variables)
    seen.append(all(float(tf.reduce_max(tf.abs(g))) > 0 for g in grads))
    grads = [tf.zeros_like(g) if id(v) in frozen else g
             for g, v in zip(grads, model.trainable_variables)]
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
assert all(seen)
