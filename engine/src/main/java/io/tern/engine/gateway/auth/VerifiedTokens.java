package io.tern.engine.gateway.auth;

import com.nimbusds.jwt.JWTClaimsSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tokens that passed every check, by their exact text, until they expire. A client sends the same
 * token with every call until it fetches a new one, and a hash lookup costs far less than a
 * signature check (tens of microseconds of CPU per call). The text is the whole signed token, so a
 * hit is the very token that verified. The price: a key the issuer withdraws before its tokens
 * expire is noticed at their expiry, not at once.
 */
final class VerifiedTokens {
  /** Past this many tokens all are forgotten, and each is checked in full once more. */
  static final int MAX_TOKENS = 4096;

  private final ConcurrentHashMap<String, JWTClaimsSet> byToken = new ConcurrentHashMap<>();
  private final long allowedClockSkewMs;

  VerifiedTokens(long allowedClockSkewMs) {
    this.allowedClockSkewMs = allowedClockSkewMs;
  }

  /** The claims of {@code token} if it verified before and has not expired by {@code nowMs}. */
  JWTClaimsSet get(String token, long nowMs) {
    JWTClaimsSet claims = byToken.get(token);
    if (claims == null) {
      return null;
    }
    // exp is a required claim: every token here has one.
    if (nowMs > claims.getExpirationTime().getTime() + allowedClockSkewMs) {
      byToken.remove(token);
      return null;
    }
    return claims;
  }

  void put(String token, JWTClaimsSet claims) {
    if (byToken.size() >= MAX_TOKENS) {
      byToken.clear();
    }
    byToken.put(token, claims);
  }
}
