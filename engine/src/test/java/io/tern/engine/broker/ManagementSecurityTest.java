package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The management token: where it may come from, and what the API does without one. */
class ManagementSecurityTest {
  private static final String TOKEN = "0123456789abcdef0123456789abcdef";

  @TempDir Path dir;

  @Test
  void theTokenComesFromTheEnvironmentOrAFileAndMatchesOnlyAsBearer() throws Exception {
    ManagementToken fromEnvironment =
        BrokerConfigLoader.load(null, Map.of("TERN_MANAGEMENT_SECURITY_TOKEN", TOKEN))
            .managementToken();
    assertThat(fromEnvironment.configured()).isTrue();
    assertThat(fromEnvironment.matches("Bearer " + TOKEN)).isTrue();
    assertThat(fromEnvironment.matches("Bearer " + TOKEN + "x")).isFalse();
    assertThat(fromEnvironment.matches(TOKEN)).isFalse();
    assertThat(fromEnvironment.matches(null)).isFalse();

    Path file = dir.resolve("token");
    Files.writeString(file, TOKEN + "\n"); // as a Secret's file often ends
    BrokerConfig fromFile =
        BrokerConfigLoader.load(
            null, Map.of("TERN_MANAGEMENT_SECURITY_TOKENFILE", file.toString()));
    assertThat(fromFile.managementToken().matches("Bearer " + TOKEN)).isTrue();
    // The configuration's text never holds it.
    assertThat(fromFile.toString()).doesNotContain(TOKEN).contains("set (hidden)");

    assertThat(BrokerConfig.defaults().managementToken().configured()).isFalse();
  }

  @Test
  void badTokensAreRefusedWithoutRepeatingThem() throws Exception {
    Path yaml = dir.resolve("tern.yaml");
    Files.writeString(yaml, "management:\n  security:\n    token: " + TOKEN + "\n");
    assertThatThrownBy(() -> BrokerConfigLoader.load(yaml, Map.of()))
        .hasMessageContaining("may not be written in the configuration file")
        .hasMessageContaining("TERN_MANAGEMENT_SECURITY_TOKEN")
        .hasMessageNotContaining(TOKEN);

    assertThatThrownBy(
            () -> BrokerConfigLoader.load(null, Map.of("TERN_MANAGEMENT_SECURITY_TOKEN", "short1")))
        .hasMessageContaining("at least 16 printable ASCII characters")
        .hasMessageNotContaining("short1");

    // What podman-compose 1.0.3 passes for ${TERN_MANAGEMENT_TOKEN:-} when the variable is unset.
    assertThatThrownBy(
            () ->
                BrokerConfigLoader.load(
                    null, Map.of("TERN_MANAGEMENT_SECURITY_TOKEN", "${TERN_MANAGEMENT_TOKEN:-}")))
        .hasMessageContaining("a variable reference that was not expanded");

    Path file = dir.resolve("token");
    Files.writeString(file, TOKEN);
    assertThatThrownBy(
            () ->
                BrokerConfigLoader.load(
                    null,
                    Map.of(
                        "TERN_MANAGEMENT_SECURITY_TOKEN",
                        TOKEN,
                        "TERN_MANAGEMENT_SECURITY_TOKENFILE",
                        file.toString())))
        .hasMessageContaining("not both")
        .hasMessageNotContaining(TOKEN);

    assertThatThrownBy(
            () ->
                BrokerConfigLoader.load(
                    null,
                    Map.of(
                        "TERN_MANAGEMENT_SECURITY_TOKENFILE", dir.resolve("missing").toString())))
        .hasMessageContaining("cannot read the management token from the file")
        .hasMessageContaining("missing");
    Files.writeString(file, "\n");
    assertThatThrownBy(
            () ->
                BrokerConfigLoader.load(
                    null, Map.of("TERN_MANAGEMENT_SECURITY_TOKENFILE", file.toString())))
        .hasMessageContaining("is empty");
  }

  @Test
  void withoutATokenOperationsAreOffAndSaySoAndVariablesAreRedacted() {
    ManagementApi api =
        new ManagementApi(
            List.of(),
            () -> "",
            () -> CompletableFuture.completedFuture(Map.of()),
            Map.of(),
            NetworkFaults.off(BrokerConfig.defaults()),
            () -> ManagementApi.Answer.json(200, "{}"),
            1,
            ManagementToken.none());
    for (String operation :
        new String[] {"/actuator/partitions/pauseProcessing", "/actuator/rebalance"}) {
      for (String authorization : new String[] {null, "Bearer " + TOKEN}) {
        ManagementApi.Answer answer = api.handle("POST", operation, authorization).join();
        assertThat(answer.status()).isEqualTo(403);
        assertThat(answer.body())
            .contains("operations are off")
            .contains("management.security.tokenFile")
            .contains("TERN_MANAGEMENT_SECURITY_TOKEN");
      }
    }
    assertThat(api.handle("GET", "/actuator/health", null).join().status()).isEqualTo(200);
    assertThat(api.handle("GET", "/actuator/partitions", null).join().status()).isEqualTo(200);
  }
}
