# summary: the log-posterior is a function of the proposal tensor, not of a re-assigned weight
import tensorflow as tf

tf.keras.utils.set_random_seed(0)


class Posterior(tf.keras.Model):
    def call(self, proposal):
        return -0.5 * proposal ** 2


model = Posterior(name="posterior")
theta = tf.Variable(1.5, name="theta")
with tf.GradientTape() as tape:
    log_prob = model(theta)
g = tape.gradient(log_prob, theta)
assert g is not None and float(tf.abs(g)) > 0
