package io.tern.engine.broker;

import io.tern.engine.backup.BackupStore;
import io.tern.engine.backup.FileSystemBackupStore;
import io.tern.engine.backup.S3BackupStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * The {@code data.backup.*} keys (Zeebe's names): which store backups go to, and its settings. The
 * S3 secret key comes from the environment ({@code TERN_DATA_BACKUP_S3_SECRETKEY}) or a file
 * ({@code data.backup.s3.secretKeyFile}, e.g. a mounted Secret), never from the configuration file,
 * and is never printed.
 */
record BackupSettings(Kind kind, Path basePath, S3BackupStore.Config s3) {
  enum Kind {
    NONE,
    S3,
    FILESYSTEM
  }

  static final String STORE_KEY = "data.backup.store";
  static final String SECRET_KEY = "data.backup.s3.secretKey";
  static final String SECRET_FILE_KEY = "data.backup.s3.secretKeyFile";

  static BackupSettings none() {
    return new BackupSettings(Kind.NONE, null, null);
  }

  /** Reads the keys, adding a problem (never naming the secret) for each bad one. */
  static BackupSettings from(BrokerConfigLoader.Values values) {
    Kind kind;
    try {
      kind = Kind.valueOf(values.text(STORE_KEY).toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      values.bad(STORE_KEY, "none, s3 or filesystem");
      return none();
    }
    try {
      return switch (kind) {
        case NONE -> none();
        case FILESYSTEM -> {
          String base = values.text("data.backup.filesystem.basePath");
          if (base.isBlank()) {
            values.problem(
                "'data.backup.filesystem.basePath' must name a directory when "
                    + STORE_KEY
                    + " is filesystem");
            yield none();
          }
          yield new BackupSettings(kind, Path.of(base).toAbsolutePath(), null);
        }
        case S3 -> {
          String secret = secretKey(values);
          Duration timeout = values.duration("data.backup.s3.apiCallTimeout");
          yield new BackupSettings(
              kind,
              null,
              new S3BackupStore.Config(
                  values.text("data.backup.s3.bucketName"),
                  values.text("data.backup.s3.endpoint"),
                  values.text("data.backup.s3.region"),
                  values.text("data.backup.s3.accessKey"),
                  secret,
                  values.text("data.backup.s3.basePath"),
                  values.bool("data.backup.s3.forcePathStyleAccess"),
                  values.text("data.backup.s3.compression"),
                  timeout,
                  values.bytes("data.backup.s3.multipartThreshold"),
                  values.bytes("data.backup.s3.multipartPartSize")));
        }
      };
    } catch (IllegalArgumentException e) {
      values.problem(e.getMessage());
      return none();
    }
  }

  private static String secretKey(BrokerConfigLoader.Values values) {
    String literal = values.text(SECRET_KEY);
    String file = values.text(SECRET_FILE_KEY);
    if (!literal.isEmpty() && !values.origin(SECRET_KEY).startsWith("environment")) {
      throw new IllegalArgumentException(
          "'"
              + SECRET_KEY
              + "' (from "
              + values.origin(SECRET_KEY)
              + ") may not be written in the configuration file: set the environment variable"
              + " TERN_DATA_BACKUP_S3_SECRETKEY or point "
              + SECRET_FILE_KEY
              + " to a file holding it");
    }
    if (!literal.isEmpty() && !file.isEmpty()) {
      throw new IllegalArgumentException(
          "set one of TERN_DATA_BACKUP_S3_SECRETKEY and '" + SECRET_FILE_KEY + "', not both");
    }
    if (file.isEmpty()) {
      return literal;
    }
    try {
      // A Secret's file often ends in a newline, which is not part of the key.
      return Files.readString(Path.of(file), StandardCharsets.UTF_8).strip();
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          "cannot read the S3 secret key from the file "
              + file
              + " ('"
              + SECRET_FILE_KEY
              + "'): "
              + e);
    }
  }

  boolean configured() {
    return kind != Kind.NONE;
  }

  /** Opens the store; {@link BackupStore#NONE} when none is configured. */
  BackupStore open() {
    return switch (kind) {
      case NONE -> BackupStore.NONE;
      case FILESYSTEM -> new FileSystemBackupStore(basePath);
      case S3 -> new S3BackupStore(s3);
    };
  }

  /** Never the secret key. */
  @Override
  public String toString() {
    return switch (kind) {
      case NONE -> "none";
      case FILESYSTEM -> "filesystem " + basePath;
      case S3 -> s3.toString();
    };
  }
}
