package io.tern.engine.gateway.auth;

/**
 * The gateway's authentication cannot be set up as configured (its issuer's discovery document
 * cannot be read, say): a configuration error naming the key, not a failure to listen.
 */
public final class AuthenticationSetupException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  AuthenticationSetupException(String message, Throwable cause) {
    super(message, cause);
  }
}
