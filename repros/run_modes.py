import sys, io, contextlib, traceback, os
sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.dirname(__import__("os").path.abspath(__file__))))
path, mode = sys.argv[1], sys.argv[2]
src = open(path).read()
ns = {"__name__": "__main__"}
code = compile(src, path, "exec")
out = io.StringIO(); err = None; check = None
with contextlib.redirect_stdout(out):
    try:
        if mode == "plain":
            exec(code, ns)
        else:
            import tapemagic
            with tapemagic.gradcheck(force_eager=(mode == "eager")) as check:
                exec(code, ns)
    except BaseException as e:
        err = e
print("=== MODE", mode)
print("--- stdout:\n" + out.getvalue())
if err is not None:
    print("--- error:", type(err).__name__, str(err).splitlines()[:3])
    print("".join(traceback.format_tb(err.__traceback__)[-3:]))
for k in sorted(ns):
    if k.startswith("OUT"):
        print("OUT", k, "=", repr(ns[k])[:300])
if check is not None:
    r = check.report
    for f in r.findings:
        print("FIND", f.rule, f.severity if hasattr(f,'severity') else '', f.location.line if f.location else None, f.primary, (f.message or '')[:160])
    for n in r.notes: print("NOTE", n[:200])
