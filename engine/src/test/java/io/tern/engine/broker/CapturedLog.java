package io.tern.engine.broker;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;

/**
 * The log lines of this JVM (in-process brokers and gateways), as log4j2 writes them, kept for a
 * test to assert on: "LEVEL logger - message". Only what the configuration lets through (INFO and
 * above).
 */
final class CapturedLog implements AutoCloseable {
  private final List<String> lines = new ArrayList<>();
  private final AbstractAppender appender;

  private CapturedLog() {
    appender =
        new AbstractAppender(
            "captured-" + System.identityHashCode(this), null, null, true, Property.EMPTY_ARRAY) {
          @Override
          public void append(LogEvent event) {
            String line =
                event.getLevel()
                    + " "
                    + event.getLoggerName()
                    + " - "
                    + event.getMessage().getFormattedMessage();
            synchronized (lines) {
              lines.add(line);
            }
          }
        };
  }

  /** Captures from now on. */
  static CapturedLog start() {
    CapturedLog log = new CapturedLog();
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    log.appender.start();
    context.getConfiguration().getRootLogger().addAppender(log.appender, Level.ALL, null);
    context.updateLoggers();
    return log;
  }

  /** How many lines so far: a mark to look after. */
  int mark() {
    synchronized (lines) {
      return lines.size();
    }
  }

  /** The lines from {@code mark} on that {@code matching} accepts. */
  List<String> since(int mark, Predicate<String> matching) {
    synchronized (lines) {
      return lines.subList(mark, lines.size()).stream().filter(matching).toList();
    }
  }

  @Override
  public void close() {
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    context.getConfiguration().getRootLogger().removeAppender(appender.getName());
    context.updateLoggers();
    appender.stop();
  }
}
