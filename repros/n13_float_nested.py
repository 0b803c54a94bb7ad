@tf.function
def loss_of(pred):
    s = tf.reduce_sum(pred)
    host = float(s)
    return host * pred
@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(loss_of(model(x)))
    return tape.gradient(loss, model.trainable_weights)
step()
