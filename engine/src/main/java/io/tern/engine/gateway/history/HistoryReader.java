package io.tern.engine.gateway.history;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads the history store (docs/history.md) for the REST API's searches: a few JDBC connections to
 * the database the history exporter writes, used by threads of its own so that the REST event loops
 * never wait on the database. A connection that failed is dropped and the next read opens a new
 * one, so a database that was down is used again once it is back.
 */
public final class HistoryReader implements AutoCloseable {
  /** Timer of each query, tagged with the query's name. */
  public static final String QUERY_TIMER = "tern.history.query";

  /**
   * Reads done with a connection; what it returns is the read's result. Each statement it runs is
   * to be given {@code timeoutSeconds} ({@code Statement.setQueryTimeout}).
   */
  public interface Work<T> {
    T run(Connection connection, int timeoutSeconds) throws SQLException;
  }

  /** How long one statement may run by default before the database cancels it. */
  public static final Duration QUERY_TIMEOUT = Duration.ofSeconds(30);

  /** SQL's "query canceled", which both databases give a statement past its timeout. */
  private static final String CANCELED = "57014";

  /** Where the store is: the history exporter's own {@code url}, {@code username}, password. */
  public record Location(String url, String username, String password) {
    @Override
    public String toString() {
      return "Location[url=" + url + ", username=" + username + "]"; // never the password
    }
  }

  private static final int THREADS = 2;

  private final Location location;
  private final ExecutorService threads;
  private final Deque<Connection> idle = new ArrayDeque<>();
  private final MeterRegistry registry;
  private final int timeoutSeconds;

  public HistoryReader(Location location, MeterRegistry registry) {
    this(location, QUERY_TIMEOUT, registry);
  }

  /**
   * @param queryTimeout how long one statement may run: a search that would hold a reading thread
   *     longer (a wildcard over millions of values) is cancelled and answered 504
   */
  public HistoryReader(Location location, Duration queryTimeout, MeterRegistry registry) {
    this.location = location;
    this.timeoutSeconds = (int) Math.max(1, queryTimeout.toSeconds());
    this.registry = registry;
    AtomicInteger count = new AtomicInteger();
    // Bounded: a flood of searches waits here rather than piling up threads or connections.
    this.threads =
        new ThreadPoolExecutor(
            THREADS,
            THREADS,
            0,
            TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(1024),
            runnable -> {
              Thread thread = new Thread(runnable, "tern-history-read-" + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
  }

  /**
   * Runs {@code work} on a reading thread with a connection of the store; timed as {@code name}.
   */
  public <T> CompletableFuture<T> read(String name, Work<T> work) {
    try {
      return CompletableFuture.supplyAsync(() -> readNow(name, work), threads);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      return CompletableFuture.failedFuture(
          new HistoryUnavailableException("too many searches are waiting for the history store"));
    }
  }

  private <T> T readNow(String name, Work<T> work) {
    Timer.Sample sample = Timer.start(registry);
    Connection connection = null;
    try {
      connection = take();
      T result = work.run(connection, timeoutSeconds);
      give(connection);
      return result;
    } catch (SQLException e) {
      close(connection);
      if (CANCELED.equals(e.getSQLState())) {
        throw new HistoryTimeoutException(
            "the search took longer than "
                + timeoutSeconds
                + " s in the history store and was cancelled: narrow its filter",
            e);
      }
      throw new HistoryUnavailableException("the history store could not be read: " + reason(e), e);
    } catch (RuntimeException e) {
      close(connection);
      throw e;
    } finally {
      sample.stop(
          Timer.builder(QUERY_TIMER)
              .description("a search's queries on the history store")
              .tag("query", name)
              .register(registry));
    }
  }

  /** The database's reason, without the statement H2 appends (it says nothing to a client). */
  private static String reason(SQLException e) {
    String message = String.valueOf(e.getMessage());
    int statement = message.indexOf("; SQL statement");
    return (statement < 0 ? message : message.substring(0, statement)).strip();
  }

  private Connection take() throws SQLException {
    synchronized (idle) {
      Connection connection = idle.poll();
      if (connection != null) {
        return connection;
      }
    }
    Properties properties = new Properties();
    if (location.username() != null) {
      properties.setProperty("user", location.username());
    }
    if (location.password() != null) {
      properties.setProperty("password", location.password());
    }
    Connection connection = DriverManager.getConnection(location.url(), properties);
    connection.setReadOnly(true);
    return connection;
  }

  private void give(Connection connection) {
    try {
      if (!connection.getAutoCommit()) {
        connection.rollback();
      }
    } catch (SQLException e) {
      close(connection);
      return;
    }
    synchronized (idle) {
      idle.push(connection);
    }
  }

  private static void close(Connection connection) {
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException e) {
        // dropped either way
      }
    }
  }

  @Override
  public void close() {
    threads.shutdownNow();
    synchronized (idle) {
      idle.forEach(HistoryReader::close);
      idle.clear();
    }
  }

  /** A statement ran past its timeout and was cancelled: a 504. */
  public static final class HistoryTimeoutException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    HistoryTimeoutException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** The store cannot be read now (down, or its tables not made yet): a 503, worth a retry. */
  public static final class HistoryUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    HistoryUnavailableException(String message) {
      super(message);
    }

    HistoryUnavailableException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
