package io.tern.engine.state;

/** RocksDB failed; the message names the partition state's directory or the operation. */
public final class StateException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StateException(String message, Throwable cause) {
    super(message, cause);
  }
}
