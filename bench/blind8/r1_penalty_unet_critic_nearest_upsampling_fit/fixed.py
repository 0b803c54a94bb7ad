# summary: the decoder upsamples with a stride-2 Conv2DTranspose, which is twice differentiable, so the R1 penalty and the adversarial loss both reach every weight and fit changes them all
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)


class R1Critic(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.down = keras.layers.Conv2D(4, 3, strides=2, padding="same", activation="tanh", name="critic_down")
        self.up_conv = keras.layers.Conv2DTranspose(4, 3, strides=2, padding="same", activation="tanh", name="critic_up")
        self.score = keras.layers.Dense(1, name="critic_score")

    def call(self, images):
        h = self.up_conv(self.down(images))
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
changed = {w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights}
assert len(changed) == 6 and all(changed.values()), changed
