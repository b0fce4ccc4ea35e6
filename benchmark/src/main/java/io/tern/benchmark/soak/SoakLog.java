package io.tern.benchmark.soak;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The soak's data: {@code intervals.jsonl} in its directory, one JSON object per interval and line,
 * only ever appended to, so that a soak restarted on the same directory goes on with the same
 * series. A line is {@code {"epochMs":..., "elapsedS":..., "segment":..., "signals":{name:
 * value,...}}}; a line cut short by a crash is skipped when read.
 */
final class SoakLog implements AutoCloseable {
  static final String FILE = "intervals.jsonl";
  private static final JsonFactory JSON = new JsonFactory();

  private final BufferedWriter out;

  private SoakLog(BufferedWriter out) {
    this.out = out;
  }

  /**
   * Opens {@code dir}'s log for appending, creating both if needed. A last line cut short by a
   * crash is ended first, so that it alone is lost, not the next interval with it.
   */
  static SoakLog append(Path dir) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve(FILE);
    boolean cutShort = false;
    if (Files.exists(file) && Files.size(file) > 0) {
      try (var channel = java.nio.channels.FileChannel.open(file)) {
        java.nio.ByteBuffer last = java.nio.ByteBuffer.allocate(1);
        channel.read(last, channel.size() - 1);
        cutShort = last.get(0) != '\n';
      }
    }
    SoakLog log =
        new SoakLog(
            Files.newBufferedWriter(
                file,
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND,
                StandardOpenOption.WRITE));
    if (cutShort) {
      log.out.write('\n');
    }
    return log;
  }

  /** Writes the interval as one line and flushes it (a crash loses at most the line being cut). */
  void write(SoakSeries.Interval interval) throws IOException {
    out.write(line(interval));
    out.write('\n');
    out.flush();
  }

  static String line(SoakSeries.Interval interval) throws IOException {
    StringWriter text = new StringWriter();
    try (JsonGenerator json = JSON.createGenerator(text)) {
      json.writeStartObject();
      json.writeNumberField("epochMs", interval.epochMs());
      json.writeNumberField("elapsedS", round(interval.elapsedS()));
      json.writeNumberField("segment", interval.segment());
      json.writeObjectFieldStart("signals");
      for (Map.Entry<String, Double> signal : interval.signals().entrySet()) {
        double value = signal.getValue() == null ? Double.NaN : signal.getValue();
        if (Double.isFinite(value)) {
          json.writeNumberField(signal.getKey(), round(value));
        } else {
          json.writeNullField(signal.getKey());
        }
      }
      json.writeEndObject();
      json.writeEndObject();
    }
    return text.toString();
  }

  /** Four decimals: finer than anything recorded is worth, and shorter lines. */
  private static double round(double value) {
    return Math.abs(value) >= 1e12 ? value : Math.round(value * 1e4) / 1e4;
  }

  /** Every complete interval in {@code dir}'s log, in order; none if there is no log. */
  static List<SoakSeries.Interval> read(Path dir) throws IOException {
    Path file = dir.resolve(FILE);
    List<SoakSeries.Interval> intervals = new ArrayList<>();
    if (!Files.exists(file)) {
      return intervals;
    }
    try (var lines = Files.lines(file, StandardCharsets.UTF_8)) {
      for (String line : (Iterable<String>) lines::iterator) {
        if (!line.isBlank()) {
          SoakSeries.Interval interval = parse(line);
          if (interval != null) {
            intervals.add(interval);
          }
        }
      }
    }
    return intervals;
  }

  /** The interval on {@code line}, or null if the line is not a whole one. */
  static SoakSeries.Interval parse(String line) {
    try (JsonParser json = JSON.createParser(line)) {
      if (json.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      long epochMs = 0;
      double elapsedS = Double.NaN;
      int segment = 0;
      Map<String, Double> signals = new LinkedHashMap<>();
      while (json.nextToken() == JsonToken.FIELD_NAME) {
        String field = json.currentName();
        JsonToken value = json.nextToken();
        switch (field) {
          case "epochMs" -> epochMs = json.getLongValue();
          case "elapsedS" -> elapsedS = json.getDoubleValue();
          case "segment" -> segment = json.getIntValue();
          case "signals" -> {
            while (json.nextToken() == JsonToken.FIELD_NAME) {
              String name = json.currentName();
              JsonToken number = json.nextToken();
              signals.put(
                  name, number == JsonToken.VALUE_NULL ? Double.NaN : json.getDoubleValue());
            }
          }
          default -> {
            if (value.isStructStart()) {
              json.skipChildren();
            }
          }
        }
      }
      return Double.isNaN(elapsedS)
          ? null
          : new SoakSeries.Interval(epochMs, elapsedS, segment, signals);
    } catch (IOException e) {
      return null; // cut short
    }
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
