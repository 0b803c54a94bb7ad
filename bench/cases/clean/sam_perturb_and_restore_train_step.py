# summary: keras-io sharpness-aware minimisation train_step: first gradient, weights perturbed by assign_add(e_w), second gradient, perturbation undone, update
# source: https://github.com/Jannoshh/simple-sam
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(30)
rng = np.random.default_rng(30)
x = rng.normal(size=(32, 5)).astype("float32")
y = rng.integers(0, 2, size=32)


class SAMModel(keras.Model):
    def __init__(self, net, rho=0.05):
        super().__init__()
        self.net, self.rho = net, rho

    def call(self, x):
        return self.net(x)

    def train_step(self, data):
        xb, yb = data
        e_ws = []
        with tf.GradientTape() as tape:
            loss = self.compute_loss(x=xb, y=yb, y_pred=self.net(xb, training=True))
        weights = self.net.trainable_variables
        grads = tape.gradient(loss, weights)
        grad_norm = tf.linalg.global_norm(grads)
        for g, w in zip(grads, weights):
            e_w = g * self.rho / (grad_norm + 1e-12)
            w.assign_add(e_w)
            e_ws.append(e_w)
        with tf.GradientTape() as tape:
            loss = self.compute_loss(x=xb, y=yb, y_pred=self.net(xb, training=True))
        sam_grads = tape.gradient(loss, weights)
        for w, e_w in zip(weights, e_ws):
            w.assign_sub(e_w)
        self.optimizer.apply_gradients(zip(sam_grads, weights))
        return {"loss": loss}


net = keras.Sequential([keras.Input((5,)), layers.Dense(16, activation="relu"), layers.Dense(2)])
model = SAMModel(net)
model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(x, y, batch_size=8, epochs=1, verbose=0)
assert all(not np.allclose(b, w.numpy()) for b, w in zip(before, model.trainable_weights))
