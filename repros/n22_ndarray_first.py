offset = np.ones((8, 1), np.float32)
@tf.function
def loss_of(off, pred):
    host = pred.numpy()
    return tf.reduce_sum(host + off)
@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = loss_of(offset, model(x))
    return tape.gradient(loss, model.trainable_weights)
step()
