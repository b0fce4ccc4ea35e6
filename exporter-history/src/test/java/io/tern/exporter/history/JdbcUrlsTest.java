package io.tern.exporter.history;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JdbcUrlsTest {
  @Test
  void passwordsInUrlsAreHidden() {
    assertThat(JdbcUrls.redact("jdbc:postgresql://db:5432/tern?user=tern&password=s3cret&ssl=true"))
        .isEqualTo("jdbc:postgresql://db:5432/tern?user=tern&password=***&ssl=true");
    assertThat(JdbcUrls.redact("jdbc:postgresql://tern:s3cret@db/tern"))
        .isEqualTo("jdbc:postgresql://tern:***@db/tern");
    assertThat(
            JdbcUrls.redact("jdbc:h2:file:./data/history;USER=sa;PASSWORD=s3cret;AUTO_SERVER=TRUE"))
        .isEqualTo("jdbc:h2:file:./data/history;USER=sa;PASSWORD=***;AUTO_SERVER=TRUE");
    assertThat(JdbcUrls.redact("jdbc:postgresql://db/tern?sslpassword=key"))
        .isEqualTo("jdbc:postgresql://db/tern?sslpassword=***");
  }

  @Test
  void urlsWithoutPasswordsStayAsTheyAre() {
    assertThat(JdbcUrls.redact("jdbc:postgresql://db:5432/tern"))
        .isEqualTo("jdbc:postgresql://db:5432/tern");
    assertThat(JdbcUrls.redact("jdbc:h2:file:/var/lib/tern/history"))
        .isEqualTo("jdbc:h2:file:/var/lib/tern/history");
  }
}
