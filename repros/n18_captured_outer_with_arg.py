@tf.function
def step(inp):
    with tf.GradientTape() as tape:
        pred = model(inp)
        @tf.function
        def inner(t):
            host = pred.numpy()
            return tf.reduce_sum(host * t)
        loss = inner(y)
    return tape.gradient(loss, model.trainable_weights)
step(x)
