package io.tern.benchmark.common;

import io.tern.journal.JournalConfig;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Settings the benchmarks take from system properties so that one build can compare both sides of
 * an experiment: {@code -Dtern.journal.preallocation=fallocate|zero-on-flush} (default: the
 * journal's default); the Raft benchmark also takes {@code -Dtern.raft.threads}, {@code
 * -Dtern.raft.flushThreads}, {@code -Dtern.raft.maxInflightAppends}, {@code
 * -Dtern.raft.onTransportThread} and {@code -Dtern.raft.flushDelayMs} (default: Raft's).
 */
public final class Experiments {
  public static final String JOURNAL_PREALLOCATION = "tern.journal.preallocation";
  public static final String RAFT_THREADS = "tern.raft.threads";
  public static final String RAFT_FLUSH_THREADS = "tern.raft.flushThreads";
  public static final String RAFT_MAX_INFLIGHT_APPENDS = "tern.raft.maxInflightAppends";
  public static final String RAFT_ON_TRANSPORT_THREAD = "tern.raft.onTransportThread";
  public static final String RAFT_FLUSH_DELAY_MS = "tern.raft.flushDelayMs";

  private Experiments() {}

  /** The preallocation asked for, or null for the journal's default. */
  public static JournalConfig.Preallocation journalPreallocation() {
    return choice(JOURNAL_PREALLOCATION, JournalConfig.Preallocation.class, null);
  }

  /**
   * {@code true} or {@code false} from {@code property}, or {@code fallback} when it is not set.
   */
  public static boolean flag(String property, boolean fallback) {
    String value = System.getProperty(property);
    if (value == null) {
      return fallback;
    }
    String trimmed = value.trim().toLowerCase(Locale.ROOT);
    if (trimmed.equals("true") || trimmed.equals("false")) {
      return Boolean.parseBoolean(trimmed);
    }
    throw new IllegalArgumentException(
        "-D" + property + " must be true or false, got '" + value + "'");
  }

  /** A positive count from {@code property}, or {@code fallback} when it is not set. */
  public static int count(String property, int fallback) {
    return whole(property, fallback, 1);
  }

  /** A whole number >= {@code min} from {@code property}, or {@code fallback} when not set. */
  public static int whole(String property, int fallback, int min) {
    String value = System.getProperty(property);
    if (value == null) {
      return fallback;
    }
    try {
      int count = Integer.parseInt(value.trim());
      if (count >= min) {
        return count;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "-D" + property + " must be a whole number >= " + min + ", got '" + value + "'");
  }

  /** The enum constant a property names, in any case and with {@code -} for {@code _}. */
  private static <E extends Enum<E>> E choice(String property, Class<E> type, E fallback) {
    String value = System.getProperty(property);
    if (value == null) {
      return fallback;
    }
    try {
      return Enum.valueOf(type, value.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "-D"
              + property
              + " must be one of "
              + Arrays.stream(type.getEnumConstants())
                  .map(constant -> constant.name().toLowerCase(Locale.ROOT).replace('_', '-'))
                  .collect(Collectors.joining(", "))
              + ", got '"
              + value
              + "'",
          e);
    }
  }
}
