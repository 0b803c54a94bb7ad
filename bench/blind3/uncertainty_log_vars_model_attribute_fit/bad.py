# source: https://github.com/tensorflow/tensorflow/issues/26792
# cause: sources-mismatch
# weights: task_log_vars
# mode: fit
# summary: a two-task regressor weighs its losses by learned log-variances (Kendall-style uncertainty weighting); the log-variances are a raw tf.Variable set as an attribute of a Keras 3 Model, which Keras does not track, so the custom train_step never takes them as sources and fit never changes them
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(26792)
x = rng.normal(size=(160, 4)).astype("float32")
y_depth = (x @ np.array([[1.0], [0.5], [-1.0], [0.2]], dtype="float32")).astype("float32")
y_angle = np.tanh(x[:, :1] * 2.0).astype("float32")


class TwoTaskNet(tf.keras.Model):
    def __init__(self):
        super().__init__(name="two_task")
        self.trunk = tf.keras.layers.Dense(16, activation="tanh", name="trunk")
        self.depth_head = tf.keras.layers.Dense(1, name="depth_head")
        self.angle_head = tf.keras.layers.Dense(1, name="angle_head")
        self.log_vars = tf.Variable([0.0, 0.0], name="task_log_vars")  # expect: sources-mismatch primary

    def call(self, inputs):
        h = self.trunk(inputs)
        return self.depth_head(h), self.angle_head(h)

    def train_step(self, data):
        features, (depth, angle) = data
        with tf.GradientTape() as tape:
            pred_depth, pred_angle = self(features, training=True)
            losses = tf.stack([tf.reduce_mean(tf.square(pred_depth - depth)),
                               tf.reduce_mean(tf.square(pred_angle - angle))])
            loss = tf.reduce_sum(tf.exp(-self.log_vars) * losses + self.log_vars)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss}


model = TwoTaskNet()
model.compile(optimizer=tf.keras.optimizers.Adam(5e-2))
model(x[:2])
before = model.log_vars.numpy().copy()
model.fit(x, (y_depth, y_angle), epochs=2, batch_size=32, verbose=0)
print("log-variances changed:", bool(np.any(before != model.log_vars.numpy())))
