package io.tern.benchmark.common;

/** Reading benchmark options' values. */
public final class OptionValues {
  private OptionValues() {}

  /** The value after {@code option} at {@code args[i]}, or an error that shows the usage. */
  public static String value(String[] args, int i, String option, String usage) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value\n" + usage);
    }
    return args[i];
  }
}
