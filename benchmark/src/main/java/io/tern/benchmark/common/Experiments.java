package io.tern.benchmark.common;

import io.tern.journal.JournalConfig;
import java.util.Locale;

/**
 * Settings the benchmarks take from system properties so that one build can compare both sides of
 * an experiment: {@code -Dtern.journal.writeMode=mmap|pwrite} (default: the journal's default).
 */
public final class Experiments {
  public static final String JOURNAL_WRITE_MODE = "tern.journal.writeMode";

  private Experiments() {}

  public static JournalConfig.WriteMode journalWriteMode() {
    String value = System.getProperty(JOURNAL_WRITE_MODE);
    if (value == null) {
      return JournalConfig.DEFAULT_WRITE_MODE;
    }
    try {
      return JournalConfig.WriteMode.valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "-D" + JOURNAL_WRITE_MODE + " must be mmap or pwrite, got '" + value + "'", e);
    }
  }
}
