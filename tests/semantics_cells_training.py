"""Correct cells for tests/test_semantics.py: threads; training patterns that look suspicious."""

from __future__ import annotations

from tests.semantics_cells import cell

# -- threads ---------------------------------------------------------------------------------------
cell("a background thread doing TF work", """
    results = {}
    def work():
        v = tf.Variable([1.0, 2.0])
        with tf.GradientTape() as t:
            s = tf.reduce_sum(v * v)
        results["g"] = t.gradient(s, v).numpy()
        results["np"] = np.sqrt(tf.constant([4.0, 9.0]))
    th = threading.Thread(target=work)
    th.start()
    w = tf.Variable([3.0])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w * 2.0)
    g = tape.gradient(loss, [w])
    th.join()
    print("thread", results["g"], results["np"])
    _out = _fp(results["g"], results["np"], g)
    """)

# -- training patterns that look suspicious but are correct ----------------------------------------
cell("EMA target network update", """
    online = keras.Sequential([keras.layers.Input((3,)), keras.layers.Dense(2)])
    target = keras.Sequential([keras.layers.Input((3,)), keras.layers.Dense(2)])
    target.set_weights(online.get_weights())
    opt = keras.optimizers.Adam(0.01)
    x = tf.random.normal((5, 3), seed=4)
    for _step in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((online(x) - tf.stop_gradient(target(x)) - 1.0) ** 2)
        grads = tape.gradient(loss, online.trainable_variables)
        opt.apply_gradients(zip(grads, online.trainable_variables))
        for t, o in zip(target.weights, online.weights):
            t.assign(0.99 * t + 0.01 * o)
    _out = _fp(loss, target.get_weights())
    """)
cell("GAN with two tapes", """
    gen = keras.Sequential([keras.layers.Input((2,)), keras.layers.Dense(3)])
    disc = keras.Sequential([keras.layers.Input((3,)), keras.layers.Dense(1)])
    g_opt, d_opt = keras.optimizers.Adam(1e-3), keras.optimizers.Adam(1e-3)
    bce = keras.losses.BinaryCrossentropy(from_logits=True)
    real = tf.random.normal((4, 3), seed=5)
    for _step in range(2):
        z = tf.random.normal((4, 2), seed=6)
        with tf.GradientTape() as gt, tf.GradientTape() as dt:
            fake = gen(z, training=True)
            r, f = disc(real, training=True), disc(fake, training=True)
            g_loss = bce(tf.ones_like(f), f)
            d_loss = bce(tf.ones_like(r), r) + bce(tf.zeros_like(f), f)
        g_opt.apply_gradients(zip(gt.gradient(g_loss, gen.trainable_variables),
                                  gen.trainable_variables))
        d_opt.apply_gradients(zip(dt.gradient(d_loss, disc.trainable_variables),
                                  disc.trainable_variables))
    _out = _fp(g_loss, d_loss, gen.get_weights(), disc.get_weights())
    """)
cell("WGAN-GP gradient penalty (nested tapes)", """
    critic = keras.Sequential([keras.layers.Input((2,)), keras.layers.Dense(4, "tanh"),
                               keras.layers.Dense(1)])
    x = tf.random.normal((6, 2), seed=8)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x)
            score = critic(x)
        gx = inner.gradient(score, x)
        penalty = tf.reduce_mean((tf.norm(gx, axis=1) - 1.0) ** 2)
        loss = tf.reduce_mean(score) + 10.0 * penalty
    g = outer.gradient(loss, critic.trainable_variables)
    _out = _fp(loss, g)
    """)
cell("straight-through estimator", """
    w = tf.Variable([0.3, 1.7, -0.6])
    with tf.GradientTape() as tape:
        q = w + tf.stop_gradient(tf.round(w) - w)
        loss = tf.reduce_sum(q * q)
    g = tape.gradient(loss, [w])
    _out = _fp(q, g)
    """)
cell("frozen backbone", """
    backbone = keras.Sequential([keras.layers.Input((4,)), keras.layers.Dense(3)])
    backbone.trainable = False
    head = keras.layers.Dense(1)
    x = tf.ones((2, 4))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(head(backbone(x)))
    g = tape.gradient(loss, head.trainable_variables)
    _out = _fp(loss, g, len(backbone.trainable_variables))
    """)
cell("py_function over TF ops in a metric", """
    w = tf.Variable([1.0, -2.0])
    def metric(v):
        return tf.reduce_max(v)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w ** 2)
    m = tf.py_function(metric, [w], tf.float32)
    g = tape.gradient(loss, w)
    _out = _fp(m, g)
    """)
cell("argmax accuracy next to the loss", """
    model = keras.Sequential([keras.layers.Input((3,)), keras.layers.Dense(4)])
    x = tf.random.normal((6, 3), seed=9)
    y = tf.constant([0, 1, 2, 3, 0, 1])
    with tf.GradientTape() as tape:
        logits = model(x)
        loss = keras.losses.sparse_categorical_crossentropy(y, logits, from_logits=True)
        loss = tf.reduce_mean(loss)
        acc = tf.reduce_mean(tf.cast(tf.argmax(logits, 1, output_type=tf.int32) == y,
                                     tf.float32))
    g = tape.gradient(loss, model.trainable_variables)
    _out = _fp(loss, acc, g)
    """)
cell("tf.where mask and gather with int indices", """
    w = tf.Variable([1.0, -2.0, 3.0, -4.0])
    idx = tf.constant([0, 2])
    with tf.GradientTape() as tape:
        masked = tf.where(w > 0, w, tf.zeros_like(w))
        picked = tf.gather(w, idx)
        loss = tf.reduce_sum(masked) + tf.reduce_sum(picked ** 2)
    g = tape.gradient(loss, w)
    _out = _fp(loss, g)
    """)
cell("persistent tape used twice", """
    a = tf.Variable(2.0)
    b = tf.Variable(3.0)
    with tf.GradientTape(persistent=True) as tape:
        p = a * b
        q = a + b * b
    ga = tape.gradient(p, [a, b])
    gb = tape.gradient(q, [a, b])
    del tape
    _out = _fp(ga, gb)
    """)
cell("custom_gradient with clipping", """
    @tf.custom_gradient
    def clip_grad(x):
        def grad(dy):
            return tf.clip_by_value(dy, -0.5, 0.5)
        return tf.identity(x), grad
    w = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(clip_grad(w) * 10.0)
    g = tape.gradient(loss, w)
    _out = _fp(loss, g)
    """)
cell("unconnected_gradients ZERO on a tf.Variable", """
    used = tf.Variable(1.0)
    spare = tf.Variable(5.0)
    with tf.GradientTape() as tape:
        loss = used * 3.0
    g = tape.gradient(loss, [used, spare], unconnected_gradients=tf.UnconnectedGradients.ZERO)
    _out = _fp(g)
    """)
cell("embedding gradients are IndexedSlices", """
    emb = keras.layers.Embedding(10, 3)
    ids = tf.constant([[1, 2], [3, 1]])
    opt = keras.optimizers.SGD(0.1)
    emb(ids)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(emb(ids) ** 2)
    g = tape.gradient(loss, emb.trainable_variables)
    opt.apply_gradients(zip(g, emb.trainable_variables))
    _out = _fp(loss, type(g[0]).__name__, emb.get_weights())
    """)
cell("LSTM custom step with clipping by global norm", """
    model = keras.Sequential([keras.layers.Input((4, 2)), keras.layers.LSTM(3),
                              keras.layers.Dense(1)])
    opt = keras.optimizers.Adam(0.01)
    x = tf.random.normal((2, 4, 2), seed=10)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(model(x) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    grads, norm = tf.clip_by_global_norm(grads, 1.0)
    opt.apply_gradients(zip(grads, model.trainable_variables))
    _out = _fp(loss, norm, model.get_weights())
    """)
cell("dropout and batch norm in training mode", """
    model = keras.Sequential([keras.layers.Input((4,)), keras.layers.Dense(6),
                              keras.layers.BatchNormalization(), keras.layers.Dropout(0.5, seed=1),
                              keras.layers.Dense(1)])
    x = tf.random.normal((8, 4), seed=11)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(model(x, training=True) ** 2)
    g = tape.gradient(loss, model.trainable_variables)
    _out = _fp(loss, g, model.get_weights())
    """)
cell("random Generator in an eager loop", """
    gen = tf.random.Generator.from_seed(42)
    w = tf.Variable(tf.zeros(3))
    for _step in range(3):
        noise = gen.normal((3,))
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum((w - noise) ** 2)
        w.assign_sub(0.1 * tape.gradient(loss, w))
    _out = _fp(w, gen.normal((2,)))
    """)
cell("learning-rate schedule and NumPy on the gradients", """
    sched = keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=1, decay_rate=0.5)
    opt = keras.optimizers.SGD(sched)
    w = tf.Variable([2.0, -1.0])
    norms = []
    for _step in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w ** 2)
        g = tape.gradient(loss, [w])
        norms.append(float(np.linalg.norm(g[0])))
        opt.apply_gradients(zip(g, [w]))
    print("norms", [round(n, 6) for n in norms])
    _out = _fp(w, norms)
    """)
cell("step counter variable and Python branch on a metric", """
    step = tf.Variable(0, dtype=tf.int64)
    w = tf.Variable(1.0)
    for i in range(4):
        with tf.GradientTape() as tape:
            loss = (w - 3.0) ** 2
        w.assign_sub(0.1 * tape.gradient(loss, w))
        step.assign_add(1)
        if loss < 2.0:
            print("small loss at", int(step))
    _out = _fp(w, step)
    """)
cell("exception raised after a step", """
    w = tf.Variable([1.0])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w * 4.0)
    g = tape.gradient(loss, w)
    print("grad", g.numpy())
    _out = _fp(g)
    raise ValueError("the cell's own error")
    """)
cell("TF error inside the tape", """
    w = tf.Variable([1.0, 2.0])
    _out = "before"
    with tf.GradientTape() as tape:
        bad = tf.reshape(w, (3,))
    """)
cell("SavedModel export of a tf.Module (a plain tf.Graph captures its function)", """
    import tempfile
    class _Scaled(tf.Module):
        def __init__(self):
            self.v = tf.Variable(2.0)
        @tf.function(input_signature=[tf.TensorSpec(None)])
        def f(self, x):
            return x * self.v
    _dir = tempfile.mkdtemp()
    tf.saved_model.save(_Scaled(), _dir)
    _loaded = tf.saved_model.load(_dir)
    _out = _fp(_loaded.f(tf.constant(3.0)))
    print("saved")
    """)
cell("value displayed at the end", """
    w = tf.Variable([1.5])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w ** 3)
    _out = _fp(tape.gradient(loss, w))
    float(loss), w.numpy().tolist()
    """)
