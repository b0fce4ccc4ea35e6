package io.tern.engine.record;

/** Bytes in the log that are not a record batch this broker can read. */
public final class RecordFormatException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public RecordFormatException(String message) {
    super(message);
  }
}
