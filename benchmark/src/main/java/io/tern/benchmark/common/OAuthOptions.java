package io.tern.benchmark.common;

import io.camunda.client.CredentialsProvider;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --oauth}: the official client fetches an OAuth 2 access token (client_credentials) and
 * sends it with every call, for a gateway with {@code gateway.security.authentication.mode: oauth}.
 * The client secret comes from a file or an environment variable, never from the command line,
 * where every user of the machine could read it in the process list.
 */
public final class OAuthOptions {
  /** The environment variable the client secret is read from when no file is given. */
  public static final String SECRET_VARIABLE = "TERN_OAUTH_CLIENT_SECRET";

  @Option(
      names = "--oauth",
      paramLabel = "TOKEN_URL",
      description =
          "authenticate to the gateway with OAuth 2: the issuer's token endpoint, where the"
              + " client asks for tokens with its id and secret (client_credentials)")
  String tokenUrl;

  @Option(
      names = "--oauth-client-id",
      paramLabel = "ID",
      defaultValue = "tern-benchmark",
      description = "with --oauth: the client id (default ${DEFAULT-VALUE})")
  String clientId;

  @Option(
      names = "--oauth-client-secret-file",
      paramLabel = "FILE",
      description =
          "with --oauth: a file holding the client secret (default: the environment variable "
              + SECRET_VARIABLE
              + ")")
  Path clientSecretFile;

  @Option(
      names = "--oauth-audience",
      paramLabel = "AUDIENCE",
      defaultValue = "zeebe-api",
      description =
          "with --oauth: the audience the token is asked for, the gateway's"
              + " gateway.security.authentication.oauth.audience (default ${DEFAULT-VALUE})")
  String audience;

  /**
   * Reads the secret with --oauth, so that a missing one is said before anything starts.
   *
   * @throws IllegalArgumentException when it cannot be read, saying where it was looked for
   */
  public void check(Map<String, String> environment) {
    if (enabled()) {
      secret(environment);
    }
  }

  /** Whether --oauth was given. */
  public boolean enabled() {
    return tokenUrl != null;
  }

  /**
   * The official client's OAuthCredentialsProvider for these options, its headers held in memory
   * between calls ({@link HeldCredentials}), or null without --oauth (the client then sends no
   * credentials).
   *
   * @param environment where {@link #SECRET_VARIABLE} is looked up without a secret file
   * @throws IllegalArgumentException when the secret cannot be read, saying where it was looked for
   */
  public CredentialsProvider credentialsProvider(Map<String, String> environment) {
    if (!enabled()) {
      return null;
    }
    CredentialsProvider official =
        CredentialsProvider.newCredentialsProviderBuilder()
            .authorizationServerUrl(tokenUrl)
            .clientId(clientId)
            .clientSecret(secret(environment))
            .audience(audience)
            .build();
    return new HeldCredentials(official, System::nanoTime);
  }

  private String secret(Map<String, String> environment) {
    if (clientSecretFile != null) {
      try {
        String secret = Files.readString(clientSecretFile, StandardCharsets.UTF_8).strip();
        if (!secret.isEmpty()) {
          return secret;
        }
        throw new IllegalArgumentException(
            "--oauth-client-secret-file " + clientSecretFile + " is empty");
      } catch (IOException e) {
        throw new IllegalArgumentException(
            "cannot read --oauth-client-secret-file " + clientSecretFile + ": " + e.getMessage(),
            e);
      }
    }
    String secret = environment.get(SECRET_VARIABLE);
    if (secret == null || secret.isBlank()) {
      throw new IllegalArgumentException(
          "--oauth needs the client secret: --oauth-client-secret-file FILE or the environment"
              + " variable "
              + SECRET_VARIABLE);
    }
    return secret.strip();
  }
}
