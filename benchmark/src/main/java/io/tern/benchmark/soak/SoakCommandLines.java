package io.tern.benchmark.soak;

import io.tern.benchmark.common.CommandLines;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Reads the arguments of the commands a deployment runs ({@code soak}, {@code starter}, {@code
 * worker}) as those commands would, without running anything: the chart tests check what the charts
 * render with it, so an option renamed here breaks a test, not a user's cluster.
 *
 * <pre>java -cp tern-benchmark.jar io.tern.benchmark.soak.SoakCommandLines FILE</pre>
 *
 * reads FILE's lines, each a command line with its words separated by tabs ({@code
 * tern-benchmark<TAB>soak<TAB>--rate<TAB>100 ...}), prints each one that does not parse with the
 * reason, and exits 1 if any did not.
 */
public final class SoakCommandLines {
  private SoakCommandLines() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: SoakCommandLines FILE (one command line per line, tab-separated)");
      System.exit(2);
    }
    List<String> lines = Files.readAllLines(Path.of(args[0]));
    int failed = 0;
    for (String line : lines) {
      if (line.isBlank()) {
        continue;
      }
      String[] words = line.split("\t");
      try {
        if (words.length < 2 || !words[0].equals("tern-benchmark")) {
          throw new IllegalArgumentException("not a tern-benchmark command line");
        }
        parse(words[1], Arrays.copyOfRange(words, 2, words.length));
        System.out.println("ok: " + String.join(" ", words));
      } catch (RuntimeException e) {
        failed++;
        System.out.println("FAILED: " + String.join(" ", words) + ": " + e.getMessage());
      }
    }
    System.exit(failed == 0 ? 0 : 1);
  }

  /**
   * @throws picocli.CommandLine.ParameterException naming an unknown option, a missing value or one
   *     its option cannot take
   */
  public static void parse(String command, String... args) {
    Object options =
        switch (command) {
          case "soak" -> new SoakOptions();
          case "starter" -> new LoadCommands.StarterOptions();
          case "worker" -> new LoadCommands.WorkerOptions();
          default ->
              throw new IllegalArgumentException(
                  "not a command a deployment runs: " + command + " (soak, starter, worker)");
        };
    CommandLines.commandLine(options).parseArgs(args);
  }
}
