# source: https://github.com/tensorflow/tensorflow/issues/54532
# cause: variable-assign
# rule: TM402
# weights: theta
# mode: eager
# summary: a log-posterior for HMC writes the proposal into the model weight with assign()
# lint: yes
import tensorflow as tf

tf.keras.utils.set_random_seed(0)


class Posterior(tf.keras.Model):
    def build(self, input_shape):
        self.w = self.add_weight(name="w", shape=(), initializer="zeros")

    def call(self, proposal):
        self.w.assign(proposal)  # expect: variable-assign primary
        return -0.5 * self.w ** 2


model = Posterior(name="posterior")
model.build(())
theta = tf.Variable(1.5, name="theta")
with tf.GradientTape() as tape:
    log_prob = model(theta)
print(tape.gradient(log_prob, theta))
