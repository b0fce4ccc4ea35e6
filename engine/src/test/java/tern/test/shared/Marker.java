package tern.test.shared;

/**
 * A class on the broker's (the tests') class path whose name an exporter jar in {@code
 * io.tern.engine.exporter.ExporterClassLoaderTest} also bundles, with another value: the exporter
 * must see its own.
 */
public final class Marker {
  public static final String ORIGIN = "broker";

  private Marker() {}
}
