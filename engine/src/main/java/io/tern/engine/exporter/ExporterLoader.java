package io.tern.engine.exporter;

import io.camunda.zeebe.exporter.api.Exporter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads configured exporters: opens each one's jar in its own {@link ExporterClassLoader} (or takes
 * the class from the broker's class path without a jar), creates it with its public no-arg
 * constructor and calls its {@code configure} once, as Zeebe does at broker start to check the
 * configuration. Anything that goes wrong is an {@link ExporterLoadException} naming the exporter's
 * id and the cause; {@link ExporterProblems} words the JDK's and the linker's errors.
 */
public final class ExporterLoader {
  private static final Logger LOG = LoggerFactory.getLogger(ExporterLoader.class);

  private final int partitionId;
  private final MeterRegistry registry;
  private final InstantSource clock;
  private final ClassLoader brokerLoader;

  /**
   * @param partitionId what {@code Context.getPartitionId()} answers while configuring
   * @param registry what {@code Context.getMeterRegistry()} answers
   * @param clock what {@code Context.clock()} answers
   */
  public ExporterLoader(int partitionId, MeterRegistry registry, InstantSource clock) {
    this.partitionId = partitionId;
    this.registry = registry;
    this.clock = clock;
    this.brokerLoader = ExporterLoader.class.getClassLoader();
  }

  /**
   * Loads and configures every exporter; logs each one that did.
   *
   * @throws ExporterLoadException naming every exporter that failed (those that loaded are
   *     released)
   */
  public List<LoadedExporter> loadAll(List<ExporterDescriptor> descriptors) {
    List<LoadedExporter> loaded = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    Throwable cause = null;
    for (ExporterDescriptor descriptor : descriptors) {
      try {
        loaded.add(load(descriptor));
      } catch (ExporterLoadException e) {
        problems.addAll(e.problems());
        cause = cause == null ? e.getCause() : cause;
      }
    }
    if (!problems.isEmpty()) {
      loaded.forEach(LoadedExporter::close);
      throw new ExporterLoadException(problems, cause);
    }
    for (LoadedExporter exporter : loaded) {
      LOG.info("exporter {} ({}) configured", exporter.id(), exporter.descriptor().className());
    }
    return loaded;
  }

  /**
   * Loads, creates and configures one exporter.
   *
   * @throws ExporterLoadException naming the exporter's id and what is wrong
   */
  public LoadedExporter load(ExporterDescriptor descriptor) {
    ClassLoader loader = brokerLoader;
    try {
      String className = descriptor.className();
      if (className == null || className.isBlank()) {
        throw new Failure("no class name: set exporters." + descriptor.id() + ".className", null);
      }
      if (descriptor.hasJar()) {
        loader = openJar(descriptor);
      }
      Class<? extends Exporter> type = exporterClass(descriptor, loader);
      Exporter exporter = create(type, loader);
      ExporterContext context =
          new ExporterContext(
              new ExporterConfiguration(descriptor.id(), descriptor.args()),
              partitionId,
              registry,
              clock);
      configure(exporter, context, loader);
      return new LoadedExporter(descriptor, exporter, context, loader);
    } catch (Failure failure) {
      if (loader instanceof ExporterClassLoader own) {
        try {
          LoadedExporter.closeLoader(own);
        } catch (RuntimeException closing) {
          failure.addSuppressed(closing);
        }
      }
      throw new ExporterLoadException(
          List.of("exporter '" + descriptor.id() + "': " + failure.getMessage()),
          failure.getCause());
    }
  }

  /**
   * Another instance of an exporter that loaded, for this loader's partition: created with the same
   * class and class loader (which it shares: closing it does not release the jar) and configured
   * again, as Zeebe configures each partition's instance.
   *
   * @throws ExporterLoadException naming the exporter's id and what went wrong
   */
  public LoadedExporter newInstance(LoadedExporter template) {
    ExporterDescriptor descriptor = template.descriptor();
    ClassLoader loader = template.classLoader();
    try {
      Exporter exporter = create(template.exporter().getClass(), loader);
      ExporterContext context =
          new ExporterContext(
              new ExporterConfiguration(descriptor.id(), descriptor.args()),
              partitionId,
              registry,
              clock);
      configure(exporter, context, loader);
      return new LoadedExporter(descriptor, exporter, context, loader, false);
    } catch (Failure failure) {
      throw new ExporterLoadException(
          List.of("exporter '" + descriptor.id() + "': " + failure.getMessage()),
          failure.getCause());
    }
  }

  private ExporterClassLoader openJar(ExporterDescriptor descriptor) throws Failure {
    Path jar = descriptor.jarPath();
    String key = " (exporters." + descriptor.id() + ".jarPath)";
    if (!Files.exists(jar)) {
      throw new Failure("jar " + jar + " not found" + key, null);
    }
    if (!Files.isRegularFile(jar) || !Files.isReadable(jar)) {
      throw new Failure("jar " + jar + " is not a readable file" + key, null);
    }
    try (JarFile ignored = new JarFile(jar.toFile())) {
      // readable as a jar
    } catch (IOException e) {
      throw new Failure("jar " + jar + " cannot be read as a jar" + key + ": " + e.getMessage(), e);
    }
    try {
      return new ExporterClassLoader(descriptor.id(), jar.toUri().toURL(), brokerLoader);
    } catch (MalformedURLException e) {
      throw new Failure("jar " + jar + " has no URL" + key + ": " + e.getMessage(), e);
    }
  }

  private static Class<? extends Exporter> exporterClass(
      ExporterDescriptor descriptor, ClassLoader loader) throws Failure {
    String className = descriptor.className();
    Class<?> type;
    try {
      type = Class.forName(className, false, loader);
    } catch (ClassNotFoundException e) {
      throw new Failure(
          "class "
              + className
              + " not found "
              + (descriptor.hasJar()
                  ? "in " + descriptor.jarPath()
                  : "on the broker's class path (exporters."
                      + descriptor.id()
                      + ".jarPath is not set)"),
          e);
    } catch (LinkageError e) {
      throw new Failure(ExporterProblems.linkage(className, "loading it", e), e);
    }
    if (!Exporter.class.isAssignableFrom(type)) {
      throw new Failure(
          "class "
              + className
              + " is not an exporter: it does not implement "
              + Exporter.class.getName(),
          null);
    }
    if (type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
      throw new Failure("class " + className + " is abstract", null);
    }
    return type.asSubclass(Exporter.class);
  }

  private static Exporter create(Class<? extends Exporter> type, ClassLoader loader)
      throws Failure {
    Constructor<? extends Exporter> constructor;
    try {
      constructor = type.getConstructor();
    } catch (NoSuchMethodException e) {
      throw new Failure("class " + type.getName() + " has no public no-arg constructor", e);
    }
    try {
      return LoadedExporter.withContextLoader(loader, constructor::newInstance);
    } catch (InvocationTargetException e) {
      throw new Failure(
          "its constructor threw " + ExporterProblems.describe(e.getCause()), e.getCause());
    } catch (IllegalAccessException e) {
      throw new Failure("class " + type.getName() + " is not public", e);
    } catch (LinkageError e) {
      throw new Failure(ExporterProblems.linkage(type.getName(), "creating it", e), e);
    } catch (Exception e) {
      throw new Failure("it cannot be created: " + ExporterProblems.describe(e), e);
    }
  }

  private static void configure(Exporter exporter, ExporterContext context, ClassLoader loader)
      throws Failure {
    try {
      LoadedExporter.withContextLoader(
          loader,
          () -> {
            exporter.configure(context);
            return null;
          });
    } catch (LinkageError e) {
      throw new Failure(ExporterProblems.linkage(exporter.getClass().getName(), "configure", e), e);
    } catch (Exception e) {
      throw new Failure("configure threw " + ExporterProblems.describe(e), e);
    }
  }

  /** What went wrong with one exporter, without its id (which {@link #load} adds). */
  private static final class Failure extends Exception {
    private static final long serialVersionUID = 1L;

    Failure(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
