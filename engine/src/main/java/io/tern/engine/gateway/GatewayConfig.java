package io.tern.engine.gateway;

import io.tern.engine.gateway.auth.AuthenticationConfig;
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
 * @param authentication what a call must present (none, or an OAuth bearer token)
 */
public record GatewayConfig(
    String host,
    int port,
    Duration requestTimeout,
    Duration longPollingTimeout,
    AuthenticationConfig authentication) {
  public static final int DEFAULT_PORT = 26500;

  /** Without authentication. */
  public GatewayConfig(
      String host, int port, Duration requestTimeout, Duration longPollingTimeout) {
    this(host, port, requestTimeout, longPollingTimeout, AuthenticationConfig.none());
  }

  public GatewayConfig {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("gateway port must be 0-65535, got " + port);
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
  }

  private static boolean notPositive(Duration duration) {
    return duration.isNegative() || duration.isZero();
  }

  public static GatewayConfig defaults() {
    return new GatewayConfig(
        "0.0.0.0", DEFAULT_PORT, Duration.ofSeconds(15), Duration.ofSeconds(10));
  }
}
