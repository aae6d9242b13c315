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
import minesweeper.settings.GameSettings;
import minesweeper.solver.Solver;
import minesweeper.solver.settings.PlayStyle;
import minesweeper.solver.settings.SettingsFactory;
import minesweeper.solver.settings.SettingsFactory.Setting;
import minesweeper.solver.settings.SolverSettings;
import minesweeper.solver.utility.BinomialCache;
import minesweeper.structure.Action;
import minesweeper.structure.Location;

/**
 * Plays David Hill's Java solver on mine layouts fixed in advance, one game after another on one
 * thread, with the settings of his bulk runs (SMALL_ANALYSIS, no flags), the first click on the
 * cell each layout names.
 *
 * <p>Usage: {@code HillRun LAYOUTS RESULTS [KEY=VALUE ...]}; the options change one setting
 * each, to take his solver apart: {@code analysis=TINY_ANALYSIS} (or any of his
 * {@code SettingsFactory.Setting} names), {@code tiebreak=false}, {@code domination=false},
 * {@code fiftyfifty=false}, {@code early5050=true}, {@code longterm=false},
 * {@code method=SAFETY_PROGRESS} (or another {@code GuessMethod}), {@code cutoff=0.9},
 * {@code progress=0.001}, {@code weights=4,1}. Each line of LAYOUTS is
 * {@code game rows cols mines first_row first_col bits} (bits row by row, 1 where a mine lies).
 * Each game played appends {@code game won moves guesses safe_revealed safe_cells seconds} to
 * RESULTS and flushes it; games already in RESULTS are skipped, so a stopped run goes on where
 * it stopped (a torn last line is dropped first).
 */
public final class HillRun {

    private HillRun() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: HillRun LAYOUTS RESULTS [KEY=VALUE ...]");
            System.exit(2);
        }
        String[] options = java.util.Arrays.copyOfRange(args, 2, args.length);
        settingsFor(options, new Location(0, 0)); // refuse a bad option before any game
        Set<Integer> done = new HashSet<>();
        for (String game : ResultLines.keep(Paths.get(args[1]), 7)) {
            done.add(Integer.parseInt(game));
        }
        BinomialCache cache = new BinomialCache(5000, Solver.BINOMIAL_CACHE_LIMIT, Solver.binomialEngine);
        int played = 0;
        int won = 0;
        try (BufferedReader in = new BufferedReader(new FileReader(args[0]));
                PrintWriter out = new PrintWriter(new FileWriter(args[1], true))) {
            String line;
            while ((line = in.readLine()) != null) {
                String[] field = line.trim().split(" ");
                int game = Integer.parseInt(field[0]);
                if (done.contains(game)) {
                    continue;
                }
                LayoutLine layout = LayoutLine.parse(field);
                long start = System.nanoTime();
                String result = play(layout, game, cache, settingsFor(options, layout.first()), null);
                double seconds = (System.nanoTime() - start) / 1e9;
                out.println(game + " " + result + " " + seconds);
                out.flush();
                played++;
                won += result.startsWith("1 ") ? 1 : 0;
            }
        }
        System.err.println("played " + played + " games, won " + won);
    }

    /**
     * The settings of his bulk runs (SMALL_ANALYSIS, one thread), the first click on
     * {@code first}, changed by {@code options}.
     *
     * @throws IllegalArgumentException an unknown option or a bad value (the message names it)
     */
    static SolverSettings settingsFor(String[] options, Location first) {
        Setting analysis = Setting.SMALL_ANALYSIS;
        for (String option : options) {
            if (option.startsWith("analysis=")) {
                analysis = Setting.valueOf(option.substring("analysis=".length()));
            }
        }
        SolverSettings settings = SettingsFactory.GetSettings(analysis);
        settings.setSingleThread(true);
        settings.setStartLocation(first);
        for (String option : options) {
            int equals = option.indexOf('=');
            if (equals < 1) {
                throw new IllegalArgumentException("option " + option + " is not KEY=VALUE");
            }
            String key = option.substring(0, equals);
            String value = option.substring(equals + 1);
            switch (key) {
                case "analysis" -> { }
                case "tiebreak" -> settings.setTieBreak(flag(key, value));
                case "domination" -> settings.setDomination(flag(key, value));
                case "fiftyfifty" -> settings.set5050Check(flag(key, value));
                case "early5050" -> settings.setEarly5050Check(flag(key, value));
                case "longterm" -> settings.setLongTermSafety(flag(key, value));
                case "method" -> settings.setGuessMethod(SolverSettings.GuessMethod.valueOf(value));
                case "cutoff" -> settings.setHardCutOff(new java.math.BigDecimal(value));
                case "progress" -> settings.setProgressContribution(new java.math.BigDecimal(value));
                case "weights" -> {
                    String[] pair = value.split(",");
                    settings.setSafetyWeights(Integer.parseInt(pair[0]), Integer.parseInt(pair[1]));
                }
                default -> throw new IllegalArgumentException("unknown option " + key);
            }
        }
        return settings;
    }

    private static boolean flag(String key, String value) {
        if (!value.equals("true") && !value.equals("false")) {
            throw new IllegalArgumentException(key + " must be true or false, got " + value);
        }
        return value.equals("true");
    }

    /**
     * The game's "won moves guesses safe_revealed safe_cells"; when {@code trace} is not null, each
     * move is appended to it as {@code cell:certain:safety:method} (cells flat, {@code row * cols
     * + col}; certain 1 or 0), the moves separated by commas.
     */
    static String play(LayoutLine layout, int game, BinomialCache cache,
            SolverSettings settings, StringBuilder trace) {
        GameSettings board = layout.settings();
        boolean[][] mine = layout.mine();
        FixedLayoutGame state = layout.newGame(game);
        Solver solver = new Solver(state, settings, false);
        solver.setPlayStyle(PlayStyle.NO_FLAG);
        solver.setBinomialCache(cache);
        int moves = 0;
        int guesses = 0;
        play:
        for (int round = 0; round < 10_000; round++) {
            solver.start();
            Action[] actions = solver.getResult();
            if (actions.length == 0) {
                throw new IllegalStateException("game " + game + ": the solver returned no move");
            }
            for (Action action : actions) {
                if (trace != null) {
                    trace.append(trace.length() == 0 ? "" : ",")
                            .append(action.y * board.width + action.x).append(':')
                            .append(action.isCertainty() ? 1 : 0).append(':')
                            .append(action.getBigProb().doubleValue()).append(':')
                            .append(action.getMoveMethod());
                }
                state.doAction(action);
                moves++;
                if (!action.isCertainty()) {
                    guesses++;
                }
                int outcome = state.getGameState();
                if (outcome == GameStateModel.LOST || outcome == GameStateModel.WON) {
                    break play;
                }
            }
        }
        int safeCells = board.width * board.height - board.mines;
        int revealed = 0;
        for (int x = 0; x < board.width; x++) {
            for (int y = 0; y < board.height; y++) {
                int seen = state.query(new Location(x, y));
                if (!mine[x][y] && seen != GameStateModel.HIDDEN && seen != GameStateModel.FLAG) {
                    revealed++;
                }
            }
        }
        boolean won = state.getGameState() == GameStateModel.WON;
        return (won ? 1 : 0) + " " + moves + " " + guesses + " " + revealed + " " + safeCells;
    }
}
