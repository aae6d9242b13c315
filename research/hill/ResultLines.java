package hillrun;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/** The results file a driver appends to, one answer a line, flushed as each is found. */
final class ResultLines {

    private ResultLines() {
    }

    /**
     * The first field of each complete line of {@code file} (none if there is no file yet), after
     * cutting the file back to those lines. A line is complete when it has {@code fields} fields and
     * its newline; the first that is not (a kill mid-write) is dropped with everything after it.
     */
    static List<String> keep(Path file, int fields) throws IOException {
        List<String> keys = new ArrayList<>();
        if (!Files.exists(file)) {
            return keys;
        }
        String text = Files.readString(file);
        StringBuilder kept = new StringBuilder();
        for (String line : text.substring(0, text.lastIndexOf('\n') + 1).split("\n")) {
            String[] field = line.trim().split(" ");
            if (field.length != fields) {
                break;
            }
            keys.add(field[0]);
            kept.append(line).append('\n');
        }
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(temporary, kept.toString());
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return keys;
    }
}
