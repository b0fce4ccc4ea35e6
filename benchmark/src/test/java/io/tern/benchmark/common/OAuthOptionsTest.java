package io.tern.benchmark.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class OAuthOptionsTest {
  @TempDir Path dir;

  private static OAuthOptions parse(String... args) {
    OAuthOptions options = new OAuthOptions();
    new CommandLine(options).parseArgs(args);
    return options;
  }

  @Test
  void withoutOauthTheClientSendsNoCredentials() {
    OAuthOptions options = parse();
    assertThat(options.enabled()).isFalse();
    assertThat(options.credentialsProvider(Map.of())).isNull();
  }

  @Test
  void theSecretComesFromAFileOrTheEnvironment() throws Exception {
    Path secret = Files.writeString(dir.resolve("secret"), "s3cret\n");
    OAuthOptions fromFile =
        parse(
            "--oauth", "https://idp.example/token",
            "--oauth-client-id", "starter",
            "--oauth-client-secret-file", secret.toString());
    assertThat(fromFile.clientId).isEqualTo("starter");
    assertThat(fromFile.audience).isEqualTo("zeebe-api");
    assertThat(fromFile.credentialsProvider(Map.of())).isInstanceOf(HeldCredentials.class);

    OAuthOptions fromEnvironment = parse("--oauth", "https://idp.example/token");
    fromEnvironment.check(Map.of(OAuthOptions.SECRET_VARIABLE, "s3cret"));
    assertThat(fromEnvironment.credentialsProvider(Map.of(OAuthOptions.SECRET_VARIABLE, "s3cret")))
        .isInstanceOf(HeldCredentials.class);
  }

  @Test
  void aMissingSecretIsSaidWithWhereItWasLookedFor() {
    assertThatThrownBy(() -> parse("--oauth", "https://idp.example/token").check(Map.of()))
        .hasMessageContaining("--oauth-client-secret-file")
        .hasMessageContaining(OAuthOptions.SECRET_VARIABLE);
    assertThatThrownBy(
            () ->
                parse(
                        "--oauth",
                        "https://idp.example/token",
                        "--oauth-client-secret-file",
                        dir.resolve("absent").toString())
                    .check(Map.of()))
        .hasMessageContaining("cannot read --oauth-client-secret-file");
  }
}
