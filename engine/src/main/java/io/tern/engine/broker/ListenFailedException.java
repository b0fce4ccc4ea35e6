package io.tern.engine.broker;

import java.util.function.Supplier;

/**
 * A server of the broker or gateway could not listen on its configured address: names the
 * configuration key, the address and the system's reason, e.g. {@code cannot listen on 0.0.0.0:9600
 * (management.port): Address already in use}.
 */
public final class ListenFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String key;

  ListenFailedException(String key, String host, int port, Throwable cause) {
    super("cannot listen on " + host + ":" + port + " (" + key + "): " + reason(cause), cause);
    this.key = key;
  }

  /** The configuration key of the port that failed. */
  public String key() {
    return key;
  }

  /**
   * Starts a server on a configured port. Netty rethrows a checked {@link java.net.BindException}
   * without declaring it, so every exception is caught here, not only runtime ones.
   */
  static <T> T listen(String key, String host, int port, Supplier<T> start) {
    try {
      return start.get();
    } catch (io.tern.engine.gateway.auth.AuthenticationSetupException e) {
      throw e; // a configuration error of the gateway's authentication: it says which key
    } catch (Exception e) {
      throw new ListenFailedException(key, host, port, e);
    }
  }

  /** The innermost message: "Address already in use", not a wrapper's restatement of it. */
  private static String reason(Throwable error) {
    Throwable innermost = error;
    while (innermost.getCause() != null && innermost.getCause() != innermost) {
      innermost = innermost.getCause();
    }
    String message = innermost.getMessage();
    return message == null ? innermost.getClass().getSimpleName() : message;
  }
}
