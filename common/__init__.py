"""Tools that train and eval share, below both: atomic writes, process lifetime, the command-line
errors and exit codes, the launcher, worker pools and Ray, and the statistics."""
