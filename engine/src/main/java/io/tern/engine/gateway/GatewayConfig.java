package io.tern.engine.gateway;

import io.tern.engine.gateway.auth.AuthenticationConfig;
import io.tern.engine.tls.GatewayTls;
import java.time.Duration;

/**
 * The gateway's settings.
 *
 * @param host the address the gRPC server binds to
 * @param port the gRPC port (Zeebe's 26500)
 * @param requestTimeout how long a request waits for its partition's answer when the client gives
 *     no deadline: longer rides out longer leader elections, shorter tells clients sooner
 * @param longPollingTimeout how long an ActivateJobs request that found no job waits for one when
 *     the client's requestTimeout is 0 (a negative requestTimeout disables the wait)
 * @param maxMessageBytes the largest request accepted (a deployment, a command's variables)
 * @param tls TLS on the port, with or without client certificates; null for plaintext
 * @param authentication what a call must present (none, or an OAuth bearer token)
 * @param rest the REST API beside the gRPC port (same TLS, authentication and limits)
 */
public record GatewayConfig(
    String host,
    int port,
    Duration requestTimeout,
    Duration longPollingTimeout,
    int maxMessageBytes,
    GatewayTls tls,
    AuthenticationConfig authentication,
    Rest rest) {
  public static final int DEFAULT_PORT = 26500;

  /** Zeebe's default inbound message limit: a deployment or variables up to 4 MiB. */
  public static final int DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

  /**
   * Camunda's REST API (/v2) served by the same gateway.
   *
   * @param enabled whether it is served
   * @param host the address it binds to
   * @param port its port (0: any free one)
   */
  public record Rest(boolean enabled, String host, int port) {
    public static final int DEFAULT_PORT = 8080;

    public Rest {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("gateway.rest.port must be 0-65535, got " + port);
      }
    }

    /** Not served. */
    public static Rest off() {
      return new Rest(false, "0.0.0.0", DEFAULT_PORT);
    }
  }

  /** Without authentication and without the REST API. */
  public GatewayConfig(
      String host,
      int port,
      Duration requestTimeout,
      Duration longPollingTimeout,
      int maxMessageBytes,
      GatewayTls tls,
      AuthenticationConfig authentication) {
    this(
        host,
        port,
        requestTimeout,
        longPollingTimeout,
        maxMessageBytes,
        tls,
        authentication,
        Rest.off());
  }

  /** Plaintext, without authentication, with Zeebe's message limit. */
  public GatewayConfig(
      String host, int port, Duration requestTimeout, Duration longPollingTimeout) {
    this(host, port, requestTimeout, longPollingTimeout, DEFAULT_MAX_MESSAGE_BYTES, null);
  }

  /** Without authentication. */
  public GatewayConfig(
      String host,
      int port,
      Duration requestTimeout,
      Duration longPollingTimeout,
      int maxMessageBytes,
      GatewayTls tls) {
    this(
        host,
        port,
        requestTimeout,
        longPollingTimeout,
        maxMessageBytes,
        tls,
        AuthenticationConfig.none());
  }

  public GatewayConfig {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("gateway port must be 0-65535, got " + port);
    }
    if (maxMessageBytes < 1) {
      throw new IllegalArgumentException(
          "gateway maxMessageBytes must be positive, got " + maxMessageBytes);
    }
    if (notPositive(requestTimeout) || notPositive(longPollingTimeout)) {
      throw new IllegalArgumentException(
          "gateway timeouts must be positive, got "
              + requestTimeout
              + " and "
              + longPollingTimeout);
    }
    if (authentication == null) {
      throw new IllegalArgumentException("gateway authentication must be set (none or oauth)");
    }
    if (rest == null) {
      throw new IllegalArgumentException("gateway REST settings must be set (Rest.off() for none)");
    }
  }

  private static boolean notPositive(Duration duration) {
    return duration.isNegative() || duration.isZero();
  }

  public static GatewayConfig defaults() {
    return new GatewayConfig(
        "0.0.0.0",
        DEFAULT_PORT,
        Duration.ofSeconds(15),
        Duration.ofSeconds(10),
        DEFAULT_MAX_MESSAGE_BYTES,
        null);
  }
}
