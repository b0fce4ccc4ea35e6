package io.tern.exporter.history;

import java.util.regex.Pattern;

/** JDBC URLs as they may be shown: without a password they may carry. */
final class JdbcUrls {
  /** {@code password=...} (PostgreSQL's query parameter, H2's setting), to the next separator. */
  private static final Pattern PASSWORD_PARAMETER =
      Pattern.compile("(?i)((?:password|pwd|sslpassword)=)[^&;]*");

  /** {@code //user:secret@host}. */
  private static final Pattern USER_INFO = Pattern.compile("(//[^/:@?;]*):[^@/]*@");

  private JdbcUrls() {}

  static String redact(String url) {
    if (url == null) {
      return null;
    }
    String redacted = PASSWORD_PARAMETER.matcher(url).replaceAll("$1***");
    return USER_INFO.matcher(redacted).replaceAll("$1:***@");
  }
}
