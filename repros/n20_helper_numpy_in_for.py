def loss_of(pred):
    total = 0.0
    for i in range(2):
        total = total + pred.numpy()
    return tf.reduce_sum(total)
@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = loss_of(model(x))
    return tape.gradient(loss, model.trainable_weights)
step()
