@tf.function
def loss_of(target, pred):
    host = pred.numpy()
    return tf.reduce_sum(host - target)
@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = loss_of(y, model(x))
    return tape.gradient(loss, model.trainable_weights)
step()
