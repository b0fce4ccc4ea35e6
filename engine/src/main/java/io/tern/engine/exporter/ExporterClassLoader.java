package io.tern.engine.exporter;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * The class loader of an exporter that comes in its own jar: child-first, so that the exporter's
 * bundled libraries (its Jackson, protobuf, Hazelcast...) win over the broker's, except for the
 * packages the exporter and the broker must share, which are always the broker's: the JDK's, the
 * exporter API and the protocol (the types of {@code Exporter}, {@code Context} and {@code
 * Record}), slf4j ({@code Context.getLogger}) and Micrometer ({@code Context.getMeterRegistry}). A
 * jar that bundles copies of these gets the broker's classes all the same.
 */
final class ExporterClassLoader extends URLClassLoader {
  static {
    registerAsParallelCapable();
  }

  /** Packages always loaded by the parent (the broker's class loader). */
  static final List<String> PARENT_FIRST =
      List.of(
          "java.",
          "javax.",
          "jdk.",
          "sun.",
          "io.camunda.zeebe.exporter.api.",
          "io.camunda.zeebe.protocol.",
          "org.slf4j.",
          "io.micrometer.");

  ExporterClassLoader(String exporterId, URL jar, ClassLoader parent) {
    super("exporter-" + exporterId, new URL[] {jar}, parent);
  }

  static boolean parentFirst(String className) {
    for (String prefix : PARENT_FIRST) {
      if (className.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    if (parentFirst(name)) {
      return super.loadClass(name, resolve); // URLClassLoader's order: the parent first
    }
    synchronized (getClassLoadingLock(name)) {
      Class<?> type = findLoadedClass(name);
      if (type == null) {
        try {
          type = findClass(name);
        } catch (ClassNotFoundException notInTheJar) {
          type = getParent().loadClass(name);
        }
      }
      if (resolve) {
        resolveClass(type);
      }
      return type;
    }
  }

  @Override
  public URL getResource(String name) {
    if (parentFirst(name.replace('/', '.'))) {
      return super.getResource(name);
    }
    URL own = findResource(name);
    return own != null ? own : getParent().getResource(name);
  }

  @Override
  public Enumeration<URL> getResources(String name) throws IOException {
    if (parentFirst(name.replace('/', '.'))) {
      return super.getResources(name);
    }
    List<URL> urls = new ArrayList<>(Collections.list(findResources(name)));
    urls.addAll(Collections.list(getParent().getResources(name)));
    return Collections.enumeration(urls);
  }
}
