package io.tern.exporter.history;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** The history store on H2, a file database in a temporary directory as the broker's default. */
class H2HistoryExporterTest extends HistoryExporterContract {
  @TempDir Path dir;

  /** Holds the database in exclusive mode while it is "down". */
  private Connection exclusive;

  @Override
  String newStoreUrl() {
    return "jdbc:h2:file:" + dir.resolve("history").toAbsolutePath();
  }

  @Override
  Map<String, Object> credentials() {
    return Map.of();
  }

  /** Under a file, where no directory can be made (a server URL would retry for seconds). */
  @Override
  String unreachableUrl() {
    try {
      Path file = Files.createFile(dir.resolve("a-file"));
      return "jdbc:h2:file:" + file.toAbsolutePath() + "/history;PASSWORD=hunter2";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Exclusive mode 2 closes every other connection (rolling back their transactions) and refuses
   * new ones until it is lifted: to the exporter, the database is gone.
   */
  @Override
  void takeStoreDown() throws Exception {
    exclusive = DriverManager.getConnection(url);
    exclusive.createStatement().execute("SET EXCLUSIVE 2");
  }

  @Override
  void bringStoreBack() throws Exception {
    exclusive.createStatement().execute("SET EXCLUSIVE 0");
    exclusive.close();
    exclusive = null;
  }

  @AfterEach
  void release() throws Exception {
    if (exclusive != null) {
      exclusive.close();
    }
  }
}
