package io.tern.exporter.history;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Connections to the history store, straight from the dialect's driver (no pool: each partition's
 * exporter holds one connection and uses it from the director's thread). Also handed to Flyway as
 * its {@code DataSource}.
 */
final class JdbcSource implements DataSource {
  private final SqlDialect dialect;
  private final Driver driver;
  private final String url;
  private final String username;
  private final String password;

  JdbcSource(SqlDialect dialect, String url, String username, String password) {
    this.dialect = dialect;
    this.driver = dialect.driver();
    this.url = url;
    this.username = username;
    this.password = password;
  }

  SqlDialect dialect() {
    return dialect;
  }

  @Override
  public Connection getConnection() throws SQLException {
    return getConnection(username, password);
  }

  @Override
  public Connection getConnection(String user, String secret) throws SQLException {
    Properties properties = new Properties();
    if (user != null) {
      properties.setProperty("user", user);
    }
    if (secret != null) {
      properties.setProperty("password", secret);
    }
    Connection connection = driver.connect(url, properties);
    if (connection == null) {
      // Only when the driver does not take the URL, which the dialect was chosen by.
      throw new SQLException("the " + dialect.name() + " driver does not accept the URL");
    }
    return connection;
  }

  @Override
  public PrintWriter getLogWriter() {
    return null;
  }

  @Override
  public void setLogWriter(PrintWriter out) {}

  @Override
  public void setLoginTimeout(int seconds) {}

  @Override
  public int getLoginTimeout() {
    return 0;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException();
  }

  @Override
  public <T> T unwrap(Class<T> type) throws SQLException {
    if (type.isInstance(this)) {
      return type.cast(this);
    }
    throw new SQLException("not a wrapper of " + type.getName());
  }

  @Override
  public boolean isWrapperFor(Class<?> type) {
    return type.isInstance(this);
  }
}
