package io.tern.benchmark.common;

import io.tern.journal.JournalConfig;
import java.util.Locale;

/**
 * Settings the benchmarks take from system properties so that one build can compare both sides of
 * an experiment: {@code -Dtern.journal.writeMode=mmap|pwrite} and {@code
 * -Dtern.journal.preallocation=fallocate|zero-fill} (default: the journal's defaults).
 */
public final class Experiments {
  public static final String JOURNAL_WRITE_MODE = "tern.journal.writeMode";
  public static final String JOURNAL_PREALLOCATION = "tern.journal.preallocation";

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

  public static JournalConfig.Preallocation journalPreallocation() {
    String value = System.getProperty(JOURNAL_PREALLOCATION);
    if (value == null) {
      return JournalConfig.Preallocation.FALLOCATE;
    }
    try {
      return JournalConfig.Preallocation.valueOf(
          value.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "-D" + JOURNAL_PREALLOCATION + " must be fallocate or zero-fill, got '" + value + "'", e);
    }
  }
}
