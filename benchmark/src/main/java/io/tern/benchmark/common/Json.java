package io.tern.benchmark.common;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The benchmarks' JSON results: a minimal writer, so the benchmark jar needs no JSON library. */
public final class Json {
  private Json() {}

  /** Writes {@code root} (maps, lists, strings, numbers, booleans, null) to {@code file}. */
  public static void write(Path file, Object root) throws IOException {
    StringBuilder json = new StringBuilder();
    appendJson(json, root, "");
    json.append('\n');
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(file, json, StandardCharsets.UTF_8);
  }

  /** A minimal JSON writer: enough for maps, lists, strings, numbers and booleans. */
  private static void appendJson(StringBuilder out, Object value, String indent) {
    if (value == null || (value instanceof Double d && (d.isNaN() || d.isInfinite()))) {
      out.append("null");
    } else if (value instanceof Map<?, ?> map) {
      String inner = indent + "  ";
      out.append("{");
      String comma = "\n";
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        out.append(comma).append(inner);
        appendString(out, String.valueOf(entry.getKey()));
        out.append(": ");
        appendJson(out, entry.getValue(), inner);
        comma = ",\n";
      }
      out.append(map.isEmpty() ? "}" : "\n" + indent + "}");
    } else if (value instanceof List<?> list) {
      String inner = indent + "  ";
      out.append("[");
      String comma = "\n";
      for (Object element : list) {
        out.append(comma).append(inner);
        appendJson(out, element, inner);
        comma = ",\n";
      }
      out.append(list.isEmpty() ? "]" : "\n" + indent + "]");
    } else if (value instanceof Double d) {
      // Seven significant digits: more than any figure here is worth, and no float noise.
      out.append(new BigDecimal(d).round(new MathContext(7)).stripTrailingZeros().toPlainString());
    } else if (value instanceof Number || value instanceof Boolean) {
      out.append(value);
    } else {
      appendString(out, value.toString());
    }
  }

  private static void appendString(StringBuilder out, String text) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
