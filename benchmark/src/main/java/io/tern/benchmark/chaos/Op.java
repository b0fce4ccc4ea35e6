package io.tern.benchmark.chaos;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One client interaction of a chaos run, or one thing the harness did or observed, as the history
 * records it: what was asked, when (milliseconds since the run's start, from the request's send to
 * its answer), and what the client was told. Fields that do not apply to a kind are null or 0.
 *
 * @param seq the order in which answers arrived
 * @param kind what happened
 * @param start when the request was sent (ms since the run started)
 * @param end when its answer arrived (ms since the run started)
 * @param outcome what the client was told
 * @param error the gRPC status code or exception when not {@link Outcome#OK}
 * @param biz the instance's business id: its {@code biz} variable and message correlation key
 * @param instanceKey the process instance key, when known
 * @param jobKey the job's key (activations and completions)
 * @param task the service task's job type (activations and completions)
 * @param vars variables read (activations) or written (completions, publications)
 * @param detail free text: the fault and its node, a publication's message id
 */
record Op(
    long seq,
    Kind kind,
    long start,
    long end,
    Outcome outcome,
    String error,
    String biz,
    long instanceKey,
    long jobKey,
    String task,
    Map<String, String> vars,
    String detail) {

  /** What an operation was. */
  enum Kind {
    /** A process instance creation. */
    CREATE,
    /** A message publication. */
    PUBLISH,
    /** One job handed to a worker by an activation (a line per job). */
    ACTIVATE,
    /** A job completion. */
    COMPLETE,
    /**
     * A fault injected (start) and healed (end); detail names it, error says if recovery failed.
     */
    FAULT,
    /** After the settle: whether an instance is still active (FAIL) or gone (OK). */
    ENDED
  }

  /** What the client was told. */
  enum Outcome {
    /** Acknowledged. */
    OK,
    /** Refused: the request definitely did not take effect. */
    FAIL,
    /** No definite answer (timeout, connection lost): it may or may not have taken effect. */
    UNKNOWN
  }

  Op {
    vars = vars == null ? Map.of() : Map.copyOf(vars);
  }

  /** A builder-like start for tests and the recorder. */
  static Op of(Kind kind, Outcome outcome, String biz) {
    return new Op(0, kind, 0, 0, outcome, null, biz, 0, 0, null, Map.of(), null);
  }

  Op withTimes(long start, long end) {
    return new Op(
        seq, kind, start, end, outcome, error, biz, instanceKey, jobKey, task, vars, detail);
  }

  Op withSeq(long seq) {
    return new Op(
        seq, kind, start, end, outcome, error, biz, instanceKey, jobKey, task, vars, detail);
  }

  Op withError(String error) {
    return new Op(
        seq, kind, start, end, outcome, error, biz, instanceKey, jobKey, task, vars, detail);
  }

  Op withInstance(long instanceKey) {
    return new Op(
        seq, kind, start, end, outcome, error, biz, instanceKey, jobKey, task, vars, detail);
  }

  Op withJob(long jobKey, String task) {
    return new Op(
        seq, kind, start, end, outcome, error, biz, instanceKey, jobKey, task, vars, detail);
  }

  Op withVars(Map<String, String> vars) {
    return new Op(
        seq, kind, start, end, outcome, error, biz, instanceKey, jobKey, task, vars, detail);
  }

  Op withDetail(String detail) {
    return new Op(
        seq, kind, start, end, outcome, error, biz, instanceKey, jobKey, task, vars, detail);
  }

  /** The JSON object of this operation, one line. */
  String toJson() {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("seq", seq);
    fields.put("kind", kind.name().toLowerCase(java.util.Locale.ROOT));
    fields.put("start", start);
    fields.put("end", end);
    fields.put("outcome", outcome.name().toLowerCase(java.util.Locale.ROOT));
    fields.put("error", error);
    fields.put("biz", biz);
    fields.put("instanceKey", instanceKey == 0 ? null : instanceKey);
    fields.put("jobKey", jobKey == 0 ? null : jobKey);
    fields.put("task", task);
    fields.put("vars", vars.isEmpty() ? null : new java.util.TreeMap<>(vars));
    fields.put("detail", detail);
    StringBuilder json = new StringBuilder("{");
    String comma = "";
    for (Map.Entry<String, Object> field : fields.entrySet()) {
      if (field.getValue() == null) {
        continue;
      }
      json.append(comma);
      string(json, field.getKey());
      json.append(':');
      value(json, field.getValue());
      comma = ",";
    }
    return json.append('}').toString();
  }

  private static void value(StringBuilder json, Object value) {
    if (value instanceof Number) {
      json.append(value);
    } else if (value instanceof Map<?, ?> map) {
      json.append('{');
      String comma = "";
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        json.append(comma);
        string(json, String.valueOf(entry.getKey()));
        json.append(':');
        string(json, String.valueOf(entry.getValue()));
        comma = ",";
      }
      json.append('}');
    } else {
      string(json, String.valueOf(value));
    }
  }

  private static void string(StringBuilder json, String text) {
    json.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> json.append("\\\"");
        case '\\' -> json.append("\\\\");
        case '\n' -> json.append("\\n");
        case '\r' -> json.append("\\r");
        case '\t' -> json.append("\\t");
        default -> {
          if (c < 0x20) {
            json.append(String.format("\\u%04x", (int) c));
          } else {
            json.append(c);
          }
        }
      }
    }
    json.append('"');
  }
}
