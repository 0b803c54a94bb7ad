# source: https://keras.io/examples/generative/vq_vae/
# summary: a VQ-VAE: argmin picks codes, straight-through with stop_gradient on both sides, codebook and commitment losses added with add_loss and read back from model.losses in a custom train_step
import numpy as np
import tensorflow as tf
from tensorflow import keras

tf.keras.utils.set_random_seed(0)


class CodebookQuantizer(keras.layers.Layer):
    def __init__(self, codes, width, beta=0.25, **kwargs):
        super().__init__(**kwargs)
        self.width = width
        self.codes = codes
        self.beta = beta
        # a Keras 3 weight (a raw tf.Variable here is in no trainable_variables: never trained)
        self.codebook = self.add_weight(shape=(width, codes), initializer="random_uniform",
                                        trainable=True, name="codebook")

    def call(self, z):
        shape = tf.shape(z)
        flat = tf.reshape(z, [-1, self.width])
        picked = self.nearest(flat)
        onehot = tf.one_hot(picked, self.codes)
        quantized = tf.reshape(tf.matmul(onehot, self.codebook, transpose_b=True), shape)
        commitment = tf.reduce_mean((tf.stop_gradient(quantized) - z) ** 2)
        codebook = tf.reduce_mean((quantized - tf.stop_gradient(z)) ** 2)
        self.add_loss(self.beta * commitment + codebook)
        quantized = z + tf.stop_gradient(quantized - z)
        return quantized

    def nearest(self, flat):
        dots = tf.matmul(flat, self.codebook)
        squared = (tf.reduce_sum(flat ** 2, axis=1, keepdims=True)
                   + tf.reduce_sum(self.codebook ** 2, axis=0) - 2 * dots)
        return tf.argmin(squared, axis=1)


def build_vqvae(width=4, codes=8):
    inputs = keras.Input(shape=(6,))
    z = keras.layers.Dense(width, name="enc")(inputs)
    q = CodebookQuantizer(codes, width, name="vq")(z)
    out = keras.layers.Dense(6, name="dec")(q)
    return keras.Model(inputs, out, name="vqvae")


class VQTrainer(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.vqvae = build_vqvae()

    def train_step(self, x):
        with tf.GradientTape() as tape:
            recon = self.vqvae(x)
            rec_loss = tf.reduce_mean((x - recon) ** 2)
            total = rec_loss + sum(self.vqvae.losses)
        grads = tape.gradient(total, self.vqvae.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.vqvae.trainable_variables))
        return {"loss": total}


rng = np.random.default_rng(1711)
data = rng.normal(size=(32, 6)).astype("float32")
trainer = VQTrainer()
trainer.compile(optimizer=keras.optimizers.SGD(0.1))
before = [v.numpy().copy() for v in trainer.vqvae.trainable_variables]
trainer.fit(data, epochs=1, batch_size=32, verbose=0)
after = [v.numpy() for v in trainer.vqvae.trainable_variables]
assert all(np.any(a != b) for a, b in zip(after, before))
