# summary: a CycleGAN train_step (two generators, two discriminators, one persistent tape, cycle and identity losses)
# source: https://keras.io/examples/generative/cyclegan/
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(2)
rng = np.random.default_rng(2)
a_imgs = rng.normal(size=(8, 8, 8, 1)).astype("float32")
b_imgs = (rng.normal(size=(8, 8, 8, 1)) + 1).astype("float32")


def gen(name):
    return keras.Sequential([keras.Input((8, 8, 1)), layers.Conv2D(4, 3, padding="same", activation="relu"),
                             layers.Conv2D(1, 3, padding="same", activation="tanh")], name=name)


def disc(name):
    return keras.Sequential([keras.Input((8, 8, 1)), layers.Conv2D(4, 3, strides=2, padding="same"),
                             layers.LeakyReLU(0.2), layers.Conv2D(1, 3, padding="same")], name=name)


class CycleGan(keras.Model):
    def __init__(self):
        super().__init__()
        self.gen_g, self.gen_f = gen("gen_g"), gen("gen_f")
        self.disc_x, self.disc_y = disc("disc_x"), disc("disc_y")
        self.mse = keras.losses.MeanSquaredError()
        self.mae = keras.losses.MeanAbsoluteError()

    def compile(self):
        super().compile()
        self.opts = [keras.optimizers.Adam(2e-4) for _ in range(4)]

    def train_step(self, batch):
        real_x, real_y = batch
        with tf.GradientTape(persistent=True) as tape:
            fake_y = self.gen_g(real_x, training=True)
            cycled_x = self.gen_f(fake_y, training=True)
            fake_x = self.gen_f(real_y, training=True)
            cycled_y = self.gen_g(fake_x, training=True)
            same_x = self.gen_f(real_x, training=True)
            same_y = self.gen_g(real_y, training=True)
            dx_real, dx_fake = self.disc_x(real_x, training=True), self.disc_x(fake_x, training=True)
            dy_real, dy_fake = self.disc_y(real_y, training=True), self.disc_y(fake_y, training=True)
            cycle = self.mae(real_y, cycled_y) * 10 + self.mae(real_x, cycled_x) * 10
            g_loss = self.mse(tf.ones_like(dy_fake), dy_fake) + cycle + self.mae(real_y, same_y) * 5
            f_loss = self.mse(tf.ones_like(dx_fake), dx_fake) + cycle + self.mae(real_x, same_x) * 5
            dx_loss = 0.5 * (self.mse(tf.ones_like(dx_real), dx_real) + self.mse(tf.zeros_like(dx_fake), dx_fake))
            dy_loss = 0.5 * (self.mse(tf.ones_like(dy_real), dy_real) + self.mse(tf.zeros_like(dy_fake), dy_fake))
        pairs = [(g_loss, self.gen_g), (f_loss, self.gen_f), (dx_loss, self.disc_x), (dy_loss, self.disc_y)]
        for opt, (loss, net) in zip(self.opts, pairs):
            grads = tape.gradient(loss, net.trainable_variables)
            opt.apply_gradients(zip(grads, net.trainable_variables))
        return {"g": g_loss, "f": f_loss, "dx": dx_loss, "dy": dy_loss}


model = CycleGan()
model.compile()
ds = tf.data.Dataset.from_tensor_slices((a_imgs, b_imgs)).batch(4)
model.fit(ds, epochs=1, verbose=0)
before = [w.numpy().copy() for w in model.trainable_weights]
model.fit(ds, epochs=1, verbose=0)
unchanged = [w.path for b, w in zip(before, model.trainable_weights) if np.allclose(b, w.numpy())]
assert not unchanged, unchanged
