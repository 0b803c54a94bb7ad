# summary: a steep sigmoid is the differentiable version of the 0/1 decision
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

location = tf.constant([1.0, 0.0, 1.0, 1.0])
email = tf.constant([0.0, 1.0, 1.0, 0.0])
target = tf.constant([1.0, 0.0, 1.0, 0.0])
p_location = tf.Variable(9.0, name="p_location")
p_email = tf.Variable(8.0, name="p_email")
threshold = tf.Variable(10.0, name="threshold")


@tf.function
def step():
    with tf.GradientTape() as tape:
        score = (p_location * location + p_email * email) / threshold
        decision = tf.sigmoid(4.0 * (score - 1.0))
        loss = tf.reduce_mean(tf.square(target - decision))
    return tape.gradient(loss, [p_location, p_email, threshold])


grads = step()
assert all(float(tf.abs(g)) > 0 for g in grads)
