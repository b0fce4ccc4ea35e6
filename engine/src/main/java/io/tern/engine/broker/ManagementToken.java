package io.tern.engine.broker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;

/**
 * The token that unlocks the management API's operations (pause, resume, snapshots, rebalancing,
 * fault injection) and the variables in its inspection answers: sent as {@code Authorization:
 * Bearer <token>}. It comes from a file ({@code management.security.tokenFile}, e.g. a mounted
 * Kubernetes Secret) or the environment ({@code TERN_MANAGEMENT_SECURITY_TOKEN}), never from the
 * configuration file, which is not kept secret; without one the operations are off. Its value is
 * never logged, never part of an error message, and compared in constant time.
 */
final class ManagementToken {
  /** Shorter tokens can be guessed; a generated one (openssl rand -hex 32) is far longer. */
  static final int MIN_LENGTH = 16;

  static final String TOKEN_KEY = "management.security.token";
  static final String FILE_KEY = "management.security.tokenFile";

  private static final String BEARER = "Bearer ";

  /** The token's bytes, or null when none is configured. */
  private final byte[] token;

  private ManagementToken(byte[] token) {
    this.token = token;
  }

  static ManagementToken none() {
    return new ManagementToken(null);
  }

  /** Reads the token's settings, adding a problem (never naming the value) for a bad one. */
  static ManagementToken from(BrokerConfigLoader.Values values) {
    String literal = values.text(TOKEN_KEY);
    String file = values.text(FILE_KEY);
    if (!literal.isEmpty() && !values.origin(TOKEN_KEY).startsWith("environment")) {
      values.problem(
          "'"
              + TOKEN_KEY
              + "' (from "
              + values.origin(TOKEN_KEY)
              + ") may not be written in the configuration file: set the environment variable"
              + " TERN_MANAGEMENT_SECURITY_TOKEN or point "
              + FILE_KEY
              + " to a file holding it");
      return none();
    }
    if (!literal.isEmpty() && !file.isEmpty()) {
      values.problem("set one of TERN_MANAGEMENT_SECURITY_TOKEN and '" + FILE_KEY + "', not both");
      return none();
    }
    String text = literal;
    String origin = "TERN_MANAGEMENT_SECURITY_TOKEN";
    if (!file.isEmpty()) {
      origin = "the file " + file + " ('" + FILE_KEY + "')";
      try {
        // A Secret's file often ends in a newline, which is not part of the token.
        text = Files.readString(Path.of(file), StandardCharsets.UTF_8).strip();
      } catch (IOException | RuntimeException e) {
        values.problem("cannot read the management token from " + origin + ": " + e);
        return none();
      }
      if (text.isEmpty()) {
        values.problem("the management token in " + origin + " is empty");
        return none();
      }
    }
    if (text.isEmpty()) {
      return none();
    }
    if (text.contains("${")) {
      // A compose file or a shell that left a variable unexpanded (podman-compose 1.0.3 does so
      // with ${VAR:-}) would otherwise turn on the operations with a token anyone can read.
      values.problem(
          "the management token from "
              + origin
              + " contains '${': a variable reference that was not expanded, not a secret;"
              + " export the variable it names, or leave the token unset to keep the operations"
              + " off");
      return none();
    }
    if (text.length() < MIN_LENGTH || text.chars().anyMatch(c -> c <= ' ' || c > '~')) {
      values.problem(
          "the management token from "
              + origin
              + " must be at least "
              + MIN_LENGTH
              + " printable ASCII characters without spaces (e.g. openssl rand -hex 32)");
      return none();
    }
    return new ManagementToken(text.getBytes(StandardCharsets.US_ASCII));
  }

  /** Whether a token is configured, so that the operations are on. */
  boolean configured() {
    return token != null;
  }

  /** Whether an {@code Authorization} header's value carries the token. */
  boolean matches(String authorization) {
    if (token == null || authorization == null || !authorization.startsWith(BEARER)) {
      return false;
    }
    byte[] sent = authorization.substring(BEARER.length()).strip().getBytes(StandardCharsets.UTF_8);
    // Constant time in the token's content: a wrong guess says nothing of how close it came.
    return MessageDigest.isEqual(sent, token);
  }

  /** Equal tokens: so that two configurations read alike compare equal. */
  @Override
  public boolean equals(Object other) {
    return other instanceof ManagementToken that
        && (token == null ? that.token == null : MessageDigest.isEqual(token, that.token));
  }

  @Override
  public int hashCode() {
    return token == null ? 0 : 1; // never derived from the secret
  }

  /** Never the token: a configuration's text may end up in a log. */
  @Override
  public String toString() {
    return token == null ? "none" : "set (hidden)";
  }
}
