# Run: TF_CPP_MIN_LOG_LEVEL=3 PYTHONPATH=/work/wt-breaker4 /work/main/.venv/bin/python repros/nested_gradcheck_selftest_leaks.py
# Outer report should be ['TM201'] (the user's tf.round); it also has TM301 + TM201 on
# `tapemagic_selftest` (the inner block's self-test ran while the outer session recorded) and
# a false note "self-test: NumPy protocol did not behave as expected".
import tensorflow as tf
import tapemagic
with tapemagic.gradcheck() as outer:
    with tapemagic.gradcheck() as inner:
        w = tf.Variable(2.0)
        with tf.GradientTape() as tape:
            loss = w * 3.0
        tape.gradient(loss, w)
    v = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        cut = tf.round(v * 2.0)
    tape.gradient(cut, v)
print("inner:", inner.codes)
print("outer:", outer.codes)
for f in outer.report.findings:
    print(f.rule, f.message[:110])
print([n for n in outer.report.notes if "self-test" in n])
