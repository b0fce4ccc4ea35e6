package io.tern.engine.exporter;

import io.camunda.zeebe.exporter.api.Exporter;
import io.camunda.zeebe.protocol.record.Record;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.slf4j.Logger;

/**
 * Builds exporter jars in a test: compiles Java sources given as strings (with {@code javac
 * --release 17}) against the exporter API, the protocol and slf4j of the tests' class path, and
 * writes the classes into a jar.
 */
final class ExporterJars {
  private final Path dir;
  private final Map<String, String> sources = new LinkedHashMap<>();
  private final Map<String, byte[]> extraEntries = new LinkedHashMap<>();
  private final List<String> leftOut = new ArrayList<>();
  private int release = 17;
  private String classPath = defaultClassPath();

  private ExporterJars(Path dir) {
    this.dir = dir;
  }

  /** A jar to be built under {@code dir}. */
  static ExporterJars in(Path dir) {
    return new ExporterJars(dir);
  }

  /** A source file; its path is taken from the package and the first public type's name. */
  ExporterJars source(String code) {
    String pkg = match(code, "package\\s+([\\w.]+)\\s*;");
    String type = match(code, "public\\s+(?:final\\s+)?(?:class|interface)\\s+(\\w+)");
    String path = (pkg == null ? "" : pkg.replace('.', '/') + "/") + type + ".java";
    sources.put(path, code);
    return this;
  }

  /** Compiles against this source, but leaves classes under {@code prefix} out of the jar. */
  ExporterJars compileOnly(String pathPrefix) {
    leftOut.add(pathPrefix);
    return this;
  }

  /** Compiles for this Java version (javac --release) instead of 17. */
  ExporterJars release(int version) {
    this.release = version;
    return this;
  }

  /** Compiles against these jars instead of the tests' exporter API, protocol and slf4j. */
  ExporterJars classPath(List<Path> jars) {
    this.classPath =
        jars.stream().map(Path::toString).collect(Collectors.joining(java.io.File.pathSeparator));
    return this;
  }

  /** Adds an entry as it is (a copy of a class of the broker's, say). */
  ExporterJars entry(String name, byte[] bytes) {
    extraEntries.put(name, bytes);
    return this;
  }

  /** Compiles and writes {@code <name>.jar}; fails the test if javac does. */
  Path build(String name) throws IOException {
    Path work = Files.createDirectories(dir.resolve(name + "-build"));
    Path src = work.resolve("src");
    Path classes = Files.createDirectories(work.resolve("classes"));
    List<String> args =
        new ArrayList<>(
            List.of(
                "--release",
                Integer.toString(release),
                "-d",
                classes.toString(),
                "-classpath",
                classPath));
    for (Map.Entry<String, String> source : sources.entrySet()) {
      Path file = src.resolve(source.getKey());
      Files.createDirectories(file.getParent());
      Files.writeString(file, source.getValue());
      args.add(file.toString());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    StringWriter errors = new StringWriter();
    int exit =
        javac.run(
            null,
            OutputStream.nullOutputStream(),
            new java.io.PrintStream(
                new OutputStream() {
                  @Override
                  public void write(int b) {
                    errors.write(b);
                  }
                },
                true,
                StandardCharsets.UTF_8),
            args.toArray(String[]::new));
    if (exit != 0) {
      throw new AssertionError("javac failed:\n" + errors);
    }
    Path jar = dir.resolve(name + ".jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
        Stream<Path> files = Files.walk(classes)) {
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        String entry = classes.relativize(file).toString().replace('\\', '/');
        if (leftOut.stream().noneMatch(entry::startsWith)) {
          out.putNextEntry(new JarEntry(entry));
          out.write(Files.readAllBytes(file));
          out.closeEntry();
        }
      }
      for (Map.Entry<String, byte[]> extra : extraEntries.entrySet()) {
        out.putNextEntry(new JarEntry(extra.getKey()));
        out.write(extra.getValue());
        out.closeEntry();
      }
    }
    return jar;
  }

  /** The jars (or directories) of the exporter API, the protocol and slf4j. */
  private static String defaultClassPath() {
    return Stream.of(Exporter.class, Record.class, Logger.class)
        .map(ExporterJars::location)
        .map(Path::toString)
        .distinct()
        .collect(Collectors.joining(java.io.File.pathSeparator));
  }

  /** The jar or directory {@code type} was loaded from. */
  static Path location(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The bytes of a class as the tests' class path has it. */
  static byte[] classBytes(Class<?> type) throws IOException {
    String name = type.getName().replace('.', '/') + ".class";
    try (var in = type.getClassLoader().getResourceAsStream(name)) {
      return in.readAllBytes();
    }
  }

  private static String match(String code, String regex) {
    java.util.regex.Matcher matcher = java.util.regex.Pattern.compile(regex).matcher(code);
    return matcher.find() ? matcher.group(1) : null;
  }
}
