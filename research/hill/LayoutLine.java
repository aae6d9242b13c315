package hillrun;

import minesweeper.settings.GameSettings;
import minesweeper.structure.Location;

/**
 * The board part of a driver's input line: after the key, {@code rows cols mines first_row
 * first_col bits} (bits row by row, 1 where a mine lies).
 *
 * @param settings the board's size and mine count
 * @param first the first click (x = column, y = row)
 * @param mine {@code mine[x][y]}: whether a mine lies there
 */
record LayoutLine(GameSettings settings, Location first, boolean[][] mine) {

    /** Fields 1 to 6 of {@code field} (field 0 is the key). */
    static LayoutLine parse(String[] field) {
        int rows = Integer.parseInt(field[1]);
        int cols = Integer.parseInt(field[2]);
        int mines = Integer.parseInt(field[3]);
        Location first = new Location(Integer.parseInt(field[5]), Integer.parseInt(field[4]));
        boolean[][] mine = new boolean[cols][rows];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                mine[c][r] = field[6].charAt(r * cols + c) == '1';
            }
        }
        return new LayoutLine(GameSettings.create(cols, rows, mines), first, mine);
    }

    /** A new game on this layout. */
    FixedLayoutGame newGame(long key) {
        return new FixedLayoutGame(settings, mine, key);
    }
}
