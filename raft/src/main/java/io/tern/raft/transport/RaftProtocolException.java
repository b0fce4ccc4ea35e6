package io.tern.raft.transport;

/**
 * A frame or handshake that this broker cannot read or accept, or a message it cannot encode. The
 * message says what is wrong and, where known, which member sent it; {@link #kind()} names the
 * problem for metrics and tests.
 */
public final class RaftProtocolException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public enum Kind {
    UNKNOWN_SCHEMA,
    INCOMPATIBLE_VERSION,
    UNKNOWN_TEMPLATE,
    /**
     * A message type this broker does not know, from a broker with a newer (compatible) schema
     * version: the frame is skipped and the connection kept.
     */
    NEWER_MESSAGE_TYPE,
    TRUNCATED,
    MALFORMED,
    TOO_LARGE
  }

  private final Kind kind;

  public RaftProtocolException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public RaftProtocolException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }

  /** The kind as a metric tag value, e.g. {@code unknown_template}. */
  public String tag() {
    return kind.name().toLowerCase(java.util.Locale.ROOT);
  }
}
