"""``mswp_gym.cells.parse_cell``: a cell given on the command line."""

from __future__ import annotations

import re

import pytest

from mswp_gym.cells import parse_cell


def test_parse_cell__row_col_or_a_one_line_error_naming_the_option() -> None:
    assert parse_cell("3,4", "--first-cell") == (3, 4)
    for bad in ("3", "3,4,5", "a,b", ""):
        with pytest.raises(
            ValueError, match=re.escape(f"--hover must be ROW,COL (two integers), got {bad!r}")
        ):
            parse_cell(bad, "--hover")
