# source: https://docs.w3cub.com/pytorch/generated/torch.nn.kldivloss
# cause: zero-at-runtime
# weights: student/student_hidden/kernel, student/student_hidden/bias, student/student_logits/kernel, student/student_logits/bias
# mode: fit
# summary: a distillation student ported from PyTorch ends in a log_softmax activation (nn.KLDivLoss expects log-probabilities) and is compiled with keras.losses.KLDivergence, which expects probabilities and clips y_pred to [eps, 1]; every log-probability is negative, the clip makes it the constant eps, and no weight changes under fit
# lint: no (log_softmax outputs and KLDivergence are each valid; the convention mismatch is the bug)
import keras
import numpy as np

keras.utils.set_random_seed(0)

rng = np.random.default_rng(31)
x = rng.normal(size=(64, 6)).astype("float32")
teacher_logits = x @ rng.normal(size=(6, 4))
soft_targets = (np.exp(teacher_logits) / np.exp(teacher_logits).sum(axis=1, keepdims=True)).astype("float32")

model = keras.Sequential([keras.Input((6,)),
                          keras.layers.Dense(16, activation="relu", name="student_hidden"),
                          keras.layers.Dense(4, activation="log_softmax", name="student_logits")], name="student")  # expect: zero-at-runtime primary
model.compile(optimizer="adam", loss=keras.losses.KLDivergence())  # accept: zero-at-runtime
before = {w.path: w.numpy().copy() for w in model.trainable_weights}
model.fit(x, soft_targets, epochs=2, batch_size=16, verbose=0)
print({w.path: bool(np.any(before[w.path] != w.numpy())) for w in model.trainable_weights})
