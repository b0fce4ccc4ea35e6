package io.tern.engine.broker;

import java.util.List;
import org.slf4j.Logger;
import sun.misc.Signal;

/**
 * The stop of {@code bin/broker} and {@code bin/gateway}: Ctrl-C (SIGINT) and SIGTERM run the
 * shutdown hooks, as the JVM's own handlers do, but then exit 0 instead of the JVM's 128 + signal
 * (130, 143). A stop that was asked for and went well is a success to a supervisor: systemd, a
 * container runtime or a CI script would otherwise report every clean stop as a failure.
 */
final class StopSignals {
  static final List<String> SIGNALS = List.of("TERM", "INT");

  /** The exit code of a stop on a signal whose shutdown failed. */
  static final int FAILED_STOP_EXIT_CODE = 1;

  private StopSignals() {}

  /**
   * Installs the handlers. A signal the process was started with ignored (SIGINT for a job put in
   * the background by a non-interactive shell) stays ignored, as under the JVM's own handlers.
   */
  static void exitZeroOnStop(Logger log) {
    for (String name : SIGNALS) {
      try {
        Signal.handle(new Signal(name), signal -> System.exit(0));
      } catch (IllegalArgumentException e) {
        // -Xrs or a platform without it: the JVM's handling (128 + n) stays.
        log.debug("SIG{} keeps the JVM's handler: {}", name, e.getMessage());
      }
    }
  }

  /**
   * The shutdown hook that stops {@code what} ("broker", "gateway"): logs the stop, and ends the
   * process with {@link #FAILED_STOP_EXIT_CODE} if closing throws, so that the 0 of a signal is
   * only ever a clean stop.
   */
  static Thread shutdownHook(Logger log, String what, AutoCloseable stoppable) {
    return new Thread(
        () -> {
          String title = Character.toUpperCase(what.charAt(0)) + what.substring(1);
          log.info("Stopping the {}", what);
          try {
            stoppable.close();
          } catch (Exception | Error e) {
            log.error("{} did not stop cleanly", title, e);
            Runtime.getRuntime().halt(FAILED_STOP_EXIT_CODE);
          }
          log.info("{} stopped", title);
        },
        "tern-shutdown");
  }
}
