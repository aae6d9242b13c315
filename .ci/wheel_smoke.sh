#!/usr/bin/env bash
# CI: build the wheel, install it with [train] into a fresh venv outside the source tree, and
# play one game with each shipped agent name there (and start the quick-start config by name).
# PYTHON (default python3.11) builds the venv; torch's CPU build goes in first, as in make venv.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python="${PYTHON:-python3.11}"
builder="$root/.venv/bin/python"  # make test's venv has the build tools; else a plain Python
[ -x "$builder" ] || builder="$python"
"$builder" -m pip wheel -q --no-deps -w "$work/wheel" "$root"
rm -rf "$root/build"
"$python" -m venv "$work/venv"
pip="$work/venv/bin/python -m pip"
size=$(stat -c %s "$work"/wheel/*.whl)
echo "wheel: $(basename "$work"/wheel/*.whl), $size bytes"
if [ "$size" -gt $((8 * 1024 * 1024)) ]; then echo "wheel over 8 MB" >&2; exit 1; fi
echo "built: ${SECONDS}s"
$pip install -q torch==2.13.0
echo "torch: ${SECONDS}s"
$pip install -q "$(ls "$work"/wheel/*.whl)[train]"
echo "installed: ${SECONDS}s"
cd "$work"  # outside the source tree: the installed packages, not the checkout's
"$work/venv/bin/python" - <<'PY'
import agents
import train
from mswp_gym.env import MinesweeperEnv
from agents.registry import _ALIASES, shipped, shipped_name

assert "site-packages" in train.__file__, train.__file__
boards = {
    "net:intermediate": (16, 16, 40),
    "net:expert": (16, 30, 99),
    "rl:intermediate": (16, 16, 40),
    "rl:expert": (16, 30, 99),
}
for name in [*shipped(), *_ALIASES]:
    rows, cols, mines = boards.get(str(shipped_name(name)), (9, 9, 10))
    result = agents.play_episode(MinesweeperEnv(rows, cols, mines), agents.make(name), 0)
    print(f"{name}: {result.steps} moves, {'won' if result.won else 'lost'}")
PY
"$work/venv/bin/mswp-train" --config quickstart --help >/dev/null
"$work/venv/bin/mswp-train" --config train/configs/beginner.toml --help >/dev/null
echo "wheel smoke: ok (${SECONDS}s)"
