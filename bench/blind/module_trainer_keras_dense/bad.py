# source: https://github.com/tensorflow/tensorflow/issues/84019
# cause: sources-mismatch
# weights: hidden/kernel, hidden/bias, out/kernel, out/bias
# mode: function
# summary: a tf.Module regressor holds Keras 3 Dense layers; tf.Module does not see Keras 3 variables, so its trainable_variables is empty and the step trains nothing
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(84019)
x = tf.constant(rng.normal(size=(32, 3)).astype("float32"))
y = tf.constant(np.sin(x.numpy()).sum(axis=1, keepdims=True))


class Regressor(tf.Module):  # expect: sources-mismatch primary
    def __init__(self):
        super().__init__(name="regressor")
        self.hidden = tf.keras.layers.Dense(8, activation="tanh", name="hidden")
        self.out = tf.keras.layers.Dense(1, name="out")

    def __call__(self, inputs):
        return self.out(self.hidden(inputs))


net = Regressor()
net(x[:1])
optimizer = tf.keras.optimizers.SGD(0.1)


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(net(features) - targets))
    grads = tape.gradient(loss, net.trainable_variables)  # accept: sources-mismatch
    optimizer.apply_gradients(zip(grads, net.trainable_variables))
    return loss


before = net.hidden.kernel.numpy().copy()
for _ in range(3):
    print(float(train_step(x, y)))
print("sources:", len(net.trainable_variables),
      "hidden changed:", bool(np.any(before != net.hidden.kernel.numpy())))
