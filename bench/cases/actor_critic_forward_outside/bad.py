# source: https://github.com/keras-team/keras-io/issues/406
# cause: outside-tape
# rule: TM103
# weights: ac/common/kernel, ac/common/bias, ac/heads/kernel, ac/heads/bias
# mode: eager
# summary: actor-critic: the forward pass is moved above the `with tf.GradientTape()` line
# lint: yes
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

rng = np.random.default_rng(21)
state = tf.constant(rng.normal(size=(1, 4)).astype("float32"))
model = tf.keras.Sequential([tf.keras.layers.Input((4,)),
                             tf.keras.layers.Dense(16, activation="relu", name="common"),
                             tf.keras.layers.Dense(3, name="heads")], name="ac")
optimizer = tf.keras.optimizers.Adam(1e-2)
huber = tf.keras.losses.Huber()

out = model(state)  # expect: outside-tape primary
with tf.GradientTape() as tape:
    action_probs = tf.nn.softmax(out[:, :2])
    critic_value = out[:, 2]
    action = 1
    ret = tf.constant([1.5])
    advantage = ret - critic_value
    actor_loss = -tf.math.log(action_probs[0, action]) * advantage
    critic_loss = huber(ret, critic_value)
    loss = tf.reduce_sum(actor_loss) + critic_loss
grads = tape.gradient(loss, model.trainable_variables)
print(grads)
