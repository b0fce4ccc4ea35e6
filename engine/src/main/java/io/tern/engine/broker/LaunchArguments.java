package io.tern.engine.broker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of {@code bin/broker} and {@code bin/gateway}: {@code --help}, or at most one
 * argument, the configuration file.
 *
 * <p>The files read, lowest precedence first: the distribution's own {@code config/tern.yaml}
 * ({@code <tern.home>/config/tern.yaml}, where the scripts set the system property {@code
 * tern.home}), then the named file: the argument, else the file {@code TERN_CONFIG} names, else
 * {@code config/tern.yaml} under the working directory if it exists. A key set in both takes the
 * named file's value. The distribution's file is read too because the README tells users to edit it
 * while the broker runs from the repository's root, where no {@code config/} exists; a file that is
 * both (started from the distribution, or in the container) is read once.
 */
record LaunchArguments(boolean help, List<Path> configFiles) {
  static final String HOME_PROPERTY = "tern.home";

  /**
   * @param namedByEnvironment {@code TERN_CONFIG}, or null
   * @param home the distribution's directory ({@code tern.home}), or null when not started by a
   *     script
   * @param workingDirectory where a relative {@code config/tern.yaml} is looked for ({@code
   *     Path.of("")}: the process's)
   * @throws IllegalArgumentException naming what is wrong (an unknown option, a second argument)
   */
  static LaunchArguments parse(
      String[] args, String namedByEnvironment, Path home, Path workingDirectory) {
    if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
      return new LaunchArguments(true, List.of());
    }
    if (args.length > 1) {
      throw new IllegalArgumentException(
          "expected at most one argument, the configuration file; got "
              + args.length
              + ": "
              + String.join(" ", args));
    }
    if (args.length == 1 && args[0].startsWith("-")) {
      throw new IllegalArgumentException("unknown option " + args[0] + " (--help lists them)");
    }
    List<Path> files = new ArrayList<>();
    if (home != null) {
      Path shipped = home.resolve("config").resolve("tern.yaml");
      if (Files.isRegularFile(shipped)) {
        files.add(shipped);
      }
    }
    Path named;
    if (args.length == 1) {
      named = Path.of(args[0]);
    } else if (namedByEnvironment != null && !namedByEnvironment.isBlank()) {
      named = Path.of(namedByEnvironment);
    } else {
      Path local = workingDirectory.resolve("config").resolve("tern.yaml");
      named = Files.isRegularFile(local) ? local : null;
    }
    // A named file that does not exist is kept: the loader reports it as not found.
    if (named != null && !(files.size() == 1 && sameFile(files.get(0), named))) {
      files.add(named);
    }
    return new LaunchArguments(false, List.copyOf(files));
  }

  private static boolean sameFile(Path a, Path b) {
    try {
      return Files.exists(b) && Files.isSameFile(a, b);
    } catch (IOException e) {
      return false; // unreadable: read both, and let the loader report it
    }
  }

  /** What {@code --help} prints for {@code program} ("broker" or "gateway"). */
  static String usage(String program, String what) {
    return String.join(
        "\n",
        "Usage: bin/" + program + " [CONFIG.yaml]",
        "",
        "Starts " + what + ". The configuration comes from, in order of precedence:",
        "  TERN_* environment variables   one per key: cluster.partitionsCount is",
        "                                 TERN_CLUSTER_PARTITIONSCOUNT",
        "  CONFIG.yaml                    the argument, else the file $TERN_CONFIG names,",
        "                                 else config/tern.yaml under the working directory",
        "                                 if it exists",
        "  the distribution's file        config/tern.yaml beside bin/ (every key, commented",
        "                                 out): read too, its keys lose to the file above",
        "  the defaults                   one broker, one partition, data under ./data",
        "At start the log names the files read. Every key with its default and meaning:",
        "docs/configuration.md.",
        "",
        "JVM options: TERN_JAVA_OPTS, e.g. TERN_JAVA_OPTS=\"-Xmx2g\" (without -Xmx the heap is",
        "a quarter of the machine's memory).",
        "Log level: the key logging.level, e.g. TERN_LOGGING_LEVEL=debug.",
        "",
        "Exit codes: 0 stopped (Ctrl-C, SIGTERM), 1 could not start (e.g. a port in use,",
        "data.directory used by another broker), 2 bad arguments or configuration.");
  }

  /**
   * What {@code bin/<program>} starts with: the configuration its command line names, loaded; null
   * after printing the usage for {@code --help}. A bad argument or configuration is printed and
   * exits the process with code 2.
   */
  static Loaded loadOrExit(String[] args, String program, String what) {
    LaunchArguments arguments;
    try {
      String home = System.getProperty(HOME_PROPERTY);
      arguments =
          parse(
              args,
              System.getenv("TERN_CONFIG"),
              home == null || home.isBlank() ? null : Path.of(home),
              Path.of(""));
    } catch (IllegalArgumentException e) {
      System.err.println("bin/" + program + ": " + e.getMessage());
      System.exit(2);
      return null;
    }
    if (arguments.help()) {
      System.out.println(usage(program, what));
      return null;
    }
    try {
      return new Loaded(
          BrokerConfigLoader.loadFiles(arguments.configFiles(), System.getenv()),
          arguments.configFiles());
    } catch (BrokerConfigLoader.ConfigException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return null;
    }
  }

  /** A loaded configuration and the files it came from, lowest precedence first. */
  record Loaded(BrokerConfig config, List<Path> files) {
    /** The start's log line about where the configuration came from. */
    String describeFiles() {
      if (files.isEmpty()) {
        return "Configuration: no file read (the defaults and TERN_* environment variables)";
      }
      List<String> names = new ArrayList<>();
      for (Path file : files) {
        names.add(file.toString());
      }
      return "Configuration read from "
          + String.join(", then ", names)
          + (files.size() > 1 ? " (a key set in both takes the later file's value)" : "")
          + "; TERN_* environment variables win over "
          + (files.size() > 1 ? "both" : "it");
    }
  }
}
