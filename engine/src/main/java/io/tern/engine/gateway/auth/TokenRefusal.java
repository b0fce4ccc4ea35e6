package io.tern.engine.gateway.auth;

/**
 * Why a call's token was not accepted. The message says which check failed and never holds the
 * token, so that it can go to the client and the log.
 */
public final class TokenRefusal extends Exception {
  private static final long serialVersionUID = 1L;

  /** The check that failed: the tag of the refused-calls counter. */
  public enum Reason {
    MISSING("missing"),
    MALFORMED("malformed"),
    UNKNOWN_KEY("unknown_key"),
    SIGNATURE("signature"),
    EXPIRED("expired"),
    NOT_YET_VALID("not_yet_valid"),
    ISSUER("issuer"),
    AUDIENCE("audience"),
    CLAIMS("claims"),
    /**
     * The issuer's keys could not be fetched: the token may be good, so the call may be retried.
     */
    KEYS_UNAVAILABLE("keys_unavailable");

    private final String tag;

    Reason(String tag) {
      this.tag = tag;
    }

    public String tag() {
      return tag;
    }
  }

  private final Reason reason;

  TokenRefusal(Reason reason, String message) {
    super(message, null, false, false); // no stack trace: refusals are expected, and frequent
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
