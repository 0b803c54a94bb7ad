"""The scripts the CLI tests run and the ``python -m tapemagic`` commands they run them with.

tests/test_cli.py writes these scripts into one folder, runs every command once (a few at a time
in parallel, in a module fixture) and reads the results. ``PLAIN`` runs some of the same scripts
under plain ``python``, to compare the script's own behaviour with.
"""

from __future__ import annotations

from pathlib import Path

SCRIPTS = {
    "runtime_config.py": """\
        import tensorflow as tf
        tf.config.threading.set_intra_op_parallelism_threads(1)
        tf.config.set_soft_device_placement(False)
        w = tf.Variable(2.0)
        with tf.GradientTape() as tape:
            loss = w * w
        print("config ok", tf.config.threading.get_intra_op_parallelism_threads(),
              float(tape.gradient(loss, w)))
        """,
    "clean.py": """\
        import sys
        import tensorflow as tf
        w = tf.Variable([1.0, 2.0], name="w")
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * w)
        print("grad", tape.gradient(loss, [w])[0].numpy().tolist(), sys.argv[1:], __name__)
        """,
    "quiet_clean.py": """\
        import tensorflow as tf
        w = tf.Variable([1.0, 2.0], name="w")
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * w)
        grads = tape.gradient(loss, [w])
        """,
    "rounded.py": """\
        import tensorflow as tf
        w = tf.Variable([1.0, 2.0], name="w")
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.round(w * 3.0))
        grads = tape.gradient(loss, [w])
        """,
    "rounded_prints.py": """\
        import tensorflow as tf
        w = tf.Variable([1.0, 2.0], name="w")
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.round(w * 3.0))
        print("gradients:", tape.gradient(loss, [w]))
        """,
    "crash.py": """\
        import tensorflow as tf
        w = tf.Variable([1.0, 2.0], name="w")
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.round(w * 3.0))
        grads = tape.gradient(loss, [w])
        raise RuntimeError("script blew up")
        """,
    "exit3.py": """        import sys
        print("args", sys.argv[1:])
        sys.exit(3)
        """,
    "exit0_rounded.py": """\
        import sys
        import tensorflow as tf
        w = tf.Variable([1.0, 2.0], name="w")
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.round(w * 3.0))
        grads = tape.gradient(loss, [w])
        sys.exit(0)
        """,
    "exit0_clean.py": """\
        import sys
        import tensorflow as tf
        w = tf.Variable([1.0, 2.0], name="w")
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * w)
        grads = tape.gradient(loss, [w])
        sys.exit(0)
        """,
    "exit_message.py": """\
        import sys
        sys.exit("bye from the script")
        """,
    "function_round.py": """\
        import tensorflow as tf
        w = tf.Variable([1.0, 2.0], name="w")
        @tf.function
        def step():
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.round(w * 3.0))
            return tape.gradient(loss, [w])
        print("result", step())
        """,
}
# Written as bytes: a Latin-1 script with a PEP 263 coding line, and a UTF-8 one with a BOM.
RAW_SCRIPTS = {
    "latin1.py": (
        "# -*- coding: latin-1 -*-\n"
        "import tensorflow as tf\n"
        "label = 'caf\u00e9 \u00e0 la cr\u00e8me'\n"
        "w = tf.Variable([1.0, 2.0], name='w')\n"
        "with tf.GradientTape() as tape:\n"
        "    loss = tf.reduce_sum(tf.round(w * 3.0))  # arrondi: \u00e9t\u00e9\n"
        "grads = tape.gradient(loss, [w])\n"
        "print(label, len(label))\n"
    ).encode("latin-1"),
    "bom.py": b"\xef\xbb\xbf" + "print('d\u00e9j\u00e0 vu', __name__)\n".encode("utf-8"),
}


def commands_in(tmp: Path) -> dict[str, list[str]]:
    """The ``python -m tapemagic`` arguments of every run, by key, for scripts in ``tmp``."""
    s = {name: str(tmp / name) for name in (*SCRIPTS, *RAW_SCRIPTS)}
    return {
        "clean": ["run", "--json", str(tmp / "clean.json"), s["clean.py"], "alpha", "beta"],
        # after the script path everything is the script's, as with cProfile and pdb
        "trailing-json": ["run", s["clean.py"], "alpha", "--json", "theirs.json",
                          "--steps", "0", "--graph-mode"],
        "dashdash-before": ["run", "--steps", "2", "--", s["clean.py"], "-x"],
        "rounded": ["run", s["rounded.py"]],
        "crash": ["run", "--json", str(tmp / "crash.json"), s["crash.py"]],
        "json-stdout": ["run", "--json", "-", s["rounded.py"]],
        "json-stdout-clean": ["run", "--json", "-", s["quiet_clean.py"]],
        "json-stdout-printing": ["run", "--json", "-", s["rounded_prints.py"]],
        "missing": ["run", str(tmp / "does_not_exist.py")],
        "bad-option": ["run", "--bogus", s["clean.py"]],
        "bad-steps": ["run", "--steps", "0", s["clean.py"]],
        "no-command": [],
        "exit3": ["run", s["exit3.py"], "--", "--json", "mine.json"],
        "exit0-rounded": ["run", s["exit0_rounded.py"]],
        "exit0-clean": ["run", s["exit0_clean.py"]],
        "exit-message": ["run", s["exit_message.py"]],
        "json-unwritable": ["run", "--json", str(tmp / "no_such_dir" / "r.json"), s["clean.py"]],
        "json-is-a-dir": ["run", "--json", str(tmp), s["clean.py"]],
        "eager": ["run", "--eager", "--json", str(tmp / "eager.json"), s["function_round.py"]],
        "graph-mode": ["run", "--graph-mode", "--json", str(tmp / "graph.json"),
                       s["function_round.py"]],
        "both-modes": ["run", "--eager", "--graph-mode", s["clean.py"]],
        "latin1": ["run", "--json", str(tmp / "latin1.json"), s["latin1.py"]],
        "bom": ["run", s["bom.py"]],
        "runtime-config": ["run", s["runtime_config.py"]],
        "help": ["run", "--help"],
        "explain": ["explain", "TM301"],
        "explain-lower": ["explain", "tm301"],
        "explain-unknown": ["explain", "TM999"],
    }


# Plain `python SCRIPT ARGS` runs, to compare the script's own behaviour with.
PLAIN = {
    "plain-clean": ["clean.py", "alpha", "--json", "theirs.json", "--steps", "0",
                    "--graph-mode"],
    "plain-latin1": ["latin1.py"],
    "plain-bom": ["bom.py"],
    "plain-exit3": ["exit3.py", "--", "--json", "mine.json"],
}
