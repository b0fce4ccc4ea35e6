package io.tern.engine.gateway.auth;

import java.net.URI;
import java.time.Duration;

/**
 * How the gateway authenticates its clients.
 *
 * @param mode none (every client is served, as before) or oauth (every call needs a bearer JWT)
 * @param oauth the token checks when {@code mode} is oauth, else null
 */
public record AuthenticationConfig(Mode mode, OAuth oauth) {
  /** What a call must present. */
  public enum Mode {
    /** Nothing: whoever reaches the port may deploy, create, cancel and complete. */
    NONE,
    /** An OAuth 2 access token (a JWT signed by the issuer) in the authorization header. */
    OAUTH
  }

  /**
   * The checks of a bearer token.
   *
   * @param issuer the token's iss must equal it exactly (as the issuer writes it)
   * @param jwksUri where the issuer publishes its signing keys; null: read from the issuer's OpenID
   *     discovery document ({@code <issuer>/.well-known/openid-configuration}) at start
   * @param audience the token's aud must contain it, so that a token the same issuer made for
   *     another API is refused
   * @param allowedClockSkew how far the gateway's clock may be behind or ahead of the issuer's for
   *     exp and nbf
   * @param jwksCacheTtl how long fetched keys are used before they are fetched again
   * @param jwksRefreshMinInterval the key set is fetched at most twice in such an interval, however
   *     many tokens name a key it does not hold (so that made-up key ids cannot flood the issuer)
   */
  public record OAuth(
      String issuer,
      URI jwksUri,
      String audience,
      Duration allowedClockSkew,
      Duration jwksCacheTtl,
      Duration jwksRefreshMinInterval) {
    public OAuth {
      if (issuer == null || issuer.isBlank()) {
        throw new IllegalArgumentException("an OAuth issuer is needed");
      }
      if (audience == null || audience.isBlank()) {
        throw new IllegalArgumentException("an OAuth audience is needed");
      }
      if (allowedClockSkew.isNegative()
          || jwksCacheTtl.isNegative()
          || jwksCacheTtl.isZero()
          || jwksRefreshMinInterval.isNegative()) {
        throw new IllegalArgumentException("OAuth durations must not be negative");
      }
    }
  }

  public AuthenticationConfig {
    if ((mode == Mode.OAUTH) != (oauth != null)) {
      throw new IllegalArgumentException("OAuth settings go with mode oauth, and only with it");
    }
  }

  /** Today's default: no authentication. */
  public static AuthenticationConfig none() {
    return new AuthenticationConfig(Mode.NONE, null);
  }
}
