# source: https://github.com/tensorflow/tensorflow/issues/51489
# cause: outside-tape
# rule: TM103
# weights: w, b
# mode: eager
# summary: a tf.Module layer is applied before the loss closure; the optimizer step sees no path
# lint: yes
import tensorflow as tf

tf.keras.utils.set_random_seed(2)


class Dense(tf.Module):
    def __init__(self, input_dim, output_size, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.random.normal([input_dim, output_size], seed=3), name="w")
        self.b = tf.Variable(tf.zeros([output_size]), name="b")

    def __call__(self, x):
        return tf.nn.relu(tf.matmul(x, self.w) + self.b)


layer = Dense(2, 4)
optimizer = tf.keras.optimizers.Adam(0.4)
output = layer(tf.constant([[7.0, 3.0]]))  # expect: outside-tape primary


def loss_fn():
    return tf.reduce_mean(tf.square(tf.ones([1, 4]) - output))


for _ in range(2):
    with tf.GradientTape() as tape:
        loss = loss_fn()
    grads = tape.gradient(loss, layer.trainable_variables)
    print([g is None for g in grads])
