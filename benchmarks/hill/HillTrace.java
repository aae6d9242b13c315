package hillrun;

import java.io.BufferedReader;
import java.io.FileReader;
import java.io.FileWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.Set;

import minesweeper.solver.Solver;
import minesweeper.solver.utility.BinomialCache;
import minesweeper.structure.Location;

/**
 * Plays David Hill's Java solver as {@link HillRun} does (one solver kept through each game, the
 * settings of his bulk runs changed by the same KEY=VALUE options) and keeps every move it makes.
 *
 * <p>Usage: {@code HillTrace LAYOUTS TRACE [KEY=VALUE ...]}, LAYOUTS as {@link HillRun}'s. Each game
 * played appends {@code game won moves} to TRACE and flushes it, where moves lists the game's
 * moves in order, the first click included, as {@code cell:certain:safety:method} separated by
 * commas (cells flat, {@code row * cols + col}; certain 1 or 0; safety his chance that the cell is
 * safe; method his move's method). Games already in TRACE are skipped, so a stopped run goes on
 * where it stopped (a torn last line is dropped first).
 */
public final class HillTrace {

    private HillTrace() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: HillTrace LAYOUTS TRACE [KEY=VALUE ...]");
            System.exit(2);
        }
        String[] options = java.util.Arrays.copyOfRange(args, 2, args.length);
        HillRun.settingsFor(options, new Location(0, 0)); // refuse a bad option before any game
        Set<String> done = new HashSet<>(ResultLines.keep(Paths.get(args[1]), 3));
        BinomialCache cache = new BinomialCache(5000, Solver.BINOMIAL_CACHE_LIMIT, Solver.binomialEngine);
        int played = 0;
        try (BufferedReader in = new BufferedReader(new FileReader(args[0]));
                PrintWriter out = new PrintWriter(new FileWriter(args[1], true))) {
            String line;
            while ((line = in.readLine()) != null) {
                String[] field = line.trim().split(" ");
                if (done.contains(field[0])) {
                    continue;
                }
                LayoutLine layout = LayoutLine.parse(field);
                StringBuilder moves = new StringBuilder();
                String result = HillRun.play(layout, Integer.parseInt(field[0]), cache,
                        HillRun.settingsFor(options, layout.first()), moves);
                out.println(field[0] + " " + result.charAt(0) + " " + moves);
                out.flush();
                played++;
            }
        }
        System.err.println("traced " + played + " games");
    }
}
