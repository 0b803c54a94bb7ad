# summary: Reptile meta-learning: per task, a few inner SGD steps on the model from the meta weights, then the meta weights moved toward the adapted ones by set_weights(old + eps * (new - old)); every inner step is a real gradient step
# source: https://keras.io/examples/vision/reptile/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(36)
rng = np.random.default_rng(36)
model = keras.Sequential([keras.Input((1,)), layers.Dense(16, activation="tanh", name="h1"),
                          layers.Dense(1, name="out")], name="reptile")
inner_optimizer = keras.optimizers.SGD(learning_rate=0.02)
meta_step_size = 0.25


@tf.function
def inner_step(x, y):
    with tf.GradientTape() as tape:
        loss = keras.losses.mean_squared_error(y, model(x))
    grads = tape.gradient(loss, model.trainable_weights)
    inner_optimizer.apply_gradients(zip(grads, model.trainable_weights))
    return loss


start = [w.copy() for w in model.get_weights()]
for meta_iter in range(3):
    frac_done = meta_iter / 3
    cur_meta_step_size = (1 - frac_done) * meta_step_size
    old_vars = model.get_weights()
    phase = rng.uniform(0, np.pi)
    xs = rng.uniform(-3, 3, size=(16, 1)).astype("float32")
    ys = np.sin(xs + phase).astype("float32")
    for _ in range(3):
        inner_step(xs, ys)
    new_vars = model.get_weights()
    model.set_weights([o + (n - o) * cur_meta_step_size for o, n in zip(old_vars, new_vars)])
assert all(not np.allclose(s, w) for s, w in zip(start, model.get_weights()))
