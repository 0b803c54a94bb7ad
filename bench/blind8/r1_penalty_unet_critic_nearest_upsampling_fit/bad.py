# source: https://github.com/tensorflow/tensorflow/issues/22208
# cause: non-differentiable-op
# rule: -
# weights: unet_critic/critic_down/kernel, unet_critic/critic_down/bias, unet_critic/critic_up/kernel, unet_critic/critic_up/bias, unet_critic/critic_score/kernel, unet_critic/critic_score/bias
# mode: fit
# summary: a U-Net-style critic trained with fit adds an R1 penalty (the squared gradient of its real scores with respect to the real images) in a custom train_step; its decoder upsamples with tf.image.resize(method="nearest"), and differentiating the penalty needs the gradient of ResizeNearestNeighborGrad, which has none, so fit raises LookupError
# lint: no (nearest upsampling is differentiable once; only the second derivative is missing)
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)


class R1Critic(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.down = keras.layers.Conv2D(4, 3, strides=2, padding="same", activation="tanh", name="critic_down")
        self.up_conv = keras.layers.Conv2D(4, 3, padding="same", activation="tanh", name="critic_up")
        self.score = keras.layers.Dense(1, name="critic_score")

    def call(self, images):
        h = self.up_conv(tf.image.resize(self.down(images), (8, 8), method="nearest"))  # expect: non-differentiable-op primary
        return self.score(tf.reduce_mean(h, axis=[1, 2]))

    def train_step(self, data):
        real, fake = data
        with tf.GradientTape() as tape:
            with tf.GradientTape() as r1_tape:
                r1_tape.watch(real)
                real_score = self(real, training=True)
            r1 = tf.reduce_mean(tf.reduce_sum(tf.square(r1_tape.gradient(real_score, real)), axis=[1, 2, 3]))
            loss = tf.reduce_mean(tf.nn.softplus(-real_score)) + tf.reduce_mean(tf.nn.softplus(self(fake, training=True))) + 5.0 * r1
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss}


rng = np.random.default_rng(22208)
real_images = rng.uniform(0.5, 1.0, size=(16, 8, 8, 1)).astype("float32")
fake_images = rng.uniform(0.0, 0.5, size=(16, 8, 8, 1)).astype("float32")

model = R1Critic(name="unet_critic")
model(real_images[:1])
model.compile(optimizer="adam")
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(tf.data.Dataset.from_tensor_slices((real_images, fake_images)).batch(8), epochs=1, verbose=0)
print({w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights})
