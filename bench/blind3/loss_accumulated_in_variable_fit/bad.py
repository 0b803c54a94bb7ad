# source: https://github.com/tensorflow/addons/issues/2686
# cause: variable-assign
# weights: accum_net/hidden/kernel, accum_net/hidden/bias, accum_net/out/kernel, accum_net/out/bias
# mode: fit
# summary: to imitate PyTorch-style accumulation, a custom train_step adds each batch loss into a non-trainable variable with assign_add and differentiates the running mean read back from it; the assignment is not recorded on the tape, so every gradient is None and fit raises that no gradients were provided
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(2686)
x = rng.normal(size=(96, 6)).astype("float32")
y = (x[:, :1] * 1.5 - x[:, 1:2]).astype("float32")


class AccumulatingModel(tf.keras.Model):
    def __init__(self):
        super().__init__(name="accum_net")
        self.hidden = tf.keras.layers.Dense(8, activation="tanh", name="hidden")
        self.out = tf.keras.layers.Dense(1, name="out")
        self.loss_sum = self.add_weight(shape=(), initializer="zeros", trainable=False,
                                        name="loss_sum")
        self.micro_steps = self.add_weight(shape=(), initializer="zeros", trainable=False,
                                           name="micro_steps")

    def call(self, inputs):
        return self.out(self.hidden(inputs))

    def train_step(self, data):
        features, targets = data
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self(features, training=True) - targets))
            self.loss_sum.assign_add(loss)  # expect: variable-assign primary
            self.micro_steps.assign_add(1.0)
            mean_loss = self.loss_sum / self.micro_steps
        grads = tape.gradient(mean_loss, self.trainable_variables)  # accept: variable-assign
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": mean_loss}


model = AccumulatingModel()
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2))
model(x[:2])
model.fit(x, y, epochs=1, batch_size=32, verbose=0)
