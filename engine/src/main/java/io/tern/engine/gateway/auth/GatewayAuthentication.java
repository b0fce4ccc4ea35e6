package io.tern.engine.gateway.auth;

import io.grpc.BindableService;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Puts the configured authentication in front of the gateway's service, and says which it is. */
public final class GatewayAuthentication {
  private static final Logger LOG = LoggerFactory.getLogger(GatewayAuthentication.class);

  private GatewayAuthentication() {}

  /**
   * The token check {@code config} asks for, or null when it asks for none (said in the log, loudly
   * when {@code host} is reachable from other machines). Reads the issuer's discovery document now
   * when it must (and throws {@link IllegalArgumentException} naming the key if it cannot).
   */
  public static BearerTokenInterceptor interceptor(
      AuthenticationConfig config, MeterRegistry registry, String host) {
    if (config.mode() == AuthenticationConfig.Mode.NONE) {
      // Today's default, so that the README's first command needs no setup; said loudly when the
      // port is reachable from other machines.
      String text =
          "The gateway authenticates no one: whoever reaches it may deploy, create, cancel and"
              + " complete (gateway.security.authentication.mode is none; see docs/security.md)";
      if (isLoopback(host)) {
        LOG.info(text);
      } else {
        LOG.warn(text);
      }
      return null;
    }
    TokenVerifier verifier = TokenVerifier.start(config.oauth(), registry);
    LOG.info(
        "The gateway needs OAuth bearer tokens from issuer {} for audience {} (keys from {})",
        config.oauth().issuer(),
        config.oauth().audience(),
        verifier.jwksUri());
    return new BearerTokenInterceptor(verifier, registry);
  }

  /** {@code service} behind {@code interceptor}, or as it is when that is null. */
  public static ServerServiceDefinition guard(
      BindableService service, BearerTokenInterceptor interceptor) {
    return interceptor == null
        ? service.bindService()
        : ServerInterceptors.intercept(service, interceptor);
  }

  private static boolean isLoopback(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
