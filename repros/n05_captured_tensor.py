@tf.function
def step():
    with tf.GradientTape() as tape:
        pred = model(x)
        @tf.function
        def inner(t):
            host = pred.numpy()
            return tf.reduce_sum(host * t)
        loss = inner(y)
    return tape.gradient(loss, model.trainable_weights)
step()
