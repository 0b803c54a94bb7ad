@tf.function
def loss_of(scale, pred, target):
    host = pred.numpy()
    return scale * tf.reduce_sum(host - target)
@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = loss_of(2.0, model(x), y)
    return tape.gradient(loss, model.trainable_weights)
step()
