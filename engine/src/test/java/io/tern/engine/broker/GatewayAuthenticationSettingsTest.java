package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.engine.gateway.auth.AuthenticationConfig;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** gateway.security.authentication.*: the default, a full oauth setting, and bad values named. */
class GatewayAuthenticationSettingsTest {
  @Test
  void theDefaultAuthenticatesNoOne() {
    assertThat(BrokerConfig.defaults().gateway().authentication().mode())
        .isEqualTo(AuthenticationConfig.Mode.NONE);
  }

  @Test
  void oauthReadsItsSettings() {
    AuthenticationConfig config =
        BrokerConfigLoader.load(
                null,
                Map.of(
                    "TERN_GATEWAY_SECURITY_AUTHENTICATION_MODE", "OAuth",
                    "TERN_GATEWAY_SECURITY_AUTHENTICATION_OAUTH_ISSUERURI",
                        "https://idp.example/realms/tern",
                    "TERN_GATEWAY_SECURITY_AUTHENTICATION_OAUTH_JWKSURI",
                        "https://idp.example/keys",
                    "TERN_GATEWAY_SECURITY_AUTHENTICATION_OAUTH_ALLOWEDCLOCKSKEW", "5s"))
            .gateway()
            .authentication();
    assertThat(config.mode()).isEqualTo(AuthenticationConfig.Mode.OAUTH);
    assertThat(config.oauth().issuer()).isEqualTo("https://idp.example/realms/tern");
    assertThat(config.oauth().jwksUri()).isEqualTo(URI.create("https://idp.example/keys"));
    assertThat(config.oauth().audience()).isEqualTo("zeebe-api");
    assertThat(config.oauth().allowedClockSkew()).isEqualTo(Duration.ofSeconds(5));
    assertThat(config.oauth().jwksRefreshMinInterval()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void oauthWithoutAnIssuerOrWithAnUnknownModeIsRefusedNamingTheKey() {
    assertThatThrownBy(
            () ->
                BrokerConfigLoader.load(
                    null, Map.of("TERN_GATEWAY_SECURITY_AUTHENTICATION_MODE", "oauth")))
        .hasMessageContaining("'gateway.security.authentication.oauth.issuerUri' = ''")
        .hasMessageContaining("an http or https URL");
    assertThatThrownBy(
            () ->
                BrokerConfigLoader.load(
                    null, Map.of("TERN_GATEWAY_SECURITY_AUTHENTICATION_MODE", "identity")))
        .hasMessageContaining("'gateway.security.authentication.mode' = 'identity'")
        .hasMessageContaining("none or oauth");
    assertThatThrownBy(
            () ->
                BrokerConfigLoader.load(
                    null,
                    Map.of(
                        "TERN_GATEWAY_SECURITY_AUTHENTICATION_MODE", "oauth",
                        "TERN_GATEWAY_SECURITY_AUTHENTICATION_OAUTH_ISSUERURI", "idp.example",
                        "TERN_GATEWAY_SECURITY_AUTHENTICATION_OAUTH_AUDIENCE", "")))
        .hasMessageContaining("'gateway.security.authentication.oauth.issuerUri' = 'idp.example'")
        .hasMessageContaining("'gateway.security.authentication.oauth.audience' = ''");
  }
}
