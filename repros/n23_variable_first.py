scale = tf.Variable(2.0, name="scale")
@tf.function
def loss_of(s, pred):
    host = pred.numpy()
    return tf.reduce_sum(host) * s
@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = loss_of(scale, model(x))
    return tape.gradient(loss, model.trainable_weights)
step()
