package io.tern.benchmark.common;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * How a benchmark reads its command line, the same way for all of them. Its options are the fields
 * of a class annotated for picocli ({@code @Command(name = "<benchmark>")} on the class,
 * {@code @Option} on each field, and {@code @Mixin StandardOptions} for {@code --dir}, {@code
 * --out} and {@code --help}); {@link #parse} fills them in and hands them to the benchmark's own
 * {@code resolve} step, which checks what picocli cannot and works out the settings the benchmark
 * runs with. The usage is generated from the annotations: {@code java -jar tern-benchmark.jar
 * <benchmark> --help}.
 */
public final class CommandLines {
  /** How the jar is run: the start of every usage. */
  public static final String JAR_COMMAND = "java -jar tern-benchmark.jar";

  private CommandLines() {}

  /** A command line that is wrong: the message says what, naming the option, then the usage. */
  public static final class UsageException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
      super(message);
    }
  }

  /**
   * Reads {@code args} into {@code options}, then turns them into the benchmark's settings.
   *
   * @param resolve from the options to the settings; throws {@link IllegalArgumentException}, with
   *     a message that names the option, for a value it refuses
   * @return the settings, or null when help was asked for (then printed on standard output)
   * @throws UsageException when an option is unknown, lacks its value or has a wrong one
   */
  public static <O, S> S parse(O options, String[] args, Function<O, S> resolve) {
    CommandLine commandLine = commandLine(options);
    try {
      commandLine.parseArgs(args);
      if (commandLine.isUsageHelpRequested()) {
        commandLine.usage(System.out);
        return null;
      }
      return resolve.apply(options);
    } catch (CommandLine.ParameterException | IllegalArgumentException e) {
      throw new UsageException(
          e.getMessage() + System.lineSeparator() + commandLine.getUsageMessage());
    }
  }

  /** picocli's view of {@code options}, set up as every benchmark's is. */
  public static CommandLine commandLine(Object options) {
    CommandLine commandLine = new CommandLine(options);
    // As the hand-written parsers did: a repeated option takes its last value.
    commandLine.setOverwrittenOptionsAllowed(true);
    CommandSpec spec = commandLine.getCommandSpec();
    spec.usageMessage()
        .customSynopsis(JAR_COMMAND + " " + spec.name() + " [OPTIONS]")
        .sortOptions(false) // in the order the fields are declared
        .autoWidth(true);
    return commandLine;
  }

  /** {@code value} if it is at least 1. */
  public static int positive(String option, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(option + " must be positive, got " + value);
    }
    return value;
  }

  /** {@code value} if it is at least 1. */
  public static long positive(String option, long value) {
    if (value < 1) {
      throw new IllegalArgumentException(option + " must be positive, got " + value);
    }
    return value;
  }

  /** {@code value} if it is 0 (which turns something off) or more. */
  public static int zeroOrMore(String option, int value) {
    if (value < 0) {
      throw new IllegalArgumentException(option + " must be 0 (off) or positive, got " + value);
    }
    return value;
  }

  /**
   * The comma-separated names in {@code text}, trimmed and in lower case, if each is one of {@code
   * known} and there is at least one.
   */
  public static List<String> names(String option, String text, List<String> known) {
    List<String> names = items(text);
    for (String name : names) {
      if (!known.contains(name)) {
        throw new IllegalArgumentException(
            option + ": unknown value '" + name + "', known: " + String.join(",", known));
      }
    }
    if (names.isEmpty()) {
      throw new IllegalArgumentException(option + " needs at least one value");
    }
    return names;
  }

  /** The comma-separated whole numbers in {@code text}, if each is positive and there is one. */
  public static List<Integer> positiveNumbers(String option, String text) {
    List<Integer> numbers = new ArrayList<>();
    for (String item : items(text)) {
      try {
        numbers.add(positive(option, Integer.parseInt(item)));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(option + ": '" + item + "' is not a whole number", e);
      }
    }
    if (numbers.isEmpty()) {
      throw new IllegalArgumentException(option + " needs at least one value");
    }
    return List.copyOf(numbers);
  }

  private static List<String> items(String text) {
    List<String> items = new ArrayList<>();
    for (String item : text.split(",")) {
      if (!item.isBlank()) {
        items.add(item.trim().toLowerCase(Locale.ROOT));
      }
    }
    return List.copyOf(items);
  }
}
