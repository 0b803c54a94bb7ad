rag = tf.ragged.constant([[1.0, 2.0], [3.0]])
@tf.function
def loss_of(r, pred):
    host = pred.numpy()
    return tf.reduce_sum(host) + tf.reduce_sum(r)
@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = loss_of(rag, model(x))
    return tape.gradient(loss, model.trainable_weights)
step()
