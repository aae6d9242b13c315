"""The batched engine's parts: per-board streams, placement, clue counts, flood fill, masks."""

from __future__ import annotations

import numpy as np
import pytest

from mswp_gym.board import Board
from mswp_gym.cells import neighbour_counts, region_around, to_cell, to_index
from mswp_gym.constants import HIDDEN, Outcome
from mswp_gym.masks import action_mask, batch_action_mask
from mswp_gym.vector.batch_board import BatchBoards
from mswp_gym.vector.batch_flood import (
    flood_bigint,
    flood_dense,
)
from mswp_gym.vector.batch_place import batch_neighbour_counts, block_table, place_mines
from mswp_gym.vector.batch_rng import seeds_to_uint64, stream_keys

SIZES = [
    (1, 1),
    (1, 7),
    (6, 1),
    (2, 2),
    (3, 5),
    (9, 9),
    (3, 16),
    (4, 17),
    (16, 30),
    (4, 32),
    (3, 54),
    (5, 64),
]


def _keys(k: int, cells: int, seed: int = 0) -> np.ndarray:
    return stream_keys(seeds_to_uint64(list(range(seed, seed + k))), np.zeros(k, np.uint64), cells)


def test_stream_keys__depend_only_on_own_seed_and_episode() -> None:
    seeds = seeds_to_uint64([5, 6, 7, 2**70, -3])
    episodes = np.array([0, 1, 2, 3, 4], dtype=np.uint64)
    batch = stream_keys(seeds, episodes, 50)
    for i in range(5):
        alone = stream_keys(seeds[i : i + 1], episodes[i : i + 1], 50)
        np.testing.assert_array_equal(batch[i], alone[0])
    assert not np.array_equal(batch[0], stream_keys(seeds[:1], np.ones(1, np.uint64), 50)[0])
    assert batch.dtype == np.uint32
    assert all(len(np.unique(row)) == row.size for row in stream_keys(seeds, episodes, 5000))


@pytest.mark.parametrize("rule", ["any", "safe", "opening"])
@pytest.mark.parametrize(
    ("rows", "cols", "mines"), [(9, 9, 10), (16, 30, 99), (4, 4, 7), (3, 3, 0)]
)
def test_place_mines__exact_count_and_first_click_rule(
    rule: str, rows: int, cols: int, mines: int
) -> None:
    k = 400
    clicks = np.random.default_rng(1).integers(0, rows * cols, k)
    layouts = place_mines(_keys(k, rows * cols), mines, clicks, rule, rows, cols)
    assert layouts.shape == (k, rows * cols)
    assert (layouts.sum(axis=1) == mines).all()
    if rule == "safe":
        assert not layouts[np.arange(k), clicks].any()
    if rule == "opening":
        for layout, click in zip(layouts, clicks, strict=True):
            block = [
                to_index(c, cols) for c in region_around(to_cell(int(click), cols), rows, cols)
            ]
            assert not layout[block].any()


def test_place_mines__opening_fills_every_cell_outside_the_block_at_the_limit() -> None:
    rows, cols = 5, 6
    clicks = np.arange(rows * cols)
    layouts = place_mines(
        _keys(clicks.size, rows * cols), rows * cols - 9, clicks, "opening", rows, cols
    )
    for layout, click in zip(layouts, clicks, strict=True):
        block = set(block_table(rows, cols)[click].tolist())
        assert set(np.flatnonzero(~layout).tolist()) >= block


def test_place_mines__an_allowed_key_equal_to_the_excluded_key_still_gives_the_allowed_cells() -> (
    None
):
    keys = np.arange(9, dtype=np.uint32)[None].repeat(2, axis=0)
    keys[:, 8] = np.iinfo(np.uint32).max
    layouts = place_mines(keys, 8, np.array([0, 4]), "safe", 3, 3)
    np.testing.assert_array_equal(layouts[0], np.arange(9) != 0)
    np.testing.assert_array_equal(layouts[1], np.arange(9) != 4)


def test_place_mines__marginals_are_uniform_over_allowed_cells() -> None:
    # 4x4, 3 mines, safe click at cell 5: each of the 15 other cells holds a mine with p = 3/15.
    k, cells, mines, click = 30_000, 16, 3, 5
    layouts = place_mines(_keys(k, cells, seed=11), mines, np.full(k, click), "safe", 4, 4)
    freq = layouts.mean(axis=0)
    assert freq[click] == 0
    p = mines / (cells - 1)
    sigma = np.sqrt(p * (1 - p) / k)
    others = np.delete(freq, click)
    assert np.abs(others - p).max() < 5 * sigma
    # Pairs too: P(both a and b mined) = 3/15 * 2/14 for every pair (a, b) of allowed cells.
    both = (layouts[:, 0] & layouts[:, 15]).mean()
    q = p * (mines - 1) / (cells - 2)
    assert abs(both - q) < 5 * np.sqrt(q * (1 - q) / k)


def test_place_mines__rejects_unknown_rule_and_missing_clicks() -> None:
    with pytest.raises(ValueError, match="needs the first clicks"):
        place_mines(_keys(2, 9), 1, None, "safe", 3, 3)
    with pytest.raises(ValueError, match="'sideways'"):
        place_mines(_keys(2, 9), 1, np.zeros(2, np.intp), "sideways", 3, 3)


@pytest.mark.parametrize(("rows", "cols"), SIZES)
def test_batch_neighbour_counts__matches_single_board_counts(rows: int, cols: int) -> None:
    layouts = np.random.default_rng(rows * cols).random((20, rows * cols)) < 0.3
    counts = batch_neighbour_counts(layouts, rows, cols)
    for layout, count in zip(layouts, counts, strict=True):
        np.testing.assert_array_equal(count, neighbour_counts(layout.reshape(rows, cols)).ravel())


@pytest.mark.parametrize(("rows", "cols"), [*SIZES, (4, 70)])
@pytest.mark.parametrize("density", [0.05, 0.15, 0.3])
def test_flood__every_method_opens_what_the_single_board_opens(
    rows: int, cols: int, density: float
) -> None:
    rng = np.random.default_rng(int(density * 100) + rows * 1000 + cols)
    layouts = rng.random((60, rows * cols)) < density
    counts = batch_neighbour_counts(layouts, rows, cols)
    zero = (counts == 0) & ~layouts
    has_zero = zero.any(axis=1)
    layouts, zero = layouts[has_zero], zero[has_zero]
    starts = np.array([rng.choice(np.flatnonzero(z)) for z in zero], dtype=np.intp)
    results = [flood_dense(zero, starts, rows, cols), flood_bigint(zero, starts, rows, cols)]
    for i, (layout, start) in enumerate(zip(layouts, starts, strict=True)):
        board = Board(layout.reshape(rows, cols))
        board.reveal(*to_cell(int(start), cols))
        for opened in results:
            np.testing.assert_array_equal(opened[i], board.revealed.ravel())


def test_batch_boards__reveal_matches_board_move_by_move() -> None:
    rows, cols, k = 8, 8, 40
    rng = np.random.default_rng(7)
    layouts = rng.random((k, rows * cols)) < 0.12
    layouts[:, 0] = False  # every board keeps a safe cell
    for flood in ("bigint", "dense"):
        batch = BatchBoards(k, rows, cols, flood=flood)
        batch.lay(np.arange(k), layouts)
        singles = [Board(layout.reshape(rows, cols)) for layout in layouts]
        for _ in range(12):
            live = np.flatnonzero(batch.outcome == Outcome.PLAYING)
            if live.size == 0:
                break
            cells = np.array([rng.choice(np.flatnonzero(batch.visible[b] == HIDDEN)) for b in live])
            opened, hit = batch.reveal(live, cells)
            for j, b in enumerate(live):
                expected = singles[b].reveal(*to_cell(int(cells[j]), cols))
                assert opened[j] == expected
                assert hit[j] == singles[b].mines.ravel()[cells[j]]
        for b, single in enumerate(singles):
            np.testing.assert_array_equal(batch.visible[b], single.visible.ravel())
            assert batch.outcome[b] == single.outcome
            assert batch.safe_revealed[b] == single.safe_revealed


def test_batch_boards__rejects_bad_sizes_and_flood_methods() -> None:
    with pytest.raises(ValueError, match="num_boards"):
        BatchBoards(0, 3, 3)
    with pytest.raises(ValueError, match="'magic'"):
        BatchBoards(1, 3, 3, flood="magic")
    assert BatchBoards(1, 3, 65).flood == "bigint"


@pytest.mark.parametrize("flag_actions", [False, True])
def test_batch_action_mask__rows_match_the_single_mask(flag_actions: bool) -> None:
    visible = np.random.default_rng(5).integers(-3, 9, (10, 12)).astype(np.int8)
    masks = batch_action_mask(visible, flag_actions)
    for row, mask in zip(visible, masks, strict=True):
        np.testing.assert_array_equal(mask, action_mask(row.reshape(3, 4), flag_actions))
