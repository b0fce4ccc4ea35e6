package io.tern.engine.gateway;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;

/**
 * Limits on the text fields of requests, checked before a command is written: a record keeps each
 * text in at most 65,535 bytes, so an identifier (a name, an id, a type, a key) beyond {@link
 * #MAX_ID_BYTES} is refused naming the field, and an error message beyond {@link
 * #MAX_MESSAGE_BYTES} is cut (a worker's long stack trace must not lose its failure). Tighter
 * limits of their own (a message name's 1,024 characters, say) are checked where they apply.
 */
final class RequestTexts {
  /** The longest identifier a request may carry, in UTF-8 bytes. */
  static final int MAX_ID_BYTES = 32 * 1024;

  /** Error messages are cut to this many UTF-8 bytes. */
  static final int MAX_MESSAGE_BYTES = 32 * 1024;

  private static final String CUT = "... (cut: the message was longer than 32 KiB)";

  private RequestTexts() {}

  /**
   * Whether {@code value}, field {@code field} of request {@code rpc}, is too long; if so the call
   * was answered INVALID_ARGUMENT naming it.
   */
  static boolean tooLong(StreamObserver<?> observer, String rpc, String field, String value) {
    if (fits(value, MAX_ID_BYTES)) {
      return false;
    }
    int bytes = value.getBytes(StandardCharsets.UTF_8).length;
    observer.onError(
        Status.INVALID_ARGUMENT
            .withDescription(
                rpc
                    + ": "
                    + field
                    + " is "
                    + bytes
                    + " bytes long; at most "
                    + MAX_ID_BYTES
                    + " bytes are accepted")
            .asRuntimeException());
    return true;
  }

  /** {@code message}, cut to {@link #MAX_MESSAGE_BYTES} (on a character boundary) if longer. */
  static String cut(String message) {
    if (fits(message, MAX_MESSAGE_BYTES)) {
      return message;
    }
    int budget = MAX_MESSAGE_BYTES - CUT.length();
    int end = 0;
    int bytes = 0;
    while (end < message.length()) {
      int codePoint = message.codePointAt(end);
      int size = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8).length;
      if (bytes + size > budget) {
        break;
      }
      bytes += size;
      end += Character.charCount(codePoint);
    }
    return message.substring(0, end) + CUT;
  }

  private static boolean fits(String value, int maxBytes) {
    // At most 3 UTF-8 bytes per Java char: most values need no counting.
    return value.length() * 3L <= maxBytes
        || value.getBytes(StandardCharsets.UTF_8).length <= maxBytes;
  }
}
