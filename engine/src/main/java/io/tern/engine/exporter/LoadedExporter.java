package io.tern.engine.exporter;

import io.camunda.zeebe.exporter.api.Exporter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLClassLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An exporter that loaded and configured: its instance, the {@link ExporterContext} it was
 * configured with and its class loader. Every call into the exporter goes through {@link #call}, on
 * the exporter's class loader as the thread's context class loader (libraries such as Hazelcast and
 * {@code ServiceLoader} look there).
 */
public final class LoadedExporter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LoadedExporter.class);

  private final ExporterDescriptor descriptor;
  private final Exporter exporter;
  private final ExporterContext context;
  private final ClassLoader loader;
  private final boolean ownsLoader;

  LoadedExporter(
      ExporterDescriptor descriptor,
      Exporter exporter,
      ExporterContext context,
      ClassLoader loader) {
    this(descriptor, exporter, context, loader, true);
  }

  /**
   * @param ownsLoader whether {@link #close} releases the loader: false for the instances a
   *     partition's director creates from the broker's (which share its loader)
   */
  LoadedExporter(
      ExporterDescriptor descriptor,
      Exporter exporter,
      ExporterContext context,
      ClassLoader loader,
      boolean ownsLoader) {
    this.descriptor = descriptor;
    this.exporter = exporter;
    this.context = context;
    this.loader = loader;
    this.ownsLoader = ownsLoader;
  }

  /** A call into the exporter (configure, open, export, close). */
  @FunctionalInterface
  public interface Call<T> {
    T apply(Exporter exporter) throws Exception;
  }

  /** Runs {@code call} with the exporter's class loader as the thread's context class loader. */
  public <T> T call(Call<T> call) throws Exception {
    return withContextLoader(loader, () -> call.apply(exporter));
  }

  /** What {@code Callable} is, with this class's purpose in its name. */
  @FunctionalInterface
  interface Action<T> {
    T run() throws Exception;
  }

  static <T> T withContextLoader(ClassLoader loader, Action<T> action) throws Exception {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(loader);
    try {
      return action.run();
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  public String id() {
    return descriptor.id();
  }

  public ExporterDescriptor descriptor() {
    return descriptor;
  }

  /** The exporter itself (for the records' director and for tests). */
  public Exporter exporter() {
    return exporter;
  }

  public ExporterContext context() {
    return context;
  }

  public ClassLoader classLoader() {
    return loader;
  }

  /**
   * Releases the exporter's jar (a failure to is logged) unless this instance shares another's
   * loader. The exporter itself is not closed here: whoever opened it closes it.
   */
  @Override
  public void close() {
    if (ownsLoader && loader instanceof ExporterClassLoader own) {
      try {
        closeLoader(own);
      } catch (UncheckedIOException e) {
        LOG.warn("exporter {}: {}", id(), e.getMessage(), e);
      }
    }
  }

  static void closeLoader(URLClassLoader loader) {
    try {
      loader.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close the class loader of " + loader.getName(), e);
    }
  }
}
