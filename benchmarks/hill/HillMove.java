package hillrun;

import java.io.BufferedReader;
import java.io.FileReader;
import java.io.FileWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.Set;

import minesweeper.gamestate.GameStateModel;
import minesweeper.solver.Solver;
import minesweeper.solver.settings.PlayStyle;
import minesweeper.solver.utility.BinomialCache;
import minesweeper.structure.Action;
import minesweeper.structure.Location;

/**
 * David Hill's next move at positions given by the clicks that reached them: each position's
 * layout is set up, the clicks are replayed, and a fresh solver with the settings of his bulk runs
 * (HillRun's, changed by the same KEY=VALUE options) is asked for its move.
 *
 * <p>Usage: {@code HillMove POSITIONS MOVES [KEY=VALUE ...]}. Each line of POSITIONS (but comment
 * lines, which start with {@code #}) is
 * {@code key rows cols mines first_row first_col bits clicks} (bits row by row, 1 where a mine
 * lies; clicks: flat cell indices {@code row * cols + col}, comma-separated, the first click
 * included). Each answer appends {@code key cell certain safety method} to MOVES and flushes it
 * ({@code cell -1} when the replay already ended the game); positions already in MOVES are
 * skipped, so a stopped run goes on where it stopped (a torn last line is dropped first).
 */
public final class HillMove {

    private HillMove() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: HillMove POSITIONS MOVES [KEY=VALUE ...]");
            System.exit(2);
        }
        String[] options = java.util.Arrays.copyOfRange(args, 2, args.length);
        HillRun.settingsFor(options, new Location(0, 0)); // refuse a bad option before any position
        Set<String> done = new HashSet<>(ResultLines.keep(Paths.get(args[1]), 5));
        BinomialCache cache = new BinomialCache(5000, Solver.BINOMIAL_CACHE_LIMIT, Solver.binomialEngine);
        int asked = 0;
        try (BufferedReader in = new BufferedReader(new FileReader(args[0]));
                PrintWriter out = new PrintWriter(new FileWriter(args[1], true))) {
            String line;
            while ((line = in.readLine()) != null) {
                String[] field = line.trim().split(" ");
                if (line.startsWith("#") || done.contains(field[0])) {
                    continue;
                }
                out.println(field[0] + " " + move(field, options, cache));
                out.flush();
                asked++;
            }
        }
        System.err.println("answered " + asked + " positions");
    }

    /** The move's "cell certain safety method" at one position. */
    private static String move(String[] field, String[] options, BinomialCache cache) {
        LayoutLine layout = LayoutLine.parse(field);
        int cols = layout.settings().width;
        FixedLayoutGame state = layout.newGame(0);
        for (String click : field[7].split(",")) {
            int cell = Integer.parseInt(click);
            state.doAction(new Action(cell % cols, cell / cols, Action.CLEAR));
        }
        if (state.getGameState() != GameStateModel.STARTED) {
            return "-1 0 0 ENDED";
        }
        Solver solver = new Solver(state, HillRun.settingsFor(options, layout.first()), false);
        solver.setPlayStyle(PlayStyle.NO_FLAG);
        solver.setBinomialCache(cache);
        solver.start();
        Action[] actions = solver.getResult();
        if (actions.length == 0) {
            throw new IllegalStateException("position " + field[0] + ": the solver returned no move");
        }
        Action action = actions[0];
        return (action.y * cols + action.x) + " " + (action.isCertainty() ? 1 : 0) + " "
                + action.getBigProb().doubleValue() + " " + action.getMoveMethod();
    }
}
