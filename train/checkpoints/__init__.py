"""Package data: checkpoints (kept a package so setuptools ships its files)."""
