#!/usr/bin/env bash
# CI: `pip wheel .` gives a wheel that carries the prebuilt JupyterLab extension and its
# third-party licences; that wheel installs into a fresh venv and `jupyter labextension list`
# shows the extension enabled and OK with no Node.js on PATH (users install from the wheel).
# Reuses the extension scripts/setup.sh built (pyproject: skip-if-exists), so no jlpm here.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$PY" -m pip wheel -q --no-deps -w "$work/dist" .
wheel=$(ls "$work"/dist/tapemagic-*.whl)
"$PY" - "$wheel" <<'EOF'
import json, sys, zipfile
wheel = zipfile.ZipFile(sys.argv[1])
names = set(wheel.namelist())
share = next(n for n in names if n.endswith("/labextensions/tapemagic/package.json"))[:-12]
for need in ("package.json", "install.json", "static/style.js",
             "static/third-party-licenses.json"):
    assert share + need in names, f"{share + need} not in the wheel"
assert any(n.startswith(share + "static/remoteEntry.") for n in names), "no remoteEntry"
licences = json.loads(wheel.read(share + "static/third-party-licenses.json"))["packages"]
bundled = json.loads(wheel.read(share + "package.json"))["dependencies"]
listed = {p["name"] for p in licences}
assert licences and all(p.get("licenseId") and p.get("extractedText") for p in licences), \
    "a bundled package without its licence"
assert "ajv" in listed and "ajv" in bundled, sorted(listed)
meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
classifiers = {line.split(": ", 1)[1] for line in wheel.read(meta).decode().splitlines()
               if line.startswith("Classifier: ")}
for c in ("Framework :: Jupyter :: JupyterLab :: 4",
          "Framework :: Jupyter :: JupyterLab :: Extensions",
          "Framework :: Jupyter :: JupyterLab :: Extensions :: Prebuilt",
          "Framework :: Jupyter :: JupyterLab :: Extensions :: Mime Renderers",
          "Framework :: Pytest"):
    assert c in classifiers, c
print(f"wheel ok: {len(names)} files, {len(licences)} bundled packages with their licences")
EOF
base=$("$PY" -c "import sys; print(sys.base_prefix)")/bin/python3
"$base" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q "$wheel" "jupyterlab>=4.6,<4.7"
# no Node.js: the venv's bin is the whole PATH, HOME and Jupyter's dirs are fresh
listing=$(env -i HOME="$work/home" PATH="$work/venv/bin" "$BASH" -c \
  '! command -v node >/dev/null && jupyter labextension list 2>&1')
echo "$listing"
echo "$listing" | sed 's/\x1b\[[0-9;]*m//g' | grep -E "tapemagic v[0-9.]+ enabled OK \(python, tapemagic\)"
