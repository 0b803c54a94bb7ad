@tf.function
def loss_of(pred):
    host = pred.numpy()
    return tf.reduce_sum(host)
@tf.function
def step():
    with tf.GradientTape() as tape:
        a = tf.reduce_sum(model(x))
        loss = loss_of(model(x)) + loss_of(model(x) * 2.0)
    return tape.gradient(loss, model.trainable_weights)
step()
