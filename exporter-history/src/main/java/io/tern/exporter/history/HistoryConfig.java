package io.tern.exporter.history;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The exporter's args ({@code exporters.<id>.args}), filled by {@code Configuration.instantiate},
 * which sets the fields directly; the defaults are the field initializers. {@link #validate} checks
 * them and resolves the password (docs/history.md lists them).
 */
final class HistoryConfig {
  static final int DEFAULT_BATCH_SIZE = 500;
  static final Duration DEFAULT_FLUSH_INTERVAL = Duration.ofSeconds(1);
  static final Duration DEFAULT_RETENTION = Duration.ofDays(30);
  static final Duration DEFAULT_RETENTION_CHECK_INTERVAL = Duration.ofMinutes(10);
  static final int DEFAULT_RETENTION_BATCH_SIZE = 1000;

  private String url;
  private String username;
  private String password;
  private String passwordFile;
  private int batchSize = DEFAULT_BATCH_SIZE;
  private Duration flushInterval = DEFAULT_FLUSH_INTERVAL;
  private Duration retention = DEFAULT_RETENTION;
  private Duration retentionCheckInterval = DEFAULT_RETENTION_CHECK_INTERVAL;
  private int retentionBatchSize = DEFAULT_RETENTION_BATCH_SIZE;

  /** The checked settings. {@code id} is the exporter's, for messages naming the arg. */
  Settings validate(String id) {
    String prefix = "exporters." + id + ".args.";
    if (url == null || url.isBlank()) {
      throw new IllegalArgumentException(
          prefix
              + "url is required: the history store's JDBC URL, such as jdbc:h2:file:./data/history"
              + " or jdbc:postgresql://db:5432/tern");
    }
    String jdbcUrl = url.strip();
    SqlDialect dialect = SqlDialect.of(jdbcUrl);
    if (dialect == null) {
      throw new IllegalArgumentException(
          prefix
              + "url: "
              + JdbcUrls.redact(jdbcUrl)
              + " is not a database the history store supports (jdbc:h2: or jdbc:postgresql:)");
    }
    if (password != null && passwordFile != null) {
      throw new IllegalArgumentException(
          prefix + "password and " + prefix + "passwordFile are both set: set one of them");
    }
    String secret = password;
    if (passwordFile != null) {
      secret = readPasswordFile(prefix, passwordFile);
    }
    if (batchSize < 1) {
      throw new IllegalArgumentException(
          prefix + "batchSize must be at least 1 (rows per transaction), not " + batchSize);
    }
    requirePositive(prefix + "flushInterval", flushInterval);
    if (retention == null || retention.isNegative()) {
      throw new IllegalArgumentException(
          prefix + "retention must be a duration such as P30D, or 0 to keep everything");
    }
    requirePositive(prefix + "retentionCheckInterval", retentionCheckInterval);
    if (retentionBatchSize < 1) {
      throw new IllegalArgumentException(
          prefix + "retentionBatchSize must be at least 1, not " + retentionBatchSize);
    }
    return new Settings(
        dialect,
        jdbcUrl,
        emptyToNull(username),
        secret,
        batchSize,
        flushInterval,
        retention,
        retentionCheckInterval,
        retentionBatchSize,
        prefix + "url");
  }

  private static void requirePositive(String name, Duration value) {
    if (value == null || value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException(
          name + " must be a positive duration such as PT1S, not " + value);
    }
  }

  private static String readPasswordFile(String prefix, String file) {
    try {
      String content = Files.readString(Path.of(file.strip()), StandardCharsets.UTF_8);
      // A secret mounted from Kubernetes or written by echo ends with a line break that is not
      // part of the password.
      return content.strip();
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          prefix + "passwordFile: cannot read " + file + ": " + e, e);
    }
  }

  private static String emptyToNull(String value) {
    return value == null || value.isEmpty() ? null : value;
  }

  /**
   * The checked args. {@code urlArg} names the url arg in messages ({@code
   * exporters.<id>.args.url}); {@code password} is never part of {@link #toString()}.
   */
  record Settings(
      SqlDialect dialect,
      String url,
      String username,
      String password,
      int batchSize,
      Duration flushInterval,
      Duration retention,
      Duration retentionCheckInterval,
      int retentionBatchSize,
      String urlArg) {

    boolean retentionEnabled() {
      return !retention.isZero();
    }

    JdbcSource source() {
      return new JdbcSource(dialect, url, username, password);
    }

    @Override
    public String toString() {
      return "url="
          + JdbcUrls.redact(url)
          + ", username="
          + username
          + ", password="
          + (password == null ? "none" : "***")
          + ", batchSize="
          + batchSize
          + ", flushInterval="
          + flushInterval
          + ", retention="
          + (retentionEnabled() ? retention : "off")
          + ", retentionCheckInterval="
          + retentionCheckInterval
          + ", retentionBatchSize="
          + retentionBatchSize;
    }
  }
}
