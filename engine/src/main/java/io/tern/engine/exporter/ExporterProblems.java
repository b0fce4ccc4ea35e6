package io.tern.engine.exporter;

import io.camunda.zeebe.exporter.api.Exporter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Words the errors of loading and linking an exporter for the person who configured it: which Java
 * version a class needs, which exporter API it was built against, which class it misses.
 */
final class ExporterProblems {
  private static final Pattern CLASS_FILE_VERSION =
      Pattern.compile("class file version (\\d+)(?:\\.\\d+)?");

  /** Java versions start at class file version 45 (Java 1.1); Java 17 is 61. */
  private static final int CLASS_FILE_VERSION_OFFSET = 44;

  private ExporterProblems() {}

  /** "UnsupportedClassVersionError: ...": the error's name, its message and its root cause's. */
  static String describe(Throwable error) {
    StringBuilder text = new StringBuilder(name(error));
    Throwable root = error;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    if (root != error) {
      text.append(" (caused by ").append(name(root)).append(')');
    }
    return text.toString();
  }

  private static String name(Throwable error) {
    return error.getMessage() == null
        ? error.getClass().getName()
        : error.getClass().getName() + ": " + error.getMessage();
  }

  /**
   * A {@link LinkageError} while {@code during} (loading the class, creating it, configure) of
   * {@code className}.
   */
  static String linkage(String className, String during, LinkageError error) {
    if (error instanceof UnsupportedClassVersionError) {
      return classVersion(error);
    }
    if (error instanceof ExceptionInInitializerError) {
      Throwable cause = error.getCause() == null ? error : error.getCause();
      return "a static initializer threw while " + during + ": " + describe(cause);
    }
    if (error instanceof IncompatibleClassChangeError && !mentionsTheApi(error)) {
      return "it was built against another version of a library than the one it gets (bundle that"
          + " library in the exporter's jar): "
          + describe(error);
    }
    if (error instanceof IncompatibleClassChangeError) { // NoSuchMethodError, AbstractMethodError..
      return "it was built against a newer exporter API than this broker provides (exporter API "
          + apiVersion()
          + " on Java "
          + Runtime.version().feature()
          + "; see docs/exporters.md): "
          + describe(error);
    }
    if (error instanceof NoClassDefFoundError) {
      return "a class that "
          + className
          + " needs is missing (bundle it in the exporter's jar): "
          + describe(error);
    }
    return "it cannot be linked while " + during + ": " + describe(error);
  }

  /** Whether a linkage error names a class of the exporter API or the protocol. */
  private static boolean mentionsTheApi(Throwable error) {
    String message = String.valueOf(error.getMessage()).replace('/', '.');
    return message.contains("io.camunda.zeebe.exporter.api.")
        || message.contains("io.camunda.zeebe.protocol.");
  }

  /** "class x needs Java 21 (class file version 65), but this broker runs on Java 17 (17.0.15)". */
  static String classVersion(LinkageError error) {
    String message = String.valueOf(error.getMessage());
    String subject =
        message.contains(" has been compiled")
            ? message.substring(0, message.indexOf(" has been compiled")).replace('/', '.')
            : "a class of it";
    Matcher version = CLASS_FILE_VERSION.matcher(message);
    String needs =
        version.find()
            ? "Java "
                + (Integer.parseInt(version.group(1)) - CLASS_FILE_VERSION_OFFSET)
                + " (class file version "
                + version.group(1)
                + ")"
            : "a newer Java";
    int running = Runtime.version().feature();
    return "class "
        + subject
        + " needs "
        + needs
        + ", but this broker runs on Java "
        + running
        + " ("
        + Runtime.version()
        + "): run the broker on that JDK or newer, or build the exporter for Java "
        + running
        + " (javac --release "
        + running
        + ")";
  }

  /** The exporter API's version, from its jar's manifest ("8.3.5"), or "of this broker". */
  static String apiVersion() {
    String version = Exporter.class.getPackage().getImplementationVersion();
    return version == null ? "(unknown version)" : version;
  }
}
