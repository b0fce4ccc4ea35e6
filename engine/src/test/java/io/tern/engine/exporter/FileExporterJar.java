package io.tern.engine.exporter;

import java.io.IOException;
import java.nio.file.Path;

/**
 * An exporter in a jar of its own (so it gets its own class loader) for the director's tests: it
 * appends a line per call to the file named by its {@code out} arg, saying whether the thread's
 * context class loader was its own ({@code own}) and on which thread, and acknowledges each record.
 */
public final class FileExporterJar {
  public static final String CLASS_NAME = "acme.files.FileExporter";

  private FileExporterJar() {}

  /** Builds the jar under {@code dir}. */
  public static Path build(Path dir) throws IOException {
    return ExporterJars.in(dir)
        .source(
            """
            package acme.files;

            import io.camunda.zeebe.exporter.api.Exporter;
            import io.camunda.zeebe.exporter.api.context.Context;
            import io.camunda.zeebe.exporter.api.context.Controller;
            import io.camunda.zeebe.protocol.record.Record;
            import java.io.IOException;
            import java.io.UncheckedIOException;
            import java.nio.file.Files;
            import java.nio.file.Path;
            import java.nio.file.StandardOpenOption;

            public class FileExporter implements Exporter {
              private Path out;
              private Controller controller;

              @Override
              public void configure(Context context) {
                out = Path.of(String.valueOf(context.getConfiguration().getArguments().get("out")));
                append("configure");
              }

              @Override
              public void open(Controller controller) {
                this.controller = controller;
                append("open");
              }

              @Override
              public void export(Record<?> record) {
                append("export " + record.getPosition());
                controller.updateLastExportedRecordPosition(record.getPosition());
              }

              @Override
              public void close() {
                append("close");
              }

              private void append(String call) {
                ClassLoader loader = Thread.currentThread().getContextClassLoader();
                String line =
                    call
                        + " "
                        + (loader == getClass().getClassLoader() ? "own" : String.valueOf(loader))
                        + " "
                        + Thread.currentThread().getName()
                        + "\\n";
                try {
                  Files.writeString(
                      out, line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              }
            }
            """)
        .build("file-exporter");
  }
}
