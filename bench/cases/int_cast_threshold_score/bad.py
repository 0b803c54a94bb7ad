# source: https://github.com/tensorflow/tensorflow/issues/47083
# cause: integer-dtype
# rule: TM202
# weights: p_location, p_email, threshold
# mode: function
# summary: a leak score is floored to 0/1 with an int32 cast before the loss
# lint: yes
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
        decision = tf.cast(tf.cast(score, tf.int32), tf.float32)  # expect: integer-dtype primary
        loss = tf.reduce_mean(tf.square(target - decision))
    return tape.gradient(loss, [p_location, p_email, threshold])


print(step())
