"""Package data: configs (kept a package so setuptools ships its files)."""
