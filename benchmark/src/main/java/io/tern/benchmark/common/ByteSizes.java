package io.tern.benchmark.common;

import java.util.Locale;
import picocli.CommandLine;

/** Byte counts as benchmark options write them. */
public final class ByteSizes {
  public static final long MIB = 1024L * 1024;
  public static final long GIB = 1024 * MIB;

  private ByteSizes() {}

  /** A byte count with an optional binary suffix: 512K, 64M, 1G. */
  public static long parse(String text) {
    String t = text.trim().toUpperCase(Locale.ROOT);
    long unit = 1;
    char last = t.isEmpty() ? ' ' : t.charAt(t.length() - 1);
    if (last == 'K' || last == 'M' || last == 'G') {
      unit = last == 'K' ? 1024 : last == 'M' ? MIB : GIB;
      t = t.substring(0, t.length() - 1);
    }
    long value = Long.parseLong(t) * unit;
    if (value < 0) {
      throw new IllegalArgumentException("Negative size: " + text);
    }
    return value;
  }

  /** For picocli: {@code @Option(converter = ByteSizes.Converter.class)} on a {@code Long}. */
  public static final class Converter implements CommandLine.ITypeConverter<Long> {
    @Override
    public Long convert(String text) {
      try {
        return parse(text);
      } catch (IllegalArgumentException e) { // NumberFormatException too
        throw new CommandLine.TypeConversionException(
            "'" + text + "' is not a byte count such as 512K, 64M or 1G");
      }
    }
  }
}
