package io.tern.engine.broker;

import io.tern.engine.gateway.auth.AuthenticationConfig;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;

/** Reads {@code gateway.security.authentication.*}: each bad value names its key. */
final class GatewayAuthenticationSettings {
  private static final String MODE = "gateway.security.authentication.mode";
  private static final String OAUTH = "gateway.security.authentication.oauth.";

  private GatewayAuthenticationSettings() {}

  static AuthenticationConfig from(BrokerConfigLoader.Values values) {
    String mode = values.text(MODE).toLowerCase(Locale.ROOT);
    switch (mode) {
      case "none":
        return AuthenticationConfig.none();
      case "oauth":
        break;
      default:
        values.bad(MODE, "none or oauth");
        return AuthenticationConfig.none();
    }
    String issuer = values.text(OAUTH + "issuerUri");
    URI issuerUri = uri(values, OAUTH + "issuerUri", issuer, true);
    String jwks = values.text(OAUTH + "jwksUri");
    URI jwksUri = jwks.isEmpty() ? null : uri(values, OAUTH + "jwksUri", jwks, false);
    String audience = values.text(OAUTH + "audience");
    if (audience.isEmpty()) {
      values.bad(OAUTH + "audience", "the audience tokens for this gateway carry (aud)");
    }
    Duration skew = values.duration(OAUTH + "allowedClockSkew");
    Duration ttl = values.duration(OAUTH + "jwksCacheTtl");
    if (ttl.isZero()) {
      values.bad(OAUTH + "jwksCacheTtl", "longer than 0");
    }
    Duration refresh = values.duration(OAUTH + "jwksRefreshMinInterval");
    if (issuerUri == null || audience.isEmpty() || ttl.isZero()) {
      return AuthenticationConfig.none(); // the problems are reported; the start fails
    }
    return new AuthenticationConfig(
        AuthenticationConfig.Mode.OAUTH,
        new AuthenticationConfig.OAuth(issuer, jwksUri, audience, skew, ttl, refresh));
  }

  /** An absolute http(s) URI; null (and a problem reported) if it is not one. */
  private static URI uri(
      BrokerConfigLoader.Values values, String key, String text, boolean neededWithOauth) {
    String expected =
        "an http or https URL"
            + (neededWithOauth ? " when " + MODE + " is oauth (the issuer of the tokens)" : "");
    try {
      URI uri = new URI(text);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
        return uri;
      }
    } catch (URISyntaxException e) {
      // reported below
    }
    values.bad(key, expected);
    return null;
  }
}
