package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BackupSettingsTest {
  @TempDir Path dir;

  @Test
  void theS3SecretKeyComesFromAFileOrTheEnvironmentAndIsNeverPrinted() throws Exception {
    Path secret = Files.writeString(dir.resolve("secret"), "very-secret-key\n");
    BrokerConfig fromFile =
        BrokerConfigLoader.load(
            null,
            Map.of(
                "TERN_DATA_BACKUP_STORE", "s3",
                "TERN_DATA_BACKUP_S3_BUCKETNAME", "backups",
                "TERN_DATA_BACKUP_S3_ACCESSKEY", "id",
                "TERN_DATA_BACKUP_S3_SECRETKEYFILE", secret.toString()));
    assertThat(fromFile.backup().s3().secretKey()).isEqualTo("very-secret-key");
    assertThat(fromFile.toString()).doesNotContain("very-secret-key").contains("s3://backups/");

    BrokerConfig fromEnvironment =
        BrokerConfigLoader.load(
            null,
            Map.of(
                "TERN_DATA_BACKUP_STORE", "s3",
                "TERN_DATA_BACKUP_S3_BUCKETNAME", "backups",
                "TERN_DATA_BACKUP_S3_ACCESSKEY", "id",
                "TERN_DATA_BACKUP_S3_SECRETKEY", "env-secret-key"));
    assertThat(fromEnvironment.backup().s3().secretKey()).isEqualTo("env-secret-key");
  }

  @Test
  void aSecretKeyInTheConfigurationFileIsRefused() throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("tern.yaml"),
            "data.backup.store: s3\n"
                + "data.backup.s3.bucketName: backups\n"
                + "data.backup.s3.accessKey: id\n"
                + "data.backup.s3.secretKey: written-down\n");
    assertThatThrownBy(() -> BrokerConfigLoader.load(file, Map.of()))
        .hasMessageContaining("may not be written in the configuration file")
        .hasMessageContaining("TERN_DATA_BACKUP_S3_SECRETKEY")
        .hasMessageNotContaining("written-down");
  }

  @Test
  void badStoreSettingsAreNamed() {
    assertThatThrownBy(() -> BrokerConfigLoader.load(null, Map.of("TERN_DATA_BACKUP_STORE", "gcs")))
        .hasMessageContaining("data.backup.store")
        .hasMessageContaining("none, s3 or filesystem");
    assertThatThrownBy(
            () -> BrokerConfigLoader.load(null, Map.of("TERN_DATA_BACKUP_STORE", "filesystem")))
        .hasMessageContaining("data.backup.filesystem.basePath");
    assertThatThrownBy(() -> BrokerConfigLoader.load(null, Map.of("TERN_DATA_BACKUP_STORE", "s3")))
        .hasMessageContaining("data.backup.s3.bucketName");
    assertThat(BrokerConfigLoader.load(null, Map.of()).backup().configured()).isFalse();
    assertThatThrownBy(
            () ->
                BrokerConfigLoader.load(
                    null,
                    Map.of(
                        "TERN_DATA_BACKUP_STORE", "s3",
                        "TERN_DATA_BACKUP_S3_BUCKETNAME", "backups",
                        "TERN_DATA_BACKUP_S3_MULTIPARTPARTSIZE", "1MB")))
        .hasMessageContaining("data.backup.s3.multipartPartSize must be from 5MB to 5GB");
    assertThatThrownBy(
            () ->
                BrokerConfigLoader.load(
                    null,
                    Map.of(
                        "TERN_DATA_BACKUP_STORE", "s3",
                        "TERN_DATA_BACKUP_S3_BUCKETNAME", "backups",
                        "TERN_DATA_BACKUP_S3_MULTIPARTTHRESHOLD", "big")))
        .hasMessageContaining("'data.backup.s3.multipartThreshold' = 'big'")
        .hasMessageContaining("a size in bytes");
  }

  @Test
  void multipartSizesAreReadInZeebesUnits() {
    BrokerConfig config =
        BrokerConfigLoader.load(
            null,
            Map.of(
                "TERN_DATA_BACKUP_STORE", "s3",
                "TERN_DATA_BACKUP_S3_BUCKETNAME", "backups",
                "TERN_DATA_BACKUP_S3_MULTIPARTTHRESHOLD", "1GB",
                "TERN_DATA_BACKUP_S3_MULTIPARTPARTSIZE", "16MB"));
    assertThat(config.backup().s3().multipartThreshold()).isEqualTo(1L << 30);
    assertThat(config.backup().s3().multipartPartSize()).isEqualTo(16L << 20);
    BrokerConfig defaults =
        BrokerConfigLoader.load(
            null,
            Map.of("TERN_DATA_BACKUP_STORE", "s3", "TERN_DATA_BACKUP_S3_BUCKETNAME", "backups"));
    assertThat(defaults.backup().s3().multipartThreshold()).isEqualTo(128L << 20);
    assertThat(defaults.backup().s3().multipartPartSize()).isEqualTo(64L << 20);
  }
}
