package hillrun;

import minesweeper.gamestate.GameStateModel;
import minesweeper.settings.GameSettings;
import minesweeper.structure.Location;

/**
 * A game of David Hill's game-state model on a mine layout fixed in advance: ours, so that his
 * solver and ours meet exactly the same boards. Cells are his (x = column, y = row).
 */
final class FixedLayoutGame extends GameStateModel {

    private final boolean[][] mine; // [x][y]: true where a mine lies

    FixedLayoutGame(GameSettings settings, boolean[][] mine, long key) {
        super(settings, key);
        this.mine = mine;
    }

    private int minesAround(int x, int y) {
        int count = 0;
        for (int dx = -1; dx <= 1; dx++) {
            for (int dy = -1; dy <= 1; dy++) {
                int nx = x + dx, ny = y + dy;
                if ((dx != 0 || dy != 0) && nx >= 0 && nx < width && ny >= 0 && ny < height && mine[nx][ny]) {
                    count++;
                }
            }
        }
        return count;
    }

    @Override
    protected void startHandle(Location first) {
        if (mine[first.x][first.y]) {
            throw new IllegalStateException("the layout has a mine under the first click " + first);
        }
    }

    @Override
    protected void placeFlagHandle(Location cell) {
        // flags change nothing in a fixed layout
    }

    @Override
    protected int queryHandle(int x, int y) {
        return mine[x][y] ? MINE : minesAround(x, y);
    }

    @Override
    protected boolean clearSquareHitMine(Location cell) {
        if (mine[cell.x][cell.y]) {
            return true;
        }
        if (minesAround(cell.x, cell.y) == 0) {
            explode(cell); // the model's flood fill from a zero
        }
        return false;
    }

    @Override
    protected boolean clearSurroundHandle(Location cell) {
        for (int dx = -1; dx <= 1; dx++) {
            for (int dy = -1; dy <= 1; dy++) {
                int nx = cell.x + dx, ny = cell.y + dy;
                if ((dx != 0 || dy != 0) && nx >= 0 && nx < width && ny >= 0 && ny < height) {
                    clearSquare(new Location(nx, ny));
                }
            }
        }
        return true;
    }
}
