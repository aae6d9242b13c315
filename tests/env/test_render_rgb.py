"""The shared board drawing: render_rgb at any cell size, and the pygame helpers around it."""

from __future__ import annotations

import numpy as np
import pytest

from mswp_gym.constants import FLAGGED, HIDDEN
from mswp_gym.render.drawing import cell_at, cell_rect, heat_colour
from mswp_gym.render.rgb import (
    BEVEL_LIGHT_RGB,
    CELL_PX,
    DIGIT_RGB,
    EXPLODED_RGB,
    FLAG_RGB,
    HIDDEN_RGB,
    MINE_RGB,
    REVEALED_RGB,
    WRONG_FLAG_RGB,
    render_rgb,
)

VISIBLE = np.array(
    [
        [0, 1, HIDDEN],
        [0, 1, FLAGGED],
        [0, 1, HIDDEN],
    ],
    dtype=np.int8,
)
MINES = np.array([[0, 0, 1], [0, 0, 0], [0, 0, 0]], dtype=bool)


def count_rgb(image: np.ndarray, rgb: tuple[int, int, int]) -> int:
    return int((image.reshape(-1, 3) == rgb).all(axis=1).sum())


def cell_pixels(image: np.ndarray, cell: tuple[int, int], size: int) -> np.ndarray:
    r, c = cell
    return image[r * size : (r + 1) * size, c * size : (c + 1) * size]


def test_render_rgb__default_size_is_cell_px_per_cell() -> None:
    image = render_rgb(VISIBLE)
    assert image.shape == (3 * CELL_PX, 3 * CELL_PX, 3) and image.dtype == np.uint8


@pytest.mark.parametrize("size", [8, 24, 40])
def test_render_rgb__cell_px_scales_the_board_and_its_glyphs(size: int) -> None:
    image = render_rgb(VISIBLE, cell_px=size)
    assert image.shape == (3 * size, 3 * size, 3)
    zero = cell_pixels(image, (0, 0), size)
    assert tuple(zero[size // 2, size // 2]) == REVEALED_RGB
    one = cell_pixels(image, (0, 1), size)
    assert count_rgb(one, DIGIT_RGB[1]) >= 10  # the 10 pixels of the 5x7 "1", scaled
    if size >= 24:
        assert count_rgb(render_rgb(VISIBLE, cell_px=40), DIGIT_RGB[1]) > count_rgb(
            render_rgb(VISIBLE, cell_px=24), DIGIT_RGB[1]
        )


def test_render_rgb__hidden_cells_are_raised_with_a_bevel() -> None:
    image = render_rgb(VISIBLE, cell_px=24)
    hidden = cell_pixels(image, (0, 2), 24)
    assert tuple(hidden[2, 12]) == BEVEL_LIGHT_RGB
    assert tuple(hidden[12, 12]) == HIDDEN_RGB
    assert count_rgb(cell_pixels(image, (1, 2), 24), FLAG_RGB) > 0


def test_render_rgb__after_the_game_shows_mines_the_exploded_cell_and_wrong_flags() -> None:
    image = render_rgb(VISIBLE, MINES, cell_px=24, exploded=(0, 2))
    blown = cell_pixels(image, (0, 2), 24)
    assert tuple(blown[3, 3]) == EXPLODED_RGB
    assert count_rgb(blown, MINE_RGB) > 20
    wrong = cell_pixels(image, (1, 2), 24)  # flagged, but no mine there
    assert count_rgb(wrong, WRONG_FLAG_RGB) > 0 and count_rgb(wrong, FLAG_RGB) == 0
    untouched = cell_pixels(image, (2, 2), 24)  # hidden and safe: no mine drawn
    assert count_rgb(untouched, MINE_RGB) == 0


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"visible": np.zeros(3, dtype=np.int8)}, "(3,)"),
        ({"visible": VISIBLE, "cell_px": 4}, "4"),
        ({"visible": VISIBLE, "cell_px": 2.5}, "2.5"),
        ({"visible": VISIBLE, "mines": np.zeros((2, 2), dtype=bool)}, "(2, 2)"),
    ],
)
def test_render_rgb__rejects_bad_input_naming_it(kwargs: dict, named: str) -> None:
    with pytest.raises(
        ValueError, match=named.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")
    ):
        render_rgb(**kwargs)


def test_heat_colour__runs_green_to_dark_red_and_rejects_nan() -> None:
    safe, even, mine = heat_colour(0.0), heat_colour(0.5), heat_colour(1.0)
    assert safe[1] > safe[0] and mine[0] > mine[1]
    assert len({safe, even, mine}) == 3
    reds = [heat_colour(p)[0] for p in np.linspace(0, 0.4, 9)]
    assert reds == sorted(reds)  # redder as the risk grows over the range that matters
    with pytest.raises(ValueError, match="nan"):
        heat_colour(float("nan"))
    with pytest.raises(ValueError, match=r"1\.5"):
        heat_colour(1.5)


def test_cell_at__inverts_cell_rect_and_is_none_off_the_board() -> None:
    origin, size = (16, 20), 30
    for cell in [(0, 0), (2, 5), (15, 29)]:
        left, top, width, height = cell_rect(cell, origin, size)
        assert cell_at((left, top), origin, size, 16, 30) == cell
        assert cell_at((left + width - 1, top + height - 1), origin, size, 16, 30) == cell
    assert cell_at((15, 25), origin, size, 16, 30) is None
    assert cell_at((16 + 30 * size, 25), origin, size, 16, 30) is None


def test_human_viewer__shows_the_frame_in_the_window() -> None:
    from mswp_gym.render.viewer import HumanViewer

    viewer = HumanViewer()
    frame = render_rgb(VISIBLE, cell_px=24)
    viewer.show(frame, fps=1000)
    try:
        assert viewer.screen.get_size() == (frame.shape[1], frame.shape[0])
        for x, y in [(12, 12), (60, 5), (30, 36)]:
            assert tuple(viewer.screen.get_at((x, y)))[:3] == tuple(frame[y, x])
    finally:
        viewer.close()
    assert viewer.screen is None
