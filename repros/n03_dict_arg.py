@tf.function
def loss_of(d):
    host = d["zpred"].numpy()
    return tf.reduce_sum(host - d["atarget"])
@tf.function
def step():
    with tf.GradientTape() as tape:
        loss = loss_of({"zpred": model(x), "atarget": y})
    return tape.gradient(loss, model.trainable_weights)
step()
