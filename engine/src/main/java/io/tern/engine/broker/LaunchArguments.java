package io.tern.engine.broker;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The command line of {@code bin/broker} and {@code bin/gateway}: {@code --help}, or at most one
 * argument, the configuration file. Without it the file is the one {@code TERN_CONFIG} names, else
 * {@code config/tern.yaml} under the working directory if it exists, else none (the defaults).
 */
record LaunchArguments(boolean help, Path configFile) {
  /**
   * @throws IllegalArgumentException naming what is wrong (an unknown option, a second argument)
   */
  static LaunchArguments parse(String[] args, String namedByEnvironment) {
    if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
      return new LaunchArguments(true, null);
    }
    if (args.length > 1) {
      throw new IllegalArgumentException(
          "expected at most one argument, the configuration file; got "
              + args.length
              + ": "
              + String.join(" ", args));
    }
    if (args.length == 1) {
      if (args[0].startsWith("-")) {
        throw new IllegalArgumentException("unknown option " + args[0] + " (--help lists them)");
      }
      return new LaunchArguments(false, Path.of(args[0]));
    }
    if (namedByEnvironment != null && !namedByEnvironment.isBlank()) {
      return new LaunchArguments(false, Path.of(namedByEnvironment));
    }
    Path fallback = Path.of("config", "tern.yaml");
    return new LaunchArguments(false, Files.isRegularFile(fallback) ? fallback : null);
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
        "                                 else config/tern.yaml if it exists",
        "  the defaults                   one broker, one partition, data under ./data",
        "Every key with its default and meaning: the README's configuration reference.",
        "",
        "JVM options: TERN_JAVA_OPTS, e.g. TERN_JAVA_OPTS=\"-Xmx2g\".",
        "Log level: the key logging.level, e.g. TERN_LOGGING_LEVEL=debug.",
        "",
        "Exit codes: 0 stopped cleanly, 1 could not start (e.g. a port in use),",
        "2 bad arguments or configuration.");
  }

  /**
   * What {@code bin/<program>} starts with: the configuration its command line names, loaded; null
   * after printing the usage for {@code --help}. A bad argument or configuration is printed and
   * exits the process with code 2.
   */
  static Loaded loadOrExit(String[] args, String program, String what) {
    LaunchArguments arguments;
    try {
      arguments = parse(args, System.getenv("TERN_CONFIG"));
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
          BrokerConfigLoader.load(arguments.configFile(), System.getenv()), arguments.configFile());
    } catch (BrokerConfigLoader.ConfigException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return null;
    }
  }

  /** A loaded configuration and the file it came from (null: defaults and environment only). */
  record Loaded(BrokerConfig config, Path file) {}
}
